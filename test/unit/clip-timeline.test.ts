import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pieceTiming, planTimeline, shiftPiece } from '../../src/features/clips/timeline';
import { videoLeadS } from '../../src/features/clips/cut-plan';

let dir: string, init: Uint8Array, segs: Uint8Array[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vs-timeline-'));
  // 3 s of 25 fps video + audio as fMP4 HLS pieces of 1 s (real ffmpeg, tiny).
  const p = Bun.spawn(['ffmpeg', '-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=64x36:rate=25', '-f', 'lavfi', '-i', 'sine=sample_rate=48000',
    '-t', '3', '-c:v', 'libx264', '-g', '25', '-bf', '0', '-c:a', 'aac', '-f', 'hls', '-hls_segment_type', 'fmp4', '-hls_time', '1',
    '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(dir, 's%d.m4s'), join(dir, 'i.m3u8')]);
  expect(await p.exited).toBe(0);
  init = readFileSync(join(dir, 'init.mp4'));
  segs = [0, 1, 2].map((i) => new Uint8Array(readFileSync(join(dir, `s${i}.m4s`))));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('piece timing reads the video track: start and duration in its timescale', () => {
  const t = segs.map((s) => pieceTiming(init, s)!);
  expect(t.map((x) => Number(x.duration) / x.timescale)).toEqual([1, 1, 1]);
  expect(Number(t[1].start - t[0].start) / t[0].timescale).toBe(1);
});

test('planTimeline lays pieces end to end from 0 whatever their original times; shiftPiece writes it', () => {
  // Pieces out of their original order (as edges and copies come from different time bases).
  const pieces = [segs[2], segs[0], segs[1]].map((s) => ({ seg: s.slice(), timing: pieceTiming(init, s)! }));
  const plan = planTimeline(pieces);
  expect(plan.map((p) => p.durationS)).toEqual([1, 1, 1]);
  pieces.forEach((p, i) => shiftPiece(p.seg, p.timing, plan[i].shift));
  const starts = pieces.map((p) => { const t = pieceTiming(init, p.seg)!; return Number(t.start) / t.timescale; });
  expect(starts[1] - starts[0]).toBeCloseTo(1, 6);
  expect(starts[2] - starts[1]).toBeCloseTo(1, 6);
  expect(starts[0]).toBeGreaterThanOrEqual(0);
  expect(starts[0]).toBeLessThan(0.1);
  expect(() => shiftPiece(pieces[0].seg, pieceTiming(init, pieces[0].seg)!, -10_000_000n)).toThrow();
});

test('videoLeadS: the video start after the earliest stream (ffmpeg -ss counts from the input start)', () => {
  expect(videoLeadS('video,100.040000\naudio,100.000000\n')).toBeCloseTo(0.04, 6);
  expect(videoLeadS('audio,5.5\nvideo,5.5\n')).toBe(0);
  expect(videoLeadS('audio,1.0\n')).toBe(0);
  expect(videoLeadS('video,N/A\n')).toBe(0);
});
