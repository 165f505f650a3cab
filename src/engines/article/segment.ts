/**
 * Topic segmentation in the manner of TextTiling (Hearst 1997): lexical cohesion between the blocks of units either
 * side of each gap, depth of each valley relative to the peaks around it, boundaries at the deepest valleys past a
 * cut-off (mean - sd/2), kept apart by a minimum chapter length and limited in number by the programme's length.
 */
import { cosine, counts, type Unit } from './lexical';

/** Segmentation settings (defaults fit news programmes of minutes to hours). */
export interface SegmentOptions { block?: number; minUnits?: number; minMs?: number; maxChapters?: number }

/** The cohesion score at each gap g (between unit g-1 and g), g = 1..n-1; index 0 unused. */
export function gapScores(units: Unit[], block: number): number[] {
  const out = [0];
  for (let g = 1; g < units.length; g++) {
    const left = counts(units.slice(Math.max(0, g - block), g).flatMap((u) => u.words));
    const right = counts(units.slice(g, g + block).flatMap((u) => u.words));
    out.push(cosine(left, right));
  }
  return out;
}

/** Depth of each gap's valley: climb to the highest score on each side while it keeps rising. */
export function depthScores(s: number[]): number[] {
  const d = s.map(() => 0);
  for (let g = 1; g < s.length; g++) {
    let l = s[g]!, r = s[g]!;
    for (let i = g - 1; i >= 1 && s[i]! >= l; i--) l = s[i]!;
    for (let i = g + 1; i < s.length && s[i]! >= r; i++) r = s[i]!;
    d[g] = l - s[g]! + (r - s[g]!);
  }
  return d;
}

/** Chapter boundaries: the unit indices where a new chapter starts (always starts with 0), in order. */
export function segmentUnits(units: Unit[], durationMs: number, o: SegmentOptions = {}): number[] {
  const n = units.length;
  const block = o.block ?? (n >= 30 ? 6 : n >= 12 ? 3 : 2);
  const minUnits = o.minUnits ?? 2;
  const minMs = o.minMs ?? Math.min(60_000, Math.max(4_000, durationMs / 20));
  const maxChapters = o.maxChapters ?? Math.max(2, Math.min(12, Math.ceil(durationMs / 120_000)));
  if (n < 2 * minUnits) return [0];
  const depth = depthScores(gapScores(units, block));
  const gaps = depth.slice(1);
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const sd = Math.sqrt(gaps.reduce((a, b) => a + (b - mean) ** 2, 0) / gaps.length);
  const cut = Math.max(1e-9, mean - sd / 2);
  const candidates = depth.map((v, g) => [v, g] as const).filter(([v, g]) => g >= 1 && v >= cut).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const chosen: number[] = [];
  for (const [, g] of candidates) {
    if (chosen.length + 1 >= maxChapters) break;
    const bounds = [0, ...chosen, n].sort((a, b) => a - b);
    const next = bounds.find((b) => b > g)!, prev = [...bounds].reverse().find((b) => b < g)!;
    const ok = g - prev >= minUnits && next - g >= minUnits
      && units[g]!.startMs - units[prev]!.startMs >= minMs && units[next - 1]!.endMs - units[g]!.startMs >= minMs;
    if (ok) chosen.push(g);
  }
  return [0, ...chosen.sort((a, b) => a - b)];
}
