import type { VideoInfo } from './probe-parse';

/** One rung of a ladder as configured. */
export interface Rung { name: string; height: number; video_k: number }
/** A named ladder as configured in config/ladders.yml. */
export interface Ladder {
  segment_s: number; keyframe_s: number; max_fps: number; x264_preset: string;
  audio: { bitrate_k: number; channels: number; sample_rate: number };
  renditions: Rung[];
}
/** One rendition to encode: exact even size, bitrate and frame rate. */
export interface Rendition {
  name: string; width: number; height: number; video_k: number; maxrate_k: number; bufsize_k: number;
  /** Sample aspect ratio `N/D` that keeps the display aspect exact after rounding to even sizes (DASH needs one aspect per set). */
  sar: string;
}
/** The encode plan for one source. */
export interface Plan {
  renditions: Rendition[]; fps: number; fpsDivisor: number; gopFrames: number; ladder: Ladder;
  /** I-frame playlists: a fragment is cut at every keyframe and `iframe_<i>.m3u8` written per video rendition. */
  iframes?: boolean;
}

/** Smallest picture side we encode; smaller sources fail with a readable error. */
export const MIN_SIDE = 16;

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Pure: the output frame rate, dividing the source rate by the smallest integer that brings it under `max`. */
export function capFps(src: number, max: number): { fps: number; divisor: number } {
  let d = 1;
  while (src / d > max + 0.01) d++;
  return { fps: src / d, divisor: d };
}

/**
 * Pure: renditions for a source. Rungs apply to the short side; rungs above the source are dropped and the
 * source size becomes the top rung when it sits between rungs (never upscale); aspect ratio kept; sizes even.
 */
export function planLadder(ladder: Ladder, v: VideoInfo): Plan | { error: string } {
  const dw = v.displayWidth, dh = v.displayHeight;
  if (Math.min(dw, dh) < MIN_SIDE) return { error: `video is too small (${dw}x${dh}); the minimum is ${MIN_SIDE}x${MIN_SIDE}` };
  const portrait = dh > dw;
  const short = Math.min(dw, dh);
  const aspect = Math.max(dw, dh) / short;
  const rungs = [...ladder.renditions].sort((a, b) => b.height - a.height);
  const size = (s: number) => {
    const sh = even(s), lg = even(s * aspect);
    const wh = portrait ? { width: sh, height: lg } : { width: lg, height: sh };
    return { ...wh, sar: sarFor(dw, dh, wh.width, wh.height) };
  };
  const out: Rendition[] = [];
  const fits = rungs.filter((r) => r.height <= short);
  const above = rungs.filter((r) => r.height > short).pop();
  if (above && (!fits.length || fits[0].height < even(short))) {
    // Source-size top rung: bitrate scaled from the next rung up by pixel count.
    const kbps = Math.max(64, Math.round(above.video_k * (short / above.height) ** 2));
    out.push(rend(`${even(short)}p`, size(short), kbps));
  }
  for (const r of fits) if (!out.some((o) => Math.min(o.width, o.height) === even(r.height))) out.push(rend(r.name, size(r.height), r.video_k));
  const { fps, divisor } = capFps(v.fps, ladder.max_fps);
  return { renditions: out, fps, fpsDivisor: divisor, gopFrames: Math.max(1, Math.round(fps * ladder.keyframe_s)), ladder };
}

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/** Pure: the SAR that makes a w x h picture display at dw:dh (1 when already exact). */
export function sarFor(dw: number, dh: number, w: number, h: number): string {
  const n = dw * h, d = dh * w, g = gcd(n, d);
  return n === d ? '1' : `${n / g}/${d / g}`;
}

function rend(name: string, s: { width: number; height: number; sar: string }, kbps: number): Rendition {
  // Capped VBR: peak 1.5x the target, buffer 2x, so segment sizes stay predictable for ABR players.
  return { name, ...s, video_k: kbps, maxrate_k: Math.round(kbps * 1.5), bufsize_k: kbps * 2 };
}
