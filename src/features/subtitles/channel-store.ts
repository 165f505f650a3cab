/**
 * SQL of channel-recording subtitle tracks (issue 43). They live in the same `subtitle_tracks` / `subtitle_cues`
 * tables as asset tracks (so cue editing, revisions and delivery work on them alike) with `asset_id` '' and
 * `channel_id`, `range_start_ms`, `range_end_ms` (wall-clock epoch ms) and `programme_id` set; a cue's `start_ms` /
 * `end_ms` are relative to `range_start_ms`.
 *
 * For other parts (catch-up/start-over/clip playlists, catch-up search): `channelTracksOverlapping` and
 * `channelCuesInWindow` below; both take plain wall-clock milliseconds and answer absolute wall-clock times.
 */
import type { Db } from '../../kernel/db/sqlite';
import type { TrackRow } from './store';

/** A channel-recording track row (the channel columns set). */
export type ChannelTrackRow = TrackRow & { channel_id: string; range_start_ms: number; range_end_ms: number; programme_id: string | null };

/** What a new channel track says about itself. */
export interface NewChannelTrackRow {
  id: string; tenant_id: string; channel_id: string; range_start_ms: number; range_end_ms: number; programme_id: string | null;
  language: string; kind: string; label: string | null; source: string; status: string; job_id: string | null; now: number;
}

/** A cue of a channel track at wall-clock time. */
export interface WallCue {
  trackId: string; language: string; kind: string; label: string | null; programmeId: string | null;
  /** Epoch ms. */
  startMs: number;
  /** Epoch ms. */
  endMs: number;
  text: string;
}

/** Options of the window reads: one language, published tracks only (delivery), ready tracks only (default true). */
export interface WindowOptions { language?: string; publishedOnly?: boolean; readyOnly?: boolean }

function filters(o: WindowOptions): { sql: string; args: (string | number)[] } {
  const parts: string[] = [], args: (string | number)[] = [];
  if (o.language) { parts.push('t.language = ?'); args.push(o.language); }
  if (o.publishedOnly) parts.push('t.published = 1');
  if (o.readyOnly !== false) parts.push("t.status = 'ready'");
  return { sql: parts.map((p) => ` AND ${p}`).join(''), args };
}

/**
 * Tracks of a channel whose range overlaps the wall-clock window [fromMs, toMs), oldest range first. For delivery
 * (which renditions a catch-up/start-over/clip playlist offers) pass `publishedOnly: true`.
 */
export function channelTracksOverlapping(db: Db, tenantId: string, channelId: string, fromMs: number, toMs: number, o: WindowOptions = {}): ChannelTrackRow[] {
  const f = filters(o);
  return db.query<ChannelTrackRow, (string | number)[]>(`SELECT t.* FROM subtitle_tracks t WHERE t.tenant_id = ? AND t.channel_id = ?
    AND t.range_start_ms < ? AND t.range_end_ms > ?${f.sql} ORDER BY t.range_start_ms, t.seq`).all(tenantId, channelId, toMs, fromMs, ...f.args);
}

/**
 * Cues of a channel's tracks overlapping the wall-clock window [fromMs, toMs), with absolute (epoch ms) times, in time
 * order (ties by track). Cues are clipped to nothing: a cue that starts before `fromMs` and ends after it is returned
 * whole. For delivery pass `publishedOnly: true` and a `language`; search reads every ready track.
 */
export function channelCuesInWindow(db: Db, tenantId: string, channelId: string, fromMs: number, toMs: number, o: WindowOptions = {}): WallCue[] {
  const f = filters(o);
  const rows = db.query<{ track_id: string; language: string; kind: string; label: string | null; programme_id: string | null; s: number; e: number; text: string }, (string | number)[]>(
    `SELECT c.track_id, t.language, t.kind, t.label, t.programme_id, t.range_start_ms + c.start_ms AS s, t.range_start_ms + c.end_ms AS e, c.text
     FROM subtitle_tracks t JOIN subtitle_cues c ON c.track_id = t.id
     WHERE t.tenant_id = ? AND t.channel_id = ? AND t.range_start_ms < ? AND t.range_end_ms > ?${f.sql}
       AND c.start_ms < ? - t.range_start_ms AND c.end_ms > ? - t.range_start_ms
     ORDER BY s, t.seq, c.seq`).all(tenantId, channelId, toMs, fromMs, ...f.args, toMs, fromMs);
  return rows.map((r) => ({ trackId: r.track_id, language: r.language, kind: r.kind, label: r.label, programmeId: r.programme_id, startMs: r.s, endMs: r.e, text: r.text }));
}

/** The channel-track SQL used by the subtitles feature itself. */
export class ChannelTrackStore {
  constructor(private readonly db: Db) {}

  /** Inserts a channel track (asset_id ''). */
  insert(r: NewChannelTrackRow): void {
    this.db.query(`INSERT INTO subtitle_tracks (id, tenant_id, asset_id, channel_id, range_start_ms, range_end_ms, programme_id, language, kind, label, source, status, job_id, created_at, updated_at)
      VALUES (?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(r.id, r.tenant_id, r.channel_id, r.range_start_ms, r.range_end_ms, r.programme_id, r.language, r.kind, r.label, r.source, r.status, r.job_id, r.now, r.now);
  }

  /** One track of a channel of the tenant. */
  get(tenantId: string, channelId: string, id: string): ChannelTrackRow | null {
    return this.db.query<ChannelTrackRow, [string, string, string]>('SELECT * FROM subtitle_tracks WHERE tenant_id = ? AND channel_id = ? AND id = ?').get(tenantId, channelId, id);
  }

  /** A channel's tracks, newest range first, optionally only those of one programme or overlapping a window. */
  list(tenantId: string, channelId: string, o: { programmeId?: string; fromMs?: number; toMs?: number; limit: number }): ChannelTrackRow[] {
    const where: string[] = ['tenant_id = ?', 'channel_id = ?'], args: (string | number)[] = [tenantId, channelId];
    if (o.programmeId) { where.push('programme_id = ?'); args.push(o.programmeId); }
    if (o.fromMs !== undefined) { where.push('range_end_ms > ?'); args.push(o.fromMs); }
    if (o.toMs !== undefined) { where.push('range_start_ms < ?'); args.push(o.toMs); }
    return this.db.query<ChannelTrackRow, (string | number)[]>(`SELECT * FROM subtitle_tracks WHERE ${where.join(' AND ')} ORDER BY range_start_ms DESC, seq DESC LIMIT ?`).all(...args, o.limit);
  }

  /** Whether a programme already has a track in `language` (any status but failed): auto-subtitle makes one at most. */
  hasProgrammeTrack(programmeId: string, language: string): boolean {
    return !!this.db.query("SELECT 1 FROM subtitle_tracks WHERE programme_id = ? AND language = ? AND status != 'failed' LIMIT 1").get(programmeId, language);
  }
}
