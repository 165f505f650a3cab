import { expect, test } from 'bun:test';
import { ladderFilter } from '../../src/media/args/encode';
import { markFilter, probeFramesArgs, PROBE_H, PROBE_W } from '../../src/media/args/watermark';
import { planLadder, type Ladder } from '../../src/media/ladder';
import { SEGMENT_FILE, tenantMarkKey, variantBit } from '../../src/features/watermark/bits';
import { halves, log10Tail, readBits, scoreSessions } from '../../src/features/watermark/detect';
import { alignCopy, frameSignature, placeCopy, SIGNATURE_LEN } from '../../src/features/watermark/align';

// The A/B watermark's pure parts (issue 46): argument builders (golden), the per-session bit, reading and scoring.
const ladder: Ladder = {
  segment_s: 4, keyframe_s: 2, max_fps: 30, x264_preset: 'veryfast', audio: { bitrate_k: 128, channels: 2, sample_rate: 48000 },
  renditions: [{ name: '720p', height: 720, video_k: 2800 }, { name: '360p', height: 360, video_k: 800 }],
};
const plan = planLadder(ladder, { codec: 'h264', width: 1920, height: 1080, displayWidth: 1920, displayHeight: 1080, rotation: 0, fps: 25, pixFmt: 'yuv420p', bitDepth: 8, hdr: false, profile: 'High' });
if ('error' in plan) throw new Error(plan.error);

test('marks: A the left half, B the right, drawn once before the renditions are scaled', () => {
  expect(markFilter('a')).toBe('drawbox=x=0:y=0:w=iw/2:h=ih:color=white@0.02:t=fill');
  expect(markFilter('b', 0.03)).toBe('drawbox=x=iw/2:y=0:w=iw/2:h=ih:color=white@0.03:t=fill');
  expect(() => markFilter('a', 0)).toThrow();
  expect(() => markFilter('a', 0.5)).toThrow();
  expect(ladderFilter({ plan, encoder: 'libx264', mark: markFilter('a') })).toBe(
    '[0:v]format=yuv420p,drawbox=x=0:y=0:w=iw/2:h=ih:color=white@0.02:t=fill,split=2[s0][s1];[s0]scale=1280:720:flags=bicubic,setsar=1[v0];[s1]scale=640:360:flags=bicubic,setsar=1[v1]',
  );
  expect(ladderFilter({ plan, encoder: 'libx264' })).not.toContain('drawbox');
});

test('probe frames: one decode of a local file, 10 grey 64x36 frames a second', () => {
  expect(probeFramesArgs('ffmpeg', '/w/leak.bin', '/w/p.gray').join(' ')).toBe(
    'ffmpeg -nostdin -hide_banner -loglevel error -y -protocol_whitelist file -i /w/leak.bin -an -sn -dn '
    + '-vf fps=fps=10:start_time=0,scale=64:36:flags=area,format=gray -f rawvideo /w/p.gray',
  );
});

test('the per-session bit: stable, per tenant, per asset, about half ones; segment names', () => {
  const k1 = tenantMarkKey('secret', 't1'), k2 = tenantMarkKey('secret', 't2');
  const seq = (k: Buffer, asset: string, sid: string) => Array.from({ length: 64 }, (_, i) => variantBit(k, asset, sid, i + 1)).join('');
  expect(seq(k1, 'a', 's')).toBe(seq(k1, 'a', 's'));
  expect(seq(k1, 'a', 's')).not.toBe(seq(k2, 'a', 's'));
  expect(seq(k1, 'a', 's')).not.toBe(seq(k1, 'b', 's'));
  expect(seq(k1, 'a', 's')).not.toBe(seq(k1, 'a', 't'));
  const ones = [...seq(k1, 'a', 's')].filter((c) => c === '1').length;
  expect(ones).toBeGreaterThan(16);
  expect(ones).toBeLessThan(48);
  expect(SEGMENT_FILE.exec('seg_0_00012.m4s')?.slice(1)).toEqual(['0', '00012']);
  for (const bad of ['init_0.m4s', 'seg_0_1.mp4', '../seg_0_1.m4s', 'seg_x_1.m4s']) expect(SEGMENT_FILE.test(bad)).toBe(false);
});

