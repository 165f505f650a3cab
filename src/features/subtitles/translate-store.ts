import type { Db } from '../../kernel/db/sqlite';

/** SQL of translated tracks: the new track row, naming its source track. */
export class TranslateStore {
  constructor(private readonly db: Db) {}

  /** Inserts a queued translated track of the same owner (asset, or channel range) as its source track. */
  insertTranslation(r: { id: string; sourceId: string; language: string; kind: string; label: string | null; jobId: string; now: number }): void {
    this.db.query(`INSERT INTO subtitle_tracks (id, tenant_id, asset_id, channel_id, range_start_ms, range_end_ms, programme_id, language, kind, label, source, status, job_id, source_track_id, created_at, updated_at)
      SELECT ?, tenant_id, asset_id, channel_id, range_start_ms, range_end_ms, programme_id, ?, ?, ?, 'translation', 'queued', ?, id, ?, ? FROM subtitle_tracks WHERE id = ?`)
      .run(r.id, r.language, r.kind, r.label, r.jobId, r.now, r.now, r.sourceId);
  }
}
