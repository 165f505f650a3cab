import { afterAll, beforeAll, expect, test } from 'bun:test';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planLadder, type Ladder, type Plan } from '../../src/media/ladder';
import { locateFfmpeg } from '../../src/media/locate';
import { probeFile } from '../../src/media/probe';
import type { MediaInfo } from '../../src/media/probe-parse';
import { transcode, type TranscodeResult } from '../../src/media/transcode';
import { spriteArgs } from '../../src/media/args/images';
import { joinRepresentation } from '../../src/media/fmp4';
import { makeClip } from './transcode-helpers';

// Post-encode work moved into the encode (issue 21 goal 3): the sprite tiles come from the encode's own decode and the
// download is written by the same run (tee muxer); the sheet is laid out in-process. Same files, sizes and meaning as
// before. The work dir's name holds every character the tee muxer's syntax treats specially (an operator's data dir
// may): the escaping is proven by ffmpeg itself.
const tools = locateFfmpeg()!;
const ladder: Ladder = {
  segment_s: 2, keyframe_s: 1, max_fps: 30, x264_preset: 'ultrafast', audio: { bitrate_k: 96, channels: 2, sample_rate: 48000 },
  renditions: [{ name: '180p', height: 180, video_k: 300 }, { name: '144p', height: 144, video_k: 150 }],
};
let tmp: string, src: string, work: string, info: MediaInfo, plan: Plan, res: TranscodeResult;

async function probeJson(file: string, entries: string): Promise<any> {
  const p = Bun.spawn([tools.ffprobe, '-v', 'error', '-count_packets', '-show_entries', entries, '-of', 'json', file], { stdout: 'pipe', stderr: 'ignore' });
  return JSON.parse(await new Response(p.stdout).text());
}

/** Top-level MP4 box types in file order. */
function boxes(file: string): string[] {
  const fd = openSync(file, 'r');
  const out: string[] = [];
  try {
    const h = Buffer.alloc(16);
    for (let pos = 0; ;) {
      if (readSync(fd, h, 0, 16, pos) < 8) break;
      let size = h.readUInt32BE(0);
      if (size === 1) size = Number(h.readBigUInt64BE(8));
      out.push(h.toString('latin1', 4, 8));
      if (size < 8) break;
      pos += size;
    }
  } finally { closeSync(fd); }
  return out;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'vs-extras-'));
  src = await makeClip(join(tmp, 'in.mp4'), { seconds: 9 });
  const i = await probeFile(tools.ffprobe, src);
  if ('error' in i) throw new Error(i.error);
  info = i;
  const p = planLadder(ladder, info.video!);
  if ('error' in p) throw new Error(p.error);
  plan = p;
  work = join(tmp, "work a:b|c'd[e]=f\\g");
  mkdirSync(work);
  res = await transcode({ tools, source: src, workDir: work, info, plan, encoder: 'libx264' });
}, 120_000);
afterAll(() => { rmSync(tmp, { recursive: true, force: true }); });

test('sprite sheet: every tile, at the tile size, laid out as thumbs.vtt says', async () => {
  // 9 s at a tile every 2 s: 5 tiles in one row of 160x90.
  expect(res.thumb).toEqual({ w: 160, h: 90, intervalS: 2 });
  const s = await probeJson(join(work, 'sprite.jpg'), 'stream=width,height,codec_name');
  expect(s.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 800, height: 90 });
  const cues = readFileSync(join(work, 'thumbs.vtt'), 'utf8').split('\n').filter((l) => l.startsWith('sprite.jpg#xywh='));
  expect(cues).toEqual([0, 1, 2, 3, 4].map((i) => `sprite.jpg#xywh=${i * 160},0,160,90`));
  // The tiles are not blank: the sheet's JPEG carries picture detail in every tile (testsrc2 is colourful everywhere).
  expect(readFileSync(join(work, 'sprite.jpg')).length).toBeGreaterThan(5_000);
});

/** Decoded RGB pixels of an image (ffmpeg). */
async function rgb(file: string): Promise<Buffer> {
  const p = Bun.spawn([tools.ffmpeg, '-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { stdout: 'pipe', stderr: 'ignore' });
  return Buffer.from(await new Response(p.stdout).arrayBuffer());
}

test('sprite sheet: the same picture ffmpeg\'s own tile= lays out from the lowest rendition (order, orientation, colours)', async () => {
  const low = join(tmp, 'low.mp4'), ref = join(tmp, 'ref.jpg');
  await joinRepresentation(work, plan.renditions.length - 1, low);
  const r = Bun.spawn(spriteArgs(tools.ffmpeg, low, ref, { intervalS: 2, w: 160, h: 90, cols: 5, rows: 1 }), { stderr: 'ignore' });
  expect(await r.exited).toBe(0);
  const [a, b] = [await rgb(join(work, 'sprite.jpg')), await rgb(ref)];
  expect(a.length).toBe(800 * 90 * 3);
  expect(b.length).toBe(a.length);
  // Per tile: mean absolute difference per channel (JPEG and a second scaling: a few levels); a tile out of place,
  // flipped or with red and blue swapped differs by tens.
  for (let t = 0; t < 5; t++) {
    let sum = 0, n = 0;
    for (let y = 0; y < 90; y++) for (let x = t * 160; x < (t + 1) * 160; x++) for (let c = 0; c < 3; c++) { const i = (y * 800 + x) * 3 + c; sum += Math.abs(a[i] - b[i]); n++; }
    expect(sum / n).toBeLessThan(8);
  }
});

test('download: top rendition and audio, every packet, index up front; no work files left', async () => {
  const d = await probeJson(join(work, 'download.mp4'), 'stream=codec_name,nb_read_packets,duration');
  expect(d.streams.map((x: any) => x.codec_name)).toEqual(['h264', 'aac']);
  expect(Number(d.streams[0].nb_read_packets)).toBe(Math.round(9 * plan.fps));
  expect(Math.abs(Number(d.streams[1].duration) - 9)).toBeLessThan(0.1);
  const b = boxes(join(work, 'download.mp4'));
  expect(b.indexOf('moov')).toBeGreaterThanOrEqual(0);
  expect(b.indexOf('moov')).toBeLessThan(b.indexOf('mdat'));
  // The very packets of the top rendition (written by the encode itself, not encoded twice).
  const top = join(tmp, 'top.mp4');
  await joinRepresentation(work, 0, top);
  const hash = async (f: string) => { const p = Bun.spawn([tools.ffmpeg, '-v', 'error', '-i', f, '-map', '0:v', '-c', 'copy', '-f', 'streamhash', '-hash', 'md5', '-'], { stdout: 'pipe', stderr: 'ignore' }); return new Response(p.stdout).text(); };
  expect(await hash(join(work, 'download.mp4'))).toBe(await hash(top));
  expect(readdirSync(work).filter((f) => f.startsWith('.'))).toEqual([]);
  for (const f of ['poster.jpg', 'poster.webp', 'thumbs.vtt', 'master.m3u8', 'manifest.mpd']) expect(readdirSync(work)).toContain(f);
});
