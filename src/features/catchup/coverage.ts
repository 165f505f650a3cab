import { slice, type SegTimes } from '../../live/seg-times';

/** The timing fields of an indexed segment that coverage and selection need. */
export interface SegTime { start_ms: number; duration_ms: number }

/**
 * Recorded milliseconds inside each window, from segments sorted by start (one pass over both lists; windows
 * may overlap each other and need not be sorted). O(segments + windows · overlap).
 */
export function recordedMs(segs: SegTime[], windows: { from: number; to: number }[]): number[] {
  const order = windows.map((w, i) => ({ ...w, i })).sort((a, b) => a.from - b.from);
  const out = new Array<number>(windows.length).fill(0);
  let lo = 0;
  for (const w of order) {
    while (lo < segs.length && segs[lo].start_ms + segs[lo].duration_ms <= w.from) lo++;
    let sum = 0;
    for (let j = lo; j < segs.length && segs[j].start_ms < w.to; j++) {
      const s = segs[j].start_ms, e = s + segs[j].duration_ms;
      sum += Math.max(0, Math.min(e, w.to) - Math.max(s, w.from));
    }
    out[w.i] = sum;
  }
  return out;
}

/**
 * Segments a [from, to) range plays, cut at the nearest segment boundaries: a segment belongs when its middle
 * lies inside the range; a range shorter than half a segment still gets the segment holding `from`.
 */
export function selectRange<T extends SegTime>(segs: T[], from: number, to: number): T[] {
  const out = segs.filter((s) => { const mid = s.start_ms + s.duration_ms / 2; return mid >= from && mid < to; });
  if (!out.length) { const hold = segs.find((s) => s.start_ms <= from && s.start_ms + s.duration_ms > from); if (hold) out.push(hold); }
  return out;
}

/** `selectRange` over typed-array timings (sorted, non-overlapping: the selection is one contiguous slice). */
export function selectTimes(t: SegTimes, from: number, to: number): SegTimes {
  let i0 = 0;
  while (i0 < t.n && t.start[i0] + t.dur[i0] / 2 < from) i0++;
  let i1 = i0;
  while (i1 < t.n && t.start[i1] + t.dur[i1] / 2 < to) i1++;
  if (i1 > i0) return slice(t, i0, i1);
  for (let i = 0; i < t.n; i++) if (t.start[i] <= from && t.start[i] + t.dur[i] > from) return slice(t, i, i + 1);
  return slice(t, 0, 0);
}

/** Recorded spans (flat [from, to, ...]) as coverage input. */
export function spanTimes(spans: number[]): SegTime[] {
  const out: SegTime[] = [];
  for (let i = 0; i < spans.length; i += 2) out.push({ start_ms: spans[i], duration_ms: spans[i + 1] - spans[i] });
  return out;
}

/** Catch-up status of a programme from its coverage (publishing states come from the VOD record). */
export function recordingStatus(coverage: number, airing: boolean): 'recorded' | 'partial' | 'not_recorded' {
  if (coverage <= 0) return 'not_recorded';
  if (airing) return 'recorded';
  return coverage >= 0.95 ? 'recorded' : 'partial';
}
