import type { Db } from '../kernel/db/sqlite';
import type { SegmentRow } from './model';
import { newTimes, push, type EncodedHour, type SegTimes } from './seg-times';

/** Summary of one rendition-hour directory of the recording (see migration 0041). */
export interface HourRow {
  channel_id: string; rendition: string; hour_ms: number; n: number; first_ms: number; last_ms: number; end_ms: number;
  first_seq: number; disc_seq_start: number; first_disc: number; inner_discs: number; bytes: number | null;
  dir_mtime: number; materialized: number;
}

/** One closed hour's encoded segment list (migration 0042) with the summary fields it is valid for. */
export interface HourListRow extends EncodedHour { hour_ms: number; n: number; first_ms: number; last_ms: number; end_ms: number; dir_mtime: number }

const H = 3_600_000;
const SEG_COLS = 'channel_id, rendition, start_ms, duration_ms, bytes, path, discontinuity, init_ms, seq, disc_seq';
const HOUR_COLS = 'channel_id, rendition, hour_ms, n, first_ms, last_ms, end_ms, first_seq, disc_seq_start, first_disc, inner_discs, bytes, dir_mtime, materialized';

/** SQL of the segment index: hour summaries (`live_hours`) and per-segment rows (`live_segments`). */
export class SegmentStore {
  constructor(private db: Db) {}

  // ---- hours ----

  /** Every hour of a rendition, oldest first. */
  hours(channelId: string, rendition: string): HourRow[] {
    return this.db.query<HourRow, [string, string]>('SELECT * FROM live_hours WHERE channel_id = ? AND rendition = ? ORDER BY hour_ms').all(channelId, rendition);
  }

  /** Hours that may hold segments overlapping [fromMs, toMs) (a segment may start up to a minute earlier). */
  hoursOverlapping(channelId: string, rendition: string, fromMs: number, toMs: number): HourRow[] {
    const lo = Math.floor((fromMs - 60_000) / H) * H;
    return this.db.query<HourRow, [string, string, number, number, number]>(
      'SELECT * FROM live_hours WHERE channel_id = ? AND rendition = ? AND hour_ms >= ? AND hour_ms < ? AND end_ms > ? ORDER BY hour_ms',
    ).all(channelId, rendition, lo, toMs, fromMs);
  }

  hour(channelId: string, rendition: string, hourMs: number): HourRow | null {
    return this.db.query<HourRow, [string, string, number]>('SELECT * FROM live_hours WHERE channel_id = ? AND rendition = ? AND hour_ms = ?').get(channelId, rendition, hourMs);
  }

  /** The first hour after `hourMs`. */
  hourAfter(channelId: string, rendition: string, hourMs: number): HourRow | null {
    return this.db.query<HourRow, [string, string, number]>('SELECT * FROM live_hours WHERE channel_id = ? AND rendition = ? AND hour_ms > ? ORDER BY hour_ms LIMIT 1').get(channelId, rendition, hourMs);
  }

  newestHour(channelId: string, rendition: string): HourRow | null {
    return this.db.query<HourRow, [string, string]>('SELECT * FROM live_hours WHERE channel_id = ? AND rendition = ? ORDER BY hour_ms DESC LIMIT 1').get(channelId, rendition);
  }

  /** Hours of a channel (any rendition) that start before `beforeMs`, oldest first. */
  hoursBefore(channelId: string, beforeMs: number): HourRow[] {
    return this.db.query<HourRow, [string, number]>('SELECT * FROM live_hours WHERE channel_id = ? AND first_ms < ? ORDER BY hour_ms').all(channelId, beforeMs);
  }

