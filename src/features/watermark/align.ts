import { PROBE_FPS, PROBE_H, PROBE_W } from '../../media/args/watermark';

/**
 * Finding where a leaked copy starts in its asset (pure arithmetic over probe frames, media/watermark.ts): each probe
 * frame is reduced to a small picture signature, and the copy's signatures are slid along the asset's; the offset
 * with the smallest mean difference is where the copy starts. The mark itself (a 2 % half-picture lift) moves a
 * signature by about one luma level, the content by tens, so A's frames stand for both variants here.
 */

/** Blocks across and down of a frame's signature (8x4 block means of the 64x36 probe). */
const FX = 8, FY = 4;
/** Values per frame signature. */
export const SIGNATURE_LEN = FX * FY;

/** Pure: a probe frame's signature: its 8x4 block means less the frame's mean (a re-encode's brightness shift cancels). */
export function frameSignature(f: Uint8Array, out: Float32Array = new Float32Array(SIGNATURE_LEN), at = 0): Float32Array {
  const bw = PROBE_W / FX, bh = Math.floor(PROBE_H / FY);
  let all = 0;
  for (let by = 0; by < FY; by++) for (let bx = 0; bx < FX; bx++) {
    let s = 0;
    for (let y = by * bh; y < (by + 1) * bh; y++) for (let x = bx * bw; x < (bx + 1) * bw; x++) s += f[y * PROBE_W + x]!;
    const m = s / (bw * bh);
    out[at + by * FX + bx] = m;
    all += m;
  }
  const mean = all / SIGNATURE_LEN;
  for (let i = 0; i < SIGNATURE_LEN; i++) out[at + i] -= mean;
  return out;
}

/** Pure: the mean absolute difference of the copy's first `frames` signatures and the asset's from frame `d` on. */
export function errorAt(ref: Float32Array, copy: Float32Array, d: number, frames: number): number {
  const count = frames * SIGNATURE_LEN, base = d * SIGNATURE_LEN;
  let sum = 0;
  for (let i = 0; i < count; i++) sum += Math.abs(copy[i]! - ref[base + i]!);
  return sum / count;
}

/** Where a copy was found to start: the offset in probe frames, its mean difference and the best one at least 1 s away. */
export interface Alignment { offsetFrames: number; error: number; nextError: number | null }

/**
 * Pure: the offset (in probe frames, from 0) of the asset at which the copy's signatures match best (`ref` and `copy`:
 * signatures one after another, SIGNATURE_LEN values each). At each offset the mean absolute difference over the
 * overlap is taken; an overlap shorter than `minOverlap` frames (or the whole copy, if shorter) is not a candidate.
 * `nextError`: the best error at an offset at least `apart` frames from the chosen one (how clear the choice was).
 * Exhaustive: asset frames × copy frames × SIGNATURE_LEN (the caller bounds the copy's frames).
 * Null when no offset is a candidate (the copy is longer than the asset and minOverlap too big, or empty).
 */
export function alignCopy(ref: Float32Array, copy: Float32Array, o: { minOverlap: number; apart: number }): Alignment | null {
  const n = ref.length / SIGNATURE_LEN, l = copy.length / SIGNATURE_LEN;
  const need = Math.min(l, o.minOverlap);
  if (!l || !n) return null;
  const errors: number[] = [];
  let best = -1, bestErr = Infinity;
  for (let d = 0; d < n; d++) {
    const overlap = Math.min(l, n - d);
    if (overlap < need) break;
    const err = errorAt(ref, copy, d, overlap);
    errors.push(err);
    if (err < bestErr) { bestErr = err; best = d; }
  }
  if (best < 0) return null;
  let next = Infinity;
  errors.forEach((e, d) => { if (Math.abs(d - best) >= o.apart && e < next) next = e; });
  return { offsetFrames: best, error: bestErr, nextError: Number.isFinite(next) ? next : null };
}

/** Least overlap of copy and asset for an offset to count in a search (5 s, or the whole copy when shorter). */
const MIN_OVERLAP = 5 * PROBE_FPS;

/** Where a trace placed its copy in the asset: given, or searched (with how clearly: the mean difference there and elsewhere). */
export interface TraceAlignment {
  offset_s: number; searched: boolean;
  /** Mean absolute difference (luma levels) of the copy's frame signatures and the asset's at that offset. */
  error: number | null;
  /** The smallest such difference at any offset at least 1 s away (searched only): the larger, the clearer. */
  next_error: number | null;
}

/**
 * Pure: places a copy (its signatures) in the asset (A's): at `givenS` when given (its error there reported, null
 * when the copy lies past the asset's end), else searched (`alignCopy`, offsets 1/PROBE_FPS apart); null when a
 * search finds no candidate.
 */
export function placeCopy(ref: Float32Array, copy: Float32Array, givenS: number | null): TraceAlignment | null {
  const r3 = (x: number) => +x.toFixed(3);
  if (givenS !== null) {
    const d = Math.round(givenS * PROBE_FPS), frames = Math.min(copy.length, ref.length - d * SIGNATURE_LEN) / SIGNATURE_LEN;
    return { offset_s: givenS, searched: false, error: frames > 0 ? r3(errorAt(ref, copy, d, frames)) : null, next_error: null };
  }
  const found = alignCopy(ref, copy, { minOverlap: MIN_OVERLAP, apart: PROBE_FPS });
  return found && { offset_s: found.offsetFrames / PROBE_FPS, searched: true, error: r3(found.error), next_error: found.nextError === null ? null : r3(found.nextError) };
}
