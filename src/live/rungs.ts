import type { LiveRung } from '../media/args/live-ladder';

export type { LiveRung };

/** The live ABR ladder (`ladder: "abr"`); renditions never upscale (each is capped at the feed's height). */
export const LIVE_LADDER: LiveRung[] = [
  { name: '720p', height: 720, kbps: 3000 },
  { name: '480p', height: 480, kbps: 1400 },
  { name: '360p', height: 360, kbps: 700 },
];

/** The rungs of a channel's `ladder` column (`abr` or JSON rungs); null for passthrough. */
export function ladderRungs(ladder: string): LiveRung[] | null {
  if (ladder === 'abr') return LIVE_LADDER;
  if (!ladder.startsWith('[')) return null;
  const seen = new Set<string>();
  return (JSON.parse(ladder) as { height: number; video_kbps: number }[])
    .map((r) => ({ name: `${r.height}p`, height: r.height, kbps: r.video_kbps }))
    .filter((r) => !seen.has(r.name) && seen.add(r.name));
}

/**
 * Pure: the rungs worth encoding for a feed `feedHeight` pixels high: rungs above it are dropped (they would only
 * repeat the feed's own height), keeping at least one (the lowest, never upscaled). Unknown height: every rung.
 */
export function capRungs(rungs: LiveRung[], feedHeight: number | null | undefined): LiveRung[] {
  if (!feedHeight) return rungs;
  const fit = rungs.filter((r) => r.height === null || r.height <= feedHeight);
  if (fit.length) return fit;
  const lowest = rungs.reduce((a, b) => ((b.height ?? Infinity) < (a.height ?? Infinity) ? b : a));
  return [lowest];
}

