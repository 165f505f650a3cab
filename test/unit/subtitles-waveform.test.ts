import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waveformAudioArgs } from '../../src/media/args/waveform-audio';
import { MAX_PIXELS, peaksOfRawFile, samplesPerPixel } from '../../src/features/subtitles/waveform-peaks';

// Issue 43, the cue editor's waveform: the ffmpeg argv (golden) and the peaks computed from raw samples.
const dir = mkdtempSync(join(tmpdir(), 'vs-wave-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('waveform audio argv: first audio stream, mono 8 kHz raw s16le, safe input', () => {
  expect(waveformAudioArgs('ffmpeg', '/d/src.mp4', '/a/w.raw').join(' ')).toBe(
    'ffmpeg -nostdin -hide_banner -loglevel error -y -protocol_whitelist file -format_whitelist ' +
    'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,mpegts,avi,flv,mxf,wav,mp3,aac,ogg,asf,mpeg,mpegvideo,m4v,h264,hevc,flac,dv,gif ' +
    '-probesize 50000000 -analyzeduration 20000000 -i /d/src.mp4 -map 0:a:0 -vn -sn -dn -ac 1 -ar 8000 -c:a pcm_s16le -f s16le /a/w.raw');
});

test('samples per pixel: 10 ms for short media, coarser so long media stays under the pixel cap', () => {
  expect(samplesPerPixel(8000, 60)).toBe(80);
  expect(samplesPerPixel(8000, null)).toBe(80);
  const spp = samplesPerPixel(8000, 4 * 3600);
  expect(spp).toBeGreaterThan(80);
  expect((4 * 3600 * 8000) / spp).toBeLessThanOrEqual(MAX_PIXELS);
});

test('peaks: min and max of each pixel in 8 bits, the last short pixel kept, many read blocks', () => {
  const spp = 4;
  // 3 full pixels + 2 samples, then enough silence to span several of the reader's blocks.
  const head = [0, 32767, -32768, 256, -512, 512, 100, -100, 1000, 2000, 3000, 4000, -256, 256];
  const tail = new Array(spp * 2 * 4096 * 2 + 6).fill(0);
  const all = [...head, ...tail, 25600];
  const b = Buffer.alloc(all.length * 2);
  all.forEach((v, i) => b.writeInt16LE(v, i * 2));
  const f = join(dir, 'a.raw');
  writeFileSync(f, b);
  const w = peaksOfRawFile(f, 8000, spp);
  expect([w.version, w.channels, w.bits, w.sample_rate, w.samples_per_pixel]).toEqual([2, 1, 8, 8000, 4]);
  expect(w.length).toBe(Math.ceil(all.length / spp));
  expect(w.data.length).toBe(w.length * 2);
  expect(w.data.slice(0, 6)).toEqual([-128, 127, -2, 2, 4, 16]);
  expect(w.data.slice(6, 8)).toEqual([-1, 1]); // -256,256 then silence in the same pixel
  expect(w.data.slice(-2)).toEqual([100, 100]); // the short last pixel holds the final sample alone
  expect(w.data.slice(-4, -2)).toEqual([0, 0]);
  expect(w.data.every((v) => v >= -128 && v <= 127)).toBe(true);
});

test('peaks of an empty file: no pixels', () => {
  const f = join(dir, 'e.raw');
  writeFileSync(f, '');
  const w = peaksOfRawFile(f, 8000, 80);
  expect([w.length, w.data]).toEqual([0, []]);
});
