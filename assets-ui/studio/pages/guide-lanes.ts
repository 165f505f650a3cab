/**
 * Where the blocks of one day column are drawn. A block is at least `minPx` tall so a 5-minute programme stays
 * readable and clickable. A block that such a short one would then cover starts just below it instead, when it ends
 * below it (a 5-minute bulletin before a programme: both keep the whole width; the shift stays under one line, as each
 * block still ends at most one line below its end); blocks that still overlap (back-to-back short ones, or programmes
 * a draft makes overlap) share the width side by side.
 */

/** A block's drawn extent in pixels down the column. */
export interface Span { key: string; top: number; bottom: number }
/** Where a block sits: lane `lane` (0 = inline start) of `of` equal lanes. */
export interface Lane { lane: number; of: number }
/** A block as drawn: its extent and its lane. */
export interface Placed extends Lane { top: number; bottom: number }

/** Lanes for the spans: each cluster of overlapping spans gets as many lanes as it needs at most, first free lane first. */
export function lanes(spans: Span[]): Map<string, Lane> {
  const sorted = [...spans].sort((a, b) => a.top - b.top || b.bottom - a.bottom);
  const out = new Map<string, Lane>();
  let cluster: { key: string; lane: number }[] = [];
  let ends: number[] = [];
  let clusterEnd = -Infinity;
  const flush = () => { for (const c of cluster) out.set(c.key, { lane: c.lane, of: ends.length }); cluster = []; ends = []; };
  for (const s of sorted) {
    if (s.top >= clusterEnd) { flush(); clusterEnd = -Infinity; }
    let lane = ends.findIndex((e) => e <= s.top);
    if (lane < 0) { lane = ends.length; ends.push(s.bottom); } else ends[lane] = s.bottom;
    cluster.push({ key: s.key, lane });
    clusterEnd = Math.max(clusterEnd, s.bottom);
  }
  flush();
  return out;
}

/** Places blocks given their true extents (`bottom` = where the programme ends): minimum height, push-down, lanes. */
export function place(spans: Span[], minPx: number): Map<string, Placed> {
  const sorted = [...spans].sort((a, b) => a.top - b.top || b.bottom - a.bottom);
  const drawn: (Span & { end: number })[] = [];
  let prev: (Span & { end: number }) | null = null; // the block reaching lowest so far
  for (const s of sorted) {
    let top = s.top;
    // Covered only by a short block's one-line minimum (they do not truly overlap): start below it when it ends below it.
    if (prev && prev.bottom > top && prev.end <= top && s.bottom > prev.bottom) top = prev.bottom;
    const d = { key: s.key, top, bottom: Math.max(s.bottom, top + minPx), end: s.bottom };
    drawn.push(d);
    if (!prev || d.bottom > prev.bottom) prev = d;
  }
  const ln = lanes(drawn);
  return new Map(drawn.map((d) => [d.key, { top: d.top, bottom: d.bottom, ...ln.get(d.key)! }]));
}
