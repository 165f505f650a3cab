import type { Db } from '../../kernel/db/sqlite';
import type { Cue } from '../../text/cue-text';
import { reindexTrack } from './search-index';

/** A row of `subtitle_tracks`. */
export interface TrackRow {
  seq: number; id: string; tenant_id: string; asset_id: string; language: string; kind: string; label: string | null;
  source: string; status: string; published: number; engine: string | null; job_id: string | null; error: string | null;
  cue_count: number; created_at: number; updated_at: number;
  /** Translated tracks: the track translated from (migration 0135). */
  source_track_id?: string | null;
  /** Channel-recording tracks (asset_id ''): channel, wall-clock range (epoch ms; cues relative to its start), programme. */
  channel_id?: string | null; range_start_ms?: number | null; range_end_ms?: number | null; programme_id?: string | null;
  /** Cue editing (migration 0131): version (ETag), the source before `edited`, the next cue id, glossary counts (JSON). */
  version?: number; original_source?: string | null; next_cue_id?: number; glossary_corrections?: string | null;
}

/** The subtitles feature's SQL (tracks and cues). */
export class SubtitleStore {
  constructor(private readonly db: Db) {}

  /** Inserts a track row. */
  insert(r: Omit<TrackRow, 'seq' | 'published' | 'cue_count' | 'error' | 'engine'> & { engine?: string | null }): void {
    this.db.query(`INSERT INTO subtitle_tracks (id, tenant_id, asset_id, language, kind, label, source, status, engine, job_id, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(r.id, r.tenant_id, r.asset_id, r.language, r.kind, r.label, r.source, r.status, r.engine ?? null, r.job_id, r.created_at, r.updated_at);
  }

  /** One track of an asset of the tenant. */
  get(tenantId: string, assetId: string, id: string): TrackRow | null {
    return this.db.query<TrackRow, [string, string, string]>('SELECT * FROM subtitle_tracks WHERE tenant_id = ? AND asset_id = ? AND id = ?').get(tenantId, assetId, id);
  }

  /** A track by id alone (job handlers). */
  byId(id: string): TrackRow | null {
    return this.db.query<TrackRow, [string]>('SELECT * FROM subtitle_tracks WHERE id = ?').get(id);
  }

  /** An asset's tracks, oldest first. */
  list(tenantId: string, assetId: string): TrackRow[] {
    return this.db.query<TrackRow, [string, string]>('SELECT * FROM subtitle_tracks WHERE tenant_id = ? AND asset_id = ? ORDER BY seq').all(tenantId, assetId);
  }

  /** Replaces a track's cues (time order) and its count. */
  replaceCues(id: string, cues: Cue[], now: number): void {
    this.db.query('DELETE FROM subtitle_cues WHERE track_id = ?').run(id);
    const ins = this.db.query('INSERT INTO subtitle_cues (track_id, seq, start_ms, end_ms, text) VALUES (?, ?, ?, ?, ?)');
    cues.forEach((c, i) => ins.run(id, i + 1, c.startMs, c.endMs, c.text));
    // Cue ids start again at 1: the track's version moves on and its old revisions (by cue id) are dropped.
    this.db.query('UPDATE subtitle_tracks SET cue_count = ?, updated_at = ?, version = version + 1, next_cue_id = ? WHERE id = ?').run(cues.length, now, cues.length + 1, id);
    this.db.query('DELETE FROM subtitle_revisions WHERE track_id = ?').run(id);
    reindexTrack(this.db, id);
  }

  /** A track's cues in time order (start, then cue id: `seq` is a cue's stable id, no longer its position, once edited). */
  cues(id: string): Cue[] {
    return this.db.query<{ start_ms: number; end_ms: number; text: string }, [string]>('SELECT start_ms, end_ms, text FROM subtitle_cues WHERE track_id = ? ORDER BY start_ms, seq')
      .all(id).map((r) => ({ startMs: r.start_ms, endMs: r.end_ms, text: r.text }));
  }

  /** Sets status (and engine / error) of a track. */
  setStatus(id: string, status: string, now: number, o: { engine?: string | null; error?: string | null } = {}): void {
    this.db.query('UPDATE subtitle_tracks SET status = ?, engine = COALESCE(?, engine), error = ?, updated_at = ? WHERE id = ?').run(status, o.engine ?? null, o.error ?? null, now, id);
    reindexTrack(this.db, id);
  }

  /** Publishes or unpublishes; false when no such track. */
  setPublished(tenantId: string, id: string, published: boolean, now: number): boolean {
    const changed = this.db.query('UPDATE subtitle_tracks SET published = ?, updated_at = ? WHERE tenant_id = ? AND id = ?').run(published ? 1 : 0, now, tenantId, id).changes > 0;
    if (changed) reindexTrack(this.db, id);
    return changed;
  }

  /** Deletes a track and its cues. */
  delete(tenantId: string, id: string): boolean {
    this.db.query('DELETE FROM subtitle_cues WHERE track_id = (SELECT id FROM subtitle_tracks WHERE tenant_id = ? AND id = ?)').run(tenantId, id);
    return this.db.query('DELETE FROM subtitle_tracks WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0;
  }
}
