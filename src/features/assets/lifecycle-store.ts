import type { Db } from '../../kernel/db/sqlite';
import { lazyCommit } from '../../kernel/db/lazy-commit';
import { serializeOutput, type AssetOutput, type AssetPreview } from './output';

/** The asset columns the media lifecycle reads. */
export interface LifecycleAsset {
  id: string; tenant_id: string; external_id: string | null; status: string; error: string | null; ladder: string | null;
  source_path: string | null; probe: string | null; duration_s: number | null; output: string | null; output_version: number;
  deleted_at: number | null;
}

/** States in which automatic processing owns the asset. */
export const WORKING = ['registered', 'probing', 'queued', 'encoding', 'packaging'] as const;

/** One asset by id (any tenant: workers act on job subjects). */
export function lifecycleAsset(db: Db, id: string): LifecycleAsset | null {
  return db.query<LifecycleAsset, [string]>(`SELECT id, tenant_id, external_id, status, error, ladder, source_path, probe, duration_s, output,
    output_version, deleted_at FROM assets WHERE id = ?`).get(id);
}

/** One asset of a tenant (delivery). */
export function tenantAsset(db: Db, tenantId: string, id: string): LifecycleAsset | null {
  const a = lifecycleAsset(db, id);
  return a && a.tenant_id === tenantId && a.deleted_at === null ? a : null;
}

/** Moves an asset to `to` when its status is one of `from`; returns whether it moved. */
export function transition(db: Db, id: string, from: readonly string[], to: string, now = Date.now()): boolean {
  const marks = from.map(() => '?').join(',');
  const r = db.query(`UPDATE assets SET status = ?, error = NULL, updated_at = ? WHERE id = ? AND status IN (${marks})`).run(to, now, id, ...from);
  return r.changes > 0;
}

/** Stores probe facts (JSON) and duration. */
export function saveProbe(db: Db, id: string, probe: unknown, durationS: number, now = Date.now()): void {
  db.query('UPDATE assets SET probe = ?, duration_s = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(probe), durationS, now, id);
}

/** Writes processing progress (percent) and ETA seconds. */
export function saveProgress(db: Db, id: string, pct: number | null, etaS: number | null): void {
  lazyCommit(db, () => db.query('UPDATE assets SET progress = ?, eta_s = ? WHERE id = ?').run(pct, etaS, id));
}

/**
 * Publishes a playable preview while the asset is queued or encoding: `replace` (the quick-play remux, complete
 * and at source quality) wins over any earlier preview; otherwise (the ladder's growing work dir) it is stored only
 * when no preview is published yet. Returns whether it was stored.
 */
export function savePreview(db: Db, id: string, preview: AssetPreview, replace: boolean): boolean {
  const keep = replace ? '' : ` AND (output IS NULL OR json_extract(output, '$.preview') IS NULL)`;
  const r = db.query(`UPDATE assets SET output = ? WHERE id = ? AND status IN ('queued', 'encoding', 'packaging')${keep}`).run(serializeOutput(preview), id);
  return r.changes > 0;
}

/**
 * Publishes an asset whose publish mode is `on_ready` and that is still a draft (the caller holds the transaction that
 * made it ready); returns whether it did.
 */
export function publishIfRequested(db: Db, id: string, now = Date.now()): boolean {
  const r = db.query(`UPDATE assets SET published = 1, published_at = ? WHERE id = ? AND status = 'ready' AND publish_mode = 'on_ready' AND published = 0`).run(now, id);
  return r.changes > 0;
}

/** Marks an asset ready with its output description and version (from `packaging` only). */
export function markReady(db: Db, id: string, output: AssetOutput, version: number, now = Date.now()): boolean {
  const r = db.query(`UPDATE assets SET status = 'ready', error = NULL, output = ?, output_version = ?, progress = 100, eta_s = NULL, updated_at = ?
    WHERE id = ? AND status = 'packaging'`).run(serializeOutput(output), version, now, id);
  return r.changes > 0;
}

/** Marks an asset failed with a readable error, from any working state; returns whether it changed. */
export function markFailed(db: Db, id: string, error: string, now = Date.now()): boolean {
  const marks = WORKING.map(() => '?').join(',');
  const r = db.query(`UPDATE assets SET status = 'failed', error = ?, eta_s = NULL, updated_at = ? WHERE id = ? AND status IN (${marks})`)
    .run(error, now, id, ...WORKING);
  return r.changes > 0;
}

/** Puts a ready or failed asset back to `registered` for a re-encode, with an optional new ladder. */
export function resetForReencode(db: Db, id: string, ladder: string | null, now = Date.now()): boolean {
  const r = db.query(`UPDATE assets SET status = 'registered', error = NULL, progress = NULL, eta_s = NULL, ladder = COALESCE(?, ladder), updated_at = ?
    WHERE id = ? AND status IN ('ready', 'failed') AND deleted_at IS NULL`).run(ladder, now, id);
  return r.changes > 0;
}

/** Puts a failed asset back into a working state (`to`) when one of its jobs is retried. */
export function reviveFailed(db: Db, id: string, to: 'registered' | 'queued', now = Date.now()): boolean {
  const r = db.query(`UPDATE assets SET status = ?, error = NULL, updated_at = ? WHERE id = ? AND status = 'failed' AND deleted_at IS NULL`).run(to, now, id);
  return r.changes > 0;
}
