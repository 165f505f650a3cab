/**
 * Ad-break markers of a channel's timeline (`live_markers`): written by a non-ingest source as it airs a break's
 * first and last segment, read by the live and range playlists as EXT-X-DATERANGE with SCTE35-OUT / SCTE35-IN.
 */
import type { Db } from '../kernel/db/sqlite';
import { scte35Hex, spliceInsert } from './fast-scte35';

/** One stored marker: a break opens (`out`, planned duration) or closes (`in`) at `start_ms`. */
export interface MarkerRow { channel_id: string; start_ms: number; id: string; kind: 'out' | 'in'; planned_ms: number; attrs: string }

/** A break as a playlist shows it: its id, start, planned duration, and its end once aired. */
export interface BreakRange { id: string; startMs: number; plannedMs: number; endMs: number | null }

/** Records a marker (a repeat of the same channel, time and kind is ignored). */
export function addMarker(db: Db, m: Omit<MarkerRow, 'attrs'>): void {
  db.query('INSERT OR IGNORE INTO live_markers (channel_id, start_ms, id, kind, planned_ms) VALUES (?, ?, ?, ?, ?)').run(m.channel_id, m.start_ms, m.id, m.kind, m.planned_ms);
}

/** Breaks of a channel that overlap [fromMs, toMs): each `out` with its matching `in` (null while the break airs). */
export function breaksInRange(db: Db, channelId: string, fromMs: number, toMs: number): BreakRange[] {
  const rows = db.query<MarkerRow, [string, number, number]>('SELECT * FROM live_markers WHERE channel_id = ? AND start_ms >= ? AND start_ms < ? ORDER BY start_ms')
    .all(channelId, fromMs - 3_600_000, toMs);
  const out: BreakRange[] = [];
  for (const r of rows) {
    if (r.kind === 'out') out.push({ id: r.id, startMs: r.start_ms, plannedMs: r.planned_ms, endMs: null });
    else { const b = out.find((x) => x.id === r.id && x.endMs === null); if (b) b.endMs = r.start_ms; }
  }
  return out.filter((b) => (b.endMs ?? Infinity) > fromMs);
}

/** Drops a channel's markers older than `beforeMs` (retention). */
export function dropMarkers(db: Db, channelId: string, beforeMs: number): void {
  db.query('DELETE FROM live_markers WHERE channel_id = ? AND start_ms < ?').run(channelId, beforeMs);
}

const eventId = (id: string) => Number.parseInt(id.replace(/[^0-9a-f]/gi, '').slice(-8) || '1', 16) >>> 0;

/**
 * EXT-X-DATERANGE lines of a break for a playlist whose segments start at the given times: the opening tag (with
 * SCTE35-OUT and PLANNED-DURATION) before the segment that starts the break, and the closing one (END-DATE,
 * DURATION, SCTE35-IN; same ID and START-DATE, as HLS requires) before the segment that ends it.
 */
export function dateRangeLines(b: BreakRange): { at: number; line: string }[] {
  const start = new Date(b.startMs).toISOString();
  const ev = eventId(b.id);
  const out = [{ at: b.startMs, line: `#EXT-X-DATERANGE:ID="${b.id}",CLASS="urn:scte:scte35:2014:bin",START-DATE="${start}",PLANNED-DURATION=${(b.plannedMs / 1000).toFixed(3)},SCTE35-OUT=${scte35Hex(spliceInsert(ev, true, b.plannedMs))}` }];
  if (b.endMs !== null) out.push({ at: b.endMs, line: `#EXT-X-DATERANGE:ID="${b.id}",CLASS="urn:scte:scte35:2014:bin",START-DATE="${start}",END-DATE="${new Date(b.endMs).toISOString()}",DURATION=${((b.endMs - b.startMs) / 1000).toFixed(3)},SCTE35-IN=${scte35Hex(spliceInsert(ev, false, null))}` });
  return out;
}