  /** The oldest hour of a channel on local disk that is not the newest hour of its rendition (disk floor; the live edge stays; bucket-held hours free no disk). */
  oldestTrimmable(channelId: string): HourRow | null {
    return this.db.query<HourRow, [string]>(
      `SELECT h.* FROM live_hours h WHERE h.channel_id = ?1 AND h.hour_ms < (SELECT MAX(hour_ms) FROM live_hours x WHERE x.channel_id = ?1 AND x.rendition = h.rendition)
         AND NOT EXISTS (SELECT 1 FROM live_hour_moves m WHERE m.channel_id = h.channel_id AND m.rendition = h.rendition AND m.hour_ms = h.hour_ms AND m.state = 'moved')
       ORDER BY h.hour_ms LIMIT 1`,
    ).get(channelId);
  }

  upsertHour(h: HourRow): void {
    this.db.query(`INSERT OR REPLACE INTO live_hours (${HOUR_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`).run(
      h.channel_id, h.rendition, h.hour_ms, h.n, h.first_ms, h.last_ms, h.end_ms, h.first_seq, h.disc_seq_start, h.first_disc, h.inner_discs, h.bytes, h.dir_mtime, h.materialized);
  }

  /** Deletes an hour and its segment rows. */
  deleteHour(channelId: string, rendition: string, hourMs: number): void {
    this.deleteRows(channelId, rendition, hourMs);
    this.db.query('DELETE FROM live_hours WHERE channel_id = ? AND rendition = ? AND hour_ms = ?').run(channelId, rendition, hourMs);
  }

  /** The newest hour start of a rendition (its open hour while recording), or null. */
  newestHourMs(channelId: string, rendition: string): number | null {
    return this.db.query<{ h: number | null }, [string, string]>('SELECT MAX(hour_ms) AS h FROM live_hours WHERE channel_id = ? AND rendition = ?').get(channelId, rendition)?.h ?? null;
  }

  // ---- encoded lists of closed hours ----

  /** Encoded lists of the hours in [fromHour, toHour], by hour. */
  lists(channelId: string, rendition: string, fromHour: number, toHour: number): Map<number, HourListRow> {
    const rows = this.db.query<HourListRow, [string, string, number, number]>(
      'SELECT hour_ms, n, first_ms, last_ms, end_ms, dir_mtime, inits, segs, spans FROM live_hour_lists WHERE channel_id = ? AND rendition = ? AND hour_ms >= ? AND hour_ms <= ?',
    ).all(channelId, rendition, fromHour, toHour);
    return new Map(rows.map((r) => [r.hour_ms, r]));
  }

  /** Recorded spans of the hours in [fromHour, toHour] that have a list (no segment data read). */
  listSpans(channelId: string, rendition: string, fromHour: number, toHour: number): Map<number, Omit<HourListRow, 'segs' | 'inits'>> {
    const rows = this.db.query<Omit<HourListRow, 'segs' | 'inits'>, [string, string, number, number]>(
      'SELECT hour_ms, n, first_ms, last_ms, end_ms, dir_mtime, spans FROM live_hour_lists WHERE channel_id = ? AND rendition = ? AND hour_ms >= ? AND hour_ms <= ?',
    ).all(channelId, rendition, fromHour, toHour);
    return new Map(rows.map((r) => [r.hour_ms, r]));
  }

  /** Stores the encoded list of a closed hour, stamped with the summary it was built from. */
  putList(h: HourRow, e: EncodedHour): void {
    this.db.query('INSERT OR REPLACE INTO live_hour_lists (channel_id, rendition, hour_ms, n, first_ms, last_ms, end_ms, dir_mtime, inits, segs, spans) VALUES (?,?,?,?,?,?,?,?,?,?,?)')
      .run(h.channel_id, h.rendition, h.hour_ms, h.n, h.first_ms, h.last_ms, h.end_ms, h.dir_mtime, e.inits, e.segs, e.spans);
  }

