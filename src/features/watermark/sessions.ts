/**
 * The watermark's seam for the playback issuer: a session issued for a marked asset is kept as a trace candidate
 * (ordinary session rows are deleted when they expire). Other features call this, never the watermark's store.
 */
import type { AppContext } from '../../kernel/context';
import type { Db } from '../../kernel/db/sqlite';

/** A session issued for a marked asset (a trace's candidate). */
export interface MarkedSession { sid: string; tenant_id: string; asset_id: string; viewer_id: string | null; via: string; issued_at: number }

/** Records a session issued for a marked asset (called by the playback issuer in its token's transaction). */
export function recordMarkedSession(db: Db, s: MarkedSession): void {
  db.query('INSERT OR IGNORE INTO watermark_sessions (sid, tenant_id, asset_id, viewer_id, via, issued_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(s.sid, s.tenant_id, s.asset_id, s.viewer_id, s.via, s.issued_at);
}

/** The longest a playback token lives (the issuer's `ttl_s` ceiling): a session cannot be played after issue + this. */
export const MAX_TOKEN_LIFETIME_MS = 604_800_000;
/** Rows deleted per statement (the writer lock is never held long). */
const PRUNE_BATCH = 5000;

/**
 * Deletes marked sessions no trace needs any more: issued before now − (the longest token lifetime + the configured
 * retention, `watermarkRetentionDays`, default 30 days), so a copy recorded on the last day a token could be used
 * stays traceable for that many days. Run by the playback session sweeper. Returns how many rows went.
 */
export function pruneMarkedSessions(ctx: AppContext): number {
  const before = ctx.clock.now() - MAX_TOKEN_LIFETIME_MS - ctx.config.watermarkRetentionDays * 86_400_000;
  let total = 0;
  for (;;) {
    const n = ctx.db.query('DELETE FROM watermark_sessions WHERE rowid IN (SELECT rowid FROM watermark_sessions WHERE issued_at < ? LIMIT ?)').run(before, PRUNE_BATCH).changes;
    total += n;
    if (n < PRUNE_BATCH) break;
  }
  if (total) ctx.log.info('watermark sessions past their trace retention pruned', { sessions: total });
  return total;
}
