/**
 * The in-process MP4 probe against ffprobe on real generated media: wherever it answers, its MediaInfo equals the
 * one parsed from ffprobe field for field; it answers for the plain H.264/AAC shapes it claims (so this cannot pass
 * by always declining), declines everything else, and never throws or hangs on damaged files (fast-check).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeFile } from '../../src/media/probe';
import { probeMp4 } from '../../src/media/probe-mp4';
import type { MediaInfo } from '../../src/media/probe-parse';

let dir: string;
const v = (size: string, rate: string | number) => ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${rate}`];
const a = (layout = 'stereo', rate = 48000) => ['-f', 'lavfi', '-i', `sine=sample_rate=${rate},aformat=channel_layouts=${layout}`];
const x264 = (...more: string[]) => ['-c:v', 'libx264', '-preset', 'ultrafast', ...more];

/** Shapes the fast probe must answer for, exactly as ffprobe. */
const FAST: Record<string, string[]> = {
  'high-aac-moov-at-end.mp4': [...v('320x240', 25), ...a(), ...x264('-profile:v', 'high'), '-c:a', 'aac'],
  'main-mono-faststart.mp4': [...v('320x240', 24), ...a('mono', 44100), ...x264('-profile:v', 'main'), '-c:a', 'aac', '-movflags', '+faststart'],
  'baseline-60-cropped.mp4': [...v('854x480', 60), ...x264('-profile:v', 'baseline')],
  'ntsc-rate-5.1.mp4': [...v('320x240', '30000/1001'), ...a('5.1'), ...x264(), '-c:a', 'aac'],
  'anamorphic-pasp.mp4': [...v('352x288', 25), ...x264(), '-vf', 'setsar=16/11'],
  'full-range-pq.mp4': [...v('320x240', 25), ...x264('-color_range', 'pc', '-color_trc', 'smpte2084', '-color_primaries', 'bt2020', '-colorspace', 'bt2020nc')],
};
/** Shapes it must leave to ffprobe. */
const DECLINED: Record<string, string[]> = {
  'ten-bit.mp4': [...v('320x240', 25), ...x264('-pix_fmt', 'yuv420p10le')],
  'yuv444.mp4': [...v('320x240', 25), ...x264('-pix_fmt', 'yuv444p')],
  'gray.mp4': [...v('320x240', 25), ...x264('-pix_fmt', 'gray')],
  'hevc.mp4': [...v('320x240', 25), '-c:v', 'libx265', '-x265-params', 'log-level=error'],
  'quicktime.mov': [...v('320x240', 25), ...a(), ...x264(), '-c:a', 'aac'],
  'matroska.mkv': [...v('320x240', 25), ...x264()],
  'fragmented.mp4': [...v('320x240', 25), ...x264(), '-movflags', 'frag_keyframe+empty_moov'],
  'mp3-audio.mp4': [...v('320x240', 25), ...a(), ...x264(), '-c:a', 'libmp3lame'],
  'two-audio.mp4': [...v('320x240', 25), ...a(), ...a('mono'), '-map', '0', '-map', '1', '-map', '2', ...x264(), '-c:a', 'aac'],
  'audio-only.m4a': [...a(), '-c:a', 'aac'],
};

/** Copies a generated file with its bytes changed by `fn`. */
function patch(from: string, to: string, fn: (b: Buffer) => void): void {
  const b = Buffer.from(readFileSync(join(dir, from)));
  fn(b);
  writeFileSync(join(dir, to), b);
}

async function ff(out: string, args: string[]): Promise<void> {
  const p = Bun.spawn(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args, '-t', '1', join(dir, out)], { stdout: 'ignore', stderr: 'pipe' });
  const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`ffmpeg for ${out} failed: ${err}`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vs-probe-mp4-'));
  await Promise.all(Object.entries({ ...FAST, ...DECLINED }).map(([n, args]) => ff(n, args)));
  // Rotated phone videos: the display matrix of each quarter turn.
  for (const r of [90, 180, 270]) await ff(`rotated-${r}.mp4`, ['-i', join(dir, 'high-aac-moov-at-end.mp4'), '-c', 'copy', '-metadata:s:v:0', `rotate=${r}`]);
  // No pasp box (phones' muxers often write none; ffmpeg always does): the box renamed to 'free', which every reader
  // skips. The aspect then comes from the SPS's VUI (16:11 here) or is square.
  // (Through a raw stream: the muxer then takes the SPS's aspect for its track header, as a phone's would.)
  await ff('vui-aspect.264', [...v('352x288', 25), ...x264(), '-bsf:v', 'h264_metadata=sample_aspect_ratio=16/11', '-f', 'h264']);
  await ff('vui-aspect.mp4', ['-f', 'h264', '-r', '25', '-i', join(dir, 'vui-aspect.264'), '-c', 'copy']);
  patch('vui-aspect.mp4', 'vui-aspect-no-pasp.mp4', (b) => { b.write('free', b.indexOf('pasp')); });
  patch('high-aac-moov-at-end.mp4', 'square-no-pasp.mp4', (b) => { b.write('free', b.indexOf('pasp')); });
  // A sample entry whose width is not the SPS's (a muxer that lies): ffprobe reports the SPS, so the fast path declines.
  patch('high-aac-moov-at-end.mp4', 'entry-size-lies.mp4', (b) => { const at = b.indexOf('avc1', b.indexOf('stsd')) + 4 + 24; b.writeUInt16BE(b.readUInt16BE(at) + 16, at); });
}, 120_000);
afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

