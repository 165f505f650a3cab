/**
 * A channel's history over a window: feed changes and failovers (from the events the live engine emitted), recording
 * status changes, and recording gaps (holes between the recorded spans of the segment index, the files' truth).
 */
import { iso } from '../../kernel/clock';
import type { AppContext } from '../../kernel/context';
import { invalid } from '../../kernel/errors';
import { recordedRenditions, recordedSpansInRange } from './service';
import type { ChannelRow } from './store';

/** At most this many entries of each list (the answer says `truncated` when more happened). */
const MAX_ENTRIES = 500;
/** The longest window one call may ask for. */
const MAX_WINDOW_MS = 8 * 86_400_000;
/** Holes shorter than this between recorded spans are segment jitter, not gaps (the index's discontinuity rule). */
const MIN_GAP_MS = 1000;
const TYPES = ['channel.feed_changed', 'channel.ingest_failover', 'channel.recording_status'] as const;

/** Parses an RFC 3339 bound of the window; 422 naming the field otherwise. */
function bound(field: string, v: string | undefined, def: number): number {
  if (v === undefined) return def;
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw invalid(field, 'must be an RFC 3339 timestamp');
  return ms;
}

/** Pure: the window [from, to) from the query (default the last hour), ordered and at most 8 days long. */
export function historyWindow(q: { from?: string; to?: string }, now: number): [number, number] {
  const to = bound('to', q.to, now);
  const from = bound('from', q.from, to - 3_600_000);
  if (to <= from) throw invalid('to', 'must be after from');
  if (to - from > MAX_WINDOW_MS) throw invalid('to', 'from and to are at most 8 days apart');
  return [from, to];
}

/** Pure: holes of at least MIN_GAP_MS between recorded spans (flat [a, b, ...]) clipped to [from, to). */
export function gapsBetween(spans: number[], from: number, to: number): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (let i = 1; i + 1 < spans.length; i += 2) {
    const a = Math.max(spans[i], from), b = Math.min(spans[i + 1], to);
    if (b - a >= MIN_GAP_MS) out.push({ from: a, to: b });
  }
  return out;
}

interface EventRow { at: number; type: string; data: string }

/** The history answer of one channel over [from, to). */
export function channelHistory(ctx: AppContext, ch: ChannelRow, from: number, to: number) {
  const rows = ctx.db.query<EventRow, [string, string, string, string, number, number, string, number]>(
    `SELECT at, type, data FROM events WHERE tenant_id = ? AND type IN (?, ?, ?) AND at >= ? AND at < ?
       AND json_extract(data, '$.channel_id') = ? ORDER BY seq LIMIT ?`,
  ).all(ch.tenant_id, ...TYPES, from, to, ch.id, MAX_ENTRIES * 3 + 1);
  let truncated = rows.length > MAX_ENTRIES * 3;
  const feed: { at: string; feed: string; previous: string; reason: string }[] = [];
  const failovers: { at: string; from: string; to: string; reason: string }[] = [];
  const recording: { at: string; recording: string; previous: string }[] = [];
  for (const r of rows) {
    const d = JSON.parse(r.data) as Record<string, string>;
    if (r.type === 'channel.feed_changed' && d.feed !== d.previous) feed.push({ at: iso(r.at), feed: d.feed, previous: d.previous, reason: d.reason ?? '' });
    else if (r.type === 'channel.ingest_failover') failovers.push({ at: iso(r.at), from: d.from, to: d.to, reason: d.reason ?? '' });
    else if (r.type === 'channel.recording_status') recording.push({ at: iso(r.at), recording: d.recording, previous: d.previous });
  }
  const rendition = recordedRenditions(ctx, ch.id)[0];
  const spans = rendition ? recordedSpansInRange(ctx, ch.id, rendition, from, to) : [];
  let recordedMs = 0;
  for (let i = 0; i + 1 < spans.length; i += 2) recordedMs += Math.max(0, Math.min(spans[i + 1], to) - Math.max(spans[i], from));
  const gaps: { from: string; to: string; duration_s: number; open: boolean }[] = gapsBetween(spans, from, to)
    .map((g) => ({ from: iso(g.from), to: iso(g.to), duration_s: Math.round((g.to - g.from) / 100) / 10, open: false }));
  // Started, recording on, nothing arriving: the gap since the last recorded segment is still open.
  const lastEnd = spans.length ? spans[spans.length - 1] : null;
  if (ch.desired === 'started' && ch.recording === 'gap' && lastEnd !== null && lastEnd < to && to - lastEnd >= MIN_GAP_MS) {
    gaps.push({ from: iso(lastEnd), to: iso(to), duration_s: Math.round((to - lastEnd) / 100) / 10, open: true });
  }
  const cut = <T>(l: T[]) => { if (l.length > MAX_ENTRIES) truncated = true; return l.slice(-MAX_ENTRIES); };
  return {
    channel_id: ch.id, from: iso(from), to: iso(to),
    feed: ch.feed, recording: ch.recording,
    feed_changes: cut(feed), failovers: cut(failovers), recording_changes: cut(recording), gaps: cut(gaps),
    recorded_s: Math.round(recordedMs / 100) / 10,
    truncated,
  };
}
