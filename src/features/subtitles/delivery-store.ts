import type { Db } from '../../kernel/db/sqlite';
import type { Cue } from '../../text/cue-text';

/** A published, ready track as delivery names it (the `seq` order is the order players list them). */
export interface DeliveredTrack { id: string; language: string; kind: string; label: string | null; updated_at: number }

/** The SQL delivery needs (read-only: delivery workers run it on their query-only connection). */
export class SubtitleDeliveryStore {
  constructor(private readonly db: Db) {}

  /** An asset's published, ready tracks, oldest first. */
  assetTracks(tenantId: string, assetId: string): DeliveredTrack[] {
    return this.db.query<DeliveredTrack, [string, string]>(`SELECT id, language, kind, label, updated_at FROM subtitle_tracks
      WHERE tenant_id = ? AND asset_id = ? AND published = 1 AND status = 'ready' ORDER BY seq`).all(tenantId, assetId);
  }

  /** A track's cues in time order. */
  cues(trackId: string): Cue[] {
    return this.db.query<{ start_ms: number; end_ms: number; text: string }, [string]>('SELECT start_ms, end_ms, text FROM subtitle_cues WHERE track_id = ? ORDER BY start_ms, seq')
      .all(trackId).map((r) => ({ startMs: r.start_ms, endMs: r.end_ms, text: r.text }));
  }
}