test('reading and scoring: nearer to B reads 1, unreadable segments read nothing, the confidence is a binomial tail', () => {
  const frame = (left: number, right: number) => {
    const f = new Uint8Array(PROBE_W * PROBE_H);
    for (let y = 0; y < PROBE_H; y++) for (let x = 0; x < PROBE_W; x++) f[y * PROBE_W + x] = x < PROBE_W / 2 ? left : right;
    return f;
  };
  expect(halves(frame(110, 100))).toBe(10);
  const a = [frame(104, 100), frame(104, 100), frame(100, 100)], b = [frame(100, 104), frame(100, 104), frame(100, 100)];
  const bits = readBits([frame(101, 102), frame(103, 100), frame(100, 100)], a, b);
  expect(bits.map((x) => x.bit)).toEqual([1, 0, null]);
  expect(readBits([null, frame(103, 100), null], a, b).map((x) => x.bit)).toEqual([null, 0, null]);
  expect(log10Tail(10, 0)).toBe(0);
  expect(log10Tail(16, 16)).toBeCloseTo(-16 * Math.log10(2), 9);
  expect(log10Tail(4, 3)).toBeCloseTo(Math.log10(5 / 16), 9);
  const s = scoreSessions(bits, ['x', 'y'], (sid, n) => (sid === 'x' ? ([1, 0, 1][n - 1] as 0 | 1) : ([0, 1, 0][n - 1] as 0 | 1)));
  expect(s.map((c) => [c.sid, c.matched, c.of])).toEqual([['x', 2, 2], ['y', 0, 2]]);
  expect(s[0].confidence).toBeCloseTo(1 - 2 * 0.25, 9);
});

test('placing a copy cut anywhere: signatures ignore a brightness shift, the best offset is found with a clear margin', () => {
  // Deterministic pseudo-random frames (a smooth picture per frame: blocks of one grey level).
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const frame = () => {
    const levels = Array.from({ length: 32 }, () => 40 + Math.floor(rnd() * 170));
    const f = new Uint8Array(PROBE_W * PROBE_H);
    for (let y = 0; y < PROBE_H; y++) for (let x = 0; x < PROBE_W; x++) f[y * PROBE_W + x] = levels[Math.min(3, Math.floor(y / 9)) * 8 + Math.floor(x / 8)]!;
    return f;
  };
  const frames = Array.from({ length: 120 }, frame);
  const sigs = (fs: Uint8Array[]) => { const out = new Float32Array(fs.length * SIGNATURE_LEN); fs.forEach((f, k) => frameSignature(f, out, k * SIGNATURE_LEN)); return out; };
  // A brighter (+6), slightly noisy copy of frames 37-99: its signatures still match the asset's at 37.
  const copy = frames.slice(37, 100).map((f) => f.map((v) => Math.min(255, v + 6 + Math.floor(rnd() * 3))));
  expect(frameSignature(frames[0]!).reduce((a, b) => a + b, 0)).toBeCloseTo(0, 3);
  const found = alignCopy(sigs(frames), sigs(copy), { minOverlap: 50, apart: 10 })!;
  expect(found.offsetFrames).toBe(37);
  expect(found.error).toBeLessThan(2);
  expect(found.nextError!).toBeGreaterThan(found.error * 5);
  // A copy longer than the asset's remainder is placed only where at least minOverlap frames (or all of it) overlap.
  expect(alignCopy(sigs(frames.slice(0, 10)), sigs(copy), { minOverlap: 50, apart: 10 })).toBeNull();
  expect(alignCopy(new Float32Array(0), sigs(copy), { minOverlap: 50, apart: 10 })).toBeNull();
  // As a trace reports it: searched (in seconds, 10 probe frames a second), or given (its error there; none past the end).
  expect(placeCopy(sigs(frames), sigs(copy), null)).toMatchObject({ offset_s: 3.7, searched: true });
  const given = placeCopy(sigs(frames), sigs(copy), 3.7)!, wrong = placeCopy(sigs(frames), sigs(copy), 0)!;
  expect(given.searched).toBe(false);
  expect(given.error!).toBeLessThan(wrong.error! / 5);
  expect(placeCopy(sigs(frames), sigs(copy), 200)).toEqual({ offset_s: 200, searched: false, error: null, next_error: null });
});
