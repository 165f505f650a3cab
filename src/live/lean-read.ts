import type { HourRow } from './segment-store';
import { HOUR_MS } from './hours';
import { decodeHourInto, decodeSpans, encodeHour, newTimes, overlapping, spansOf, type SegTimes } from './seg-times';
import type { IndexedChannel } from './model';
import type { SegmentStore } from './segment-store';

/** What the lean reads need of the segment index (declared here, so the index can import these reads). */
type SegmentIndex = { readonly store: SegmentStore; materialize(ch: IndexedChannel, h: HourRow): void };

type ListKey = { n: number; first_ms: number; last_ms: number; end_ms: number; dir_mtime: number };
const valid = (l: ListKey | undefined, h: HourRow): boolean =>
  !!l && l.n === h.n && l.first_ms === h.first_ms && l.last_ms === h.last_ms && l.end_ms === h.end_ms && l.dir_mtime === h.dir_mtime;

/**
 * Builds (from its rows) and stores the encoded list of a closed hour; returns its timings. The open (newest) hour
 * of a rendition never gets one: its rows still change with every segment.
 */
export function sealHour(index: SegmentIndex, h: HourRow, out: SegTimes = newTimes(h.n)): SegTimes {
  const from = out.n;
  index.store.times(h.channel_id, h.rendition, h.hour_ms, h.hour_ms + HOUR_MS, out);
  if (out.n - from === h.n && h.n > 0) {
    const t = { n: out.n - from, start: out.start.subarray(from, out.n), dur: out.dur.subarray(from, out.n), disc: out.disc.subarray(from, out.n), init: out.init.subarray(from, out.n) };
    index.store.putList(h, encodeHour(h.hour_ms, t));
  }
  return out;
}

/**
 * Timings of the segments overlapping [fromMs, toMs), oldest first: closed hours decode their encoded list (built
 * on first need), the open hour reads its rows, hours never read are derived from their listing first.
 */
export function segmentTimes(index: SegmentIndex, ch: IndexedChannel, rendition: string, fromMs: number, toMs: number): SegTimes {
  const store = index.store;
  const hours = store.hoursOverlapping(ch.id, rendition, fromMs, toMs);
  if (!hours.length) return newTimes();
  const newest = store.newestHourMs(ch.id, rendition);
  const lists = store.lists(ch.id, rendition, hours[0].hour_ms, hours[hours.length - 1].hour_ms);
  const out = newTimes(hours.reduce((a, h) => a + h.n, 0));
  for (const h of hours) {
    const l = lists.get(h.hour_ms);
    if (h.materialized && valid(l, h)) { decodeHourInto(h.hour_ms, l!, out); continue; }
    if (!h.materialized) index.materialize(ch, h);
    if (h.hour_ms !== newest) sealHour(index, h, out);
    else store.times(ch.id, rendition, h.hour_ms, h.hour_ms + HOUR_MS, out);
  }
  return overlapping(out, fromMs, toMs);
}

/**
 * Recorded spans (flat [from, to, ...], merged where segments touch) overlapping [fromMs, toMs), from hour
 * summaries: a closed hour's stored spans, an unread hour without inner breaks is one span [first, end), any other
 * hour from its segment timings. Edge spans are not clipped (coverage clips them to its windows).
 */
export function recordedSpans(index: SegmentIndex, ch: IndexedChannel, rendition: string, fromMs: number, toMs: number): number[] {
  const store = index.store;
  const hours = store.hoursOverlapping(ch.id, rendition, fromMs, toMs);
  if (!hours.length) return [];
  const newest = store.newestHourMs(ch.id, rendition);
  const lists = store.listSpans(ch.id, rendition, hours[0].hour_ms, hours[hours.length - 1].hour_ms);
  const out: number[] = [];
  const add = (a: number, b: number) => { if (out.length && out[out.length - 1] === a) out[out.length - 1] = b; else out.push(a, b); };
  for (const h of hours) {
    const l = lists.get(h.hour_ms);
    if (h.materialized && valid(l, h)) { const s = decodeSpans(l!.spans); for (let i = 0; i < s.length; i += 2) add(s[i], s[i + 1]); continue; }
    if (!h.materialized && h.inner_discs === 0) { add(h.first_ms, h.end_ms); continue; }
    if (!h.materialized) index.materialize(ch, h);
    const t = h.hour_ms !== newest ? sealHour(index, h) : store.times(ch.id, rendition, h.hour_ms, h.hour_ms + HOUR_MS);
    const s = spansOf(t);
    for (let i = 0; i < s.length; i += 2) add(s[i], s[i + 1]);
  }
  return out;
}
