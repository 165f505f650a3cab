/**
 * The watermark's seam for the playback issuer: a session issued for a marked asset is kept as a trace candidate
 * (ordinary session rows are deleted when they expire). Other features call this, never the watermark's store.
 */
import type { Db } from '../../kernel/db/sqlite';

/** A session issued for a marked asset (a trace's candidate). */
export interface MarkedSession { sid: string; tenant_id: string; asset_id: string; viewer_id: string | null; via: string; issued_at: number }

/** Records a session issued for a marked asset (called by the playback issuer in its token's transaction). */
export function recordMarkedSession(db: Db, s: MarkedSession): void {
  db.query('INSERT OR IGNORE INTO watermark_sessions (sid, tenant_id, asset_id, viewer_id, via, issued_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(s.sid, s.tenant_id, s.asset_id, s.viewer_id, s.via, s.issued_at);
}
