import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { encodeArgs } from './args/encode';
import { markFilter, MARK_LEVEL, PROBE_FPS, PROBE_H, PROBE_W, probeFramesArgs } from './args/watermark';
import type { H264Encoder } from './encoders';
import { MediaError } from './errors';
import type { Plan } from './ladder';
import type { FfmpegTools } from './locate';
import { readable } from './probe';
import { runTool } from './process';
import { byFrames, foldProgress, progressOf, type ProgressState } from './progress';

/** Folder of a marked output that holds variant B's media segments (same names as A's beside it). */
export const VARIANT_B_DIR = 'b';

/** Inputs of the second variant's encode (the same source, plan and encoder the ladder used for A). */
export interface VariantOptions {
  tools: FfmpegTools; source: string; durationS: number; plan: Plan; encoder: H264Encoder;
  /** The packaged (A) output directory; B goes to its `b/` folder. */
  outDir: string;
  level?: number; signal?: AbortSignal; nice?: number; stallMs?: number;
  onProgress?(pct: number): void;
}

/** What the second variant cost: its media bytes and segment count (the playlists and init segments are A's). */
export interface VariantResult { bytes: number; segments: number }

/**
 * Encodes variant B of a ladder already packaged as A (marked with `markFilter('a')`): the same source, plan, encoder
 * and keyframes, video only, marked on the other half. The init segments must come out byte for byte A's (same
 * encoder settings: the codec headers do not depend on the picture) and every rendition must have as many segments,
 * so any A segment can be swapped for its B twin; otherwise it fails (the asset stays unmarked). Only B's media
 * segments are kept, in `<outDir>/b/` under A's names.
 */
export async function encodeVariantB(o: VariantOptions): Promise<VariantResult> {
  const dir = join(o.outDir, VARIANT_B_DIR);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const started = Date.now();
  let st: ProgressState = { outTimeS: 0, speed: null, ended: false };
  const args = encodeArgs(o.tools.ffmpeg, { source: o.source, outDir: dir, plan: o.plan, encoder: o.encoder, audio: false, mark: markFilter('b', o.level ?? MARK_LEVEL) });
  const r = await runTool(args, {
    signal: o.signal, stallMs: o.stallMs ?? 60_000, nice: o.nice,
    onStdoutLine: (l) => { st = foldProgress(st, l); o.onProgress?.(progressOf(byFrames(st, o.plan.fps), o.durationS, (Date.now() - started) / 1000).pct); },
  }).done;
  if (r.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    if (r.aborted) throw new MediaError('aborted', false);
    throw new MediaError(`watermark variant B: ${readable(r.stderrTail)}`, !r.signal && !r.stalled);
  }
  const reps = o.plan.renditions.length;
  const seg = /^seg_(\d+)_\d+\.m4s$/;
  const count = (d: string, i: number) => readdirSync(d).filter((f) => seg.exec(f)?.[1] === String(i)).length;
  for (let i = 0; i < reps; i++) {
    const a = readFileSync(join(o.outDir, `init_${i}.m4s`)), b = readFileSync(join(dir, `init_${i}.m4s`));
    if (!a.equals(b) || count(o.outDir, i) !== count(dir, i)) {
      rmSync(dir, { recursive: true, force: true });
      throw new MediaError(`watermark variant B of rendition ${i} does not line up with A (init segment or segment count differs)`, true);
    }
  }
  let bytes = 0, segments = 0;
  for (const f of readdirSync(dir)) {
    const m = seg.exec(f);
    if (!m || Number(m[1]) >= reps) { rmSync(join(dir, f), { recursive: true, force: true }); continue; }
    bytes += statSync(join(dir, f)).size;
    segments++;
  }
  return { bytes, segments };
}

/** A decoded copy's probe frames (one decode, read back from its work file): `count` frames, frame k at k/PROBE_FPS s. */
export interface ProbeStream { count: number; frame(k: number): Uint8Array | null }

/**
 * Decodes `input` once into 64x36 grey probe frames (args/watermark.ts `probeFramesArgs`) and hands them to `use`
 * (work file in `tmpDir`, removed after). The frames are read on demand, so an hour-long copy is not held in memory.
 */
export async function withProbeStream<T>(ffmpeg: string, input: string, tmpDir: string, o: { signal?: AbortSignal; nice?: number }, use: (s: ProbeStream) => T | Promise<T>): Promise<T> {
  const f = join(tmpDir, `probe-${process.pid}-${Math.random().toString(36).slice(2)}.gray`);
  try {
    const r = await runTool(probeFramesArgs(ffmpeg, input, f), { signal: o.signal, stallMs: 120_000, stderrIsProgress: true, timeoutMs: 60 * 60_000, nice: o.nice }).done;
    if (r.aborted) throw new MediaError('aborted', false);
    if (r.code !== 0) throw new MediaError(`the copy could not be decoded: ${readable(r.stderrTail)}`, true);
    const size = PROBE_W * PROBE_H;
    const fd = openSync(f, 'r');
    try {
      const count = Math.floor(fstatSync(fd).size / size);
      return await use({
        count,
        frame(k) {
          if (!(Number.isInteger(k) && k >= 0 && k < count)) return null;
          const b = new Uint8Array(size);
          return readSync(fd, b, 0, size, k * size) === size ? b : null;
        },
      });
    } finally { closeSync(fd); }
  } finally { rmSync(f, { force: true }); }
}

/**
 * 64x36 grey probe frames of `input` at each time (one decode), null where the input has no frame (before its start,
 * past its end). Work file in `tmpDir`.
 */
export function probeFrames(ffmpeg: string, input: string, timesS: number[], tmpDir: string, o: { signal?: AbortSignal; nice?: number } = {}): Promise<(Uint8Array | null)[]> {
  return withProbeStream(ffmpeg, input, tmpDir, o, (s) => timesS.map((t) => s.frame(Math.round(t * PROBE_FPS))));
}
