/**
 * Resolution tiers of billing usage (issue 47): what a minute is billed as, by the picture it was made or delivered in.
 * The short side decides so portrait video bills like its landscape twin (the ladder's rule, src/media/ladder.ts).
 */

/** The tiers, cheapest first; `unknown` only holds usage of content that no longer exists in the records. */
export const TIERS = ['audio', 'up_to_720p', '1080p', 'above_1080p', 'unknown'] as const;
/** One tier. */
export type Tier = (typeof TIERS)[number];
/** A figure split by tier, with its total. */
export type ByTier = Record<Tier, number> & { total: number };

/** Pure: the tier of a picture's short side in pixels (null or 0: audio only). */
export function tierOfShortSide(side: number | null | undefined): Exclude<Tier, 'unknown'> {
  if (!side) return 'audio';
  if (side <= 720) return 'up_to_720p';
  if (side <= 1080) return '1080p';
  return 'above_1080p';
}

/** Pure: the short side of a `WIDTHxHEIGHT` resolution string, or null. */
export function shortSideOf(resolution: string | null | undefined): number | null {
  const m = resolution ? /^(\d+)x(\d+)$/.exec(resolution) : null;
  return m ? Math.min(Number(m[1]), Number(m[2])) : null;
}

/** An empty split. */
export function emptyByTier(): ByTier {
  return { audio: 0, up_to_720p: 0, '1080p': 0, above_1080p: 0, unknown: 0, total: 0 };
}

/** Adds `v` to tier `t` (and the total). */
export function addTo(b: ByTier, t: Tier, v: number): void {
  b[t] += v;
  b.total += v;
}

/** Rounds every figure of a split to `digits` decimals (the answer's precision; sums are taken before rounding). */
export function roundByTier(b: ByTier, digits: number): ByTier {
  const f = 10 ** digits, r = (v: number) => Math.round(v * f) / f;
  const out = emptyByTier();
  for (const t of TIERS) out[t] = r(b[t]);
  out.total = r(b.total);
  return out;
}