const fast = (n: string) => probeMp4(join(dir, n), statSync(join(dir, n)).size);
const ffprobe = (n: string) => probeFile('ffprobe', join(dir, n), { fast: false });

describe('answers exactly as ffprobe', () => {
  for (const n of [...Object.keys(FAST), 'rotated-90.mp4', 'rotated-180.mp4', 'rotated-270.mp4', 'vui-aspect-no-pasp.mp4', 'square-no-pasp.mp4']) {
    test(n, async () => {
      const mine = await fast(n);
      expect(mine).not.toBeNull();
      const theirs = await ffprobe(n) as MediaInfo;
      // The format bit rate is informational (used by nothing) and ffprobe rounds it either way: within 1 bit/s.
      expect(Math.abs(mine!.bitRate! - theirs.bitRate!)).toBeLessThanOrEqual(1);
      expect({ ...mine, bitRate: 0 }).toEqual({ ...theirs, bitRate: 0 });
    });
  }
  test('the shapes really differ (rotation, aspect, rate, audio, range, HDR are read, not assumed)', async () => {
    const r = await Promise.all(['rotated-90.mp4', 'anamorphic-pasp.mp4', 'ntsc-rate-5.1.mp4', 'full-range-pq.mp4', 'main-mono-faststart.mp4', 'vui-aspect-no-pasp.mp4'].map(fast));
    expect(r[0]!.video!.rotation).toBe(90);
    expect(r[0]!.video!.displayHeight).toBe(320);
    expect(r[1]!.video!.displayWidth).toBe(512);
    expect(r[2]!.video!.fps).toBeCloseTo(29.97, 2);
    expect(r[2]!.audio!.layout).toBe('5.1');
    expect(r[3]!.video).toMatchObject({ pixFmt: 'yuvj420p', hdr: true });
    expect(r[4]!.audio).toMatchObject({ channels: 1, sampleRate: 44100 });
    expect(r[5]!.video!.displayWidth).toBe(512);
  });
});

describe('leaves the rest to ffprobe', () => {
  for (const n of [...Object.keys(DECLINED), 'entry-size-lies.mp4']) test(n, async () => { expect(await fast(n)).toBeNull(); });
  test('probeFile still answers them through ffprobe', async () => {
    expect(await probeFile('ffprobe', join(dir, 'hevc.mp4'))).toMatchObject({ video: { codec: 'hevc' } });
    expect(await probeFile('ffprobe', join(dir, 'ten-bit.mp4'))).toMatchObject({ video: { bitDepth: 10 } });
  });
});

describe('damaged files', () => {
  test('cut anywhere, or bytes of the header and moov changed at random: null or sane, never a throw (fast-check)', async () => {
    const whole = readFileSync(join(dir, 'main-mono-faststart.mp4'));
    const headEnd = Math.min(whole.length, 64 * 1024);
    const target = join(dir, 'damaged.mp4');
    await fc.assert(fc.asyncProperty(
      fc.oneof(
        fc.record({ cut: fc.integer({ min: 0, max: whole.length - 1 }) }),
        fc.record({ flips: fc.array(fc.tuple(fc.integer({ min: 0, max: headEnd - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }) }),
      ),
      async (d) => {
        const bytes = Buffer.from(whole);
        if ('flips' in d) for (const [at, b] of d.flips) bytes[at] = b;
        const body = 'cut' in d ? bytes.subarray(0, d.cut) : bytes;
        writeFileSync(target, body);
        const r = await probeMp4(target, body.length);
        if (r) {
          expect(r.durationS).toBeGreaterThan(0);
          expect(r.video!.width).toBeGreaterThan(0);
          expect(r.video!.fps).toBeGreaterThan(0);
        }
      },
    ), { numRuns: 150 });
  }, 60_000);
  test('a moov that claims more bytes than the file has, or a huge one, is declined', async () => {
    const whole = readFileSync(join(dir, 'main-mono-faststart.mp4'));
    const at = whole.indexOf('moov') - 4;
    const big = Buffer.from(whole);
    big.writeUInt32BE(0x7fffffff, at);
    writeFileSync(join(dir, 'big-moov.mp4'), big);
    expect(await probeMp4(join(dir, 'big-moov.mp4'), big.length)).toBeNull();
  });
});