  /** Timings of stored rows with fromMs <= start_ms < toMs, oldest first, appended to `out` (no objects built). */
  times(channelId: string, rendition: string, fromMs: number, toMs: number, out: SegTimes = newTimes()): SegTimes {
    const q = this.db.query<unknown, [string, string, number, number]>('SELECT start_ms, duration_ms, discontinuity, init_ms FROM live_segments WHERE channel_id = ? AND rendition = ? AND start_ms >= ? AND start_ms < ? ORDER BY start_ms');
    for (const v of q.values(channelId, rendition, fromMs, toMs) as number[][]) push(out, v[0], v[1], v[2], v[3]);
    return out;
  }

  /** Drops an hour's segment rows and encoded list (derived again from its listing on the next read). */
  deleteRows(channelId: string, rendition: string, hourMs: number): void {
    this.db.query('DELETE FROM live_hour_lists WHERE channel_id = ? AND rendition = ? AND hour_ms = ?').run(channelId, rendition, hourMs);
    this.db.query('DELETE FROM live_segments WHERE channel_id = ? AND rendition = ? AND start_ms >= ? AND start_ms < ?').run(channelId, rendition, hourMs, hourMs + H);
  }

  /** Number of segment rows stored for one hour. */
  countRows(channelId: string, rendition: string, hourMs: number): number {
    return this.db.query<{ n: number }, [string, string, number, number]>('SELECT COUNT(*) AS n FROM live_segments WHERE channel_id = ? AND rendition = ? AND start_ms >= ? AND start_ms < ?')
      .get(channelId, rendition, hourMs, hourMs + H)!.n;
  }

  /** Renditions with indexed hours. */
  renditions(channelId: string): string[] {
    return this.db.query<{ rendition: string }, [string]>('SELECT DISTINCT rendition FROM live_hours WHERE channel_id = ? ORDER BY rendition').all(channelId).map((r) => r.rendition);
  }

  /** Drops everything indexed for a rendition (its directory is gone). */
  dropRendition(channelId: string, rendition: string): void {
    this.db.query('DELETE FROM live_hour_lists WHERE channel_id = ? AND rendition = ?').run(channelId, rendition);
    this.db.query('DELETE FROM live_segments WHERE channel_id = ? AND rendition = ?').run(channelId, rendition);
    this.db.query('DELETE FROM live_hours WHERE channel_id = ? AND rendition = ?').run(channelId, rendition);
  }

  // ---- segment rows ----

  insertRows(rows: SegmentRow[]): void {
    const ins = this.db.query(`INSERT OR REPLACE INTO live_segments (${SEG_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?)`);
    for (const s of rows) ins.run(s.channel_id, s.rendition, s.start_ms, s.duration_ms, s.bytes, s.path, s.discontinuity, s.init_ms, s.seq, s.disc_seq);
  }

  /** Stored rows with fromMs <= start_ms < toMs, oldest first. */
  rows(channelId: string, rendition: string, fromMs: number, toMs: number): SegmentRow[] {
    return this.db.query<SegmentRow, [string, string, number, number]>('SELECT * FROM live_segments WHERE channel_id = ? AND rendition = ? AND start_ms >= ? AND start_ms < ? ORDER BY start_ms')
      .all(channelId, rendition, fromMs, toMs);
  }

  row(channelId: string, rendition: string, startMs: number): SegmentRow | null {
    return this.db.query<SegmentRow, [string, string, number]>('SELECT * FROM live_segments WHERE channel_id = ? AND rendition = ? AND start_ms = ?').get(channelId, rendition, startMs);
  }

  lastRow(channelId: string, rendition: string): SegmentRow | null {
    return this.db.query<SegmentRow, [string, string]>('SELECT * FROM live_segments WHERE channel_id = ? AND rendition = ? ORDER BY start_ms DESC LIMIT 1').get(channelId, rendition);
  }

  deleteRow(s: SegmentRow): void {
    this.db.query('DELETE FROM live_segments WHERE channel_id = ? AND rendition = ? AND start_ms = ?').run(s.channel_id, s.rendition, s.start_ms);
  }
}
