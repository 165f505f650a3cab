import type { Db } from '../../kernel/db/sqlite';
import { sealerOf } from '../../kernel/secrets/seal';

/** An inbound hook row. */
export interface HookRow { seq: number; id: string; tenant_id: string; kind: string; mapping: string; secret: string; created_at: number }
/** A referenced asset as the publish step sees it. */
export interface HookAsset { seq: number; id: string; external_id: string | null; status: string; published: number }

/** SQL for inbound hooks, their replay guard, and the narrow publish step they perform. */
export class HookStore {
  constructor(private db: Db) {}

  /** The row with its secret opened (stored sealed under the master key). */
  private opened<T extends HookRow | null>(h: T): T {
    if (h) h.secret = sealerOf(this.db).open(h.secret);
    return h;
  }

  insert(h: Omit<HookRow, 'seq'>): void {
    this.db.query('INSERT INTO inbound_hooks (id, tenant_id, kind, mapping, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(h.id, h.tenant_id, h.kind, h.mapping, sealerOf(this.db).seal(h.secret), h.created_at);
  }

  byId(id: string): HookRow | null {
    return this.opened(this.db.query<HookRow, [string]>('SELECT * FROM inbound_hooks WHERE id = ?').get(id));
  }

  list(tenantId: string, beforeSeq: number | null, limit: number): HookRow[] {
    return this.db.query<HookRow, [string, number, number]>('SELECT * FROM inbound_hooks WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?')
      .all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1).map((h) => this.opened(h));
  }

  remove(tenantId: string, id: string): boolean {
    return this.db.query('DELETE FROM inbound_hooks WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0;
  }

  /** Records a call by delivery id and signature; false when either was seen before (a replay). */
  claimCall(hookId: string, deliveryId: string, signature: string, at: number): boolean {
    return this.db.query(`INSERT OR IGNORE INTO inbound_hook_calls (hook_id, delivery_id, at, result, signature) VALUES (?, ?, ?, '{}', ?)`).run(hookId, deliveryId, at, signature).changes > 0;
  }

  /** The first call that carried `signature` (its delivery id and result), if any. */
  callBySignature(hookId: string, signature: string): { delivery_id: string; result: string } | null {
    return this.db.query<{ delivery_id: string; result: string }, [string, string]>('SELECT delivery_id, result FROM inbound_hook_calls WHERE hook_id = ? AND signature = ?').get(hookId, signature);
  }

  saveCall(hookId: string, deliveryId: string, result: string): void {
    this.db.query('UPDATE inbound_hook_calls SET result = ? WHERE hook_id = ? AND delivery_id = ?').run(result, hookId, deliveryId);
  }

  callResult(hookId: string, deliveryId: string): string | null {
    return this.db.query<{ result: string }, [string, string]>('SELECT result FROM inbound_hook_calls WHERE hook_id = ? AND delivery_id = ?').get(hookId, deliveryId)?.result ?? null;
  }

  /**
   * Live (not trashed) assets of a tenant by external id or id. Bridge until the assets feature exposes a publish
   * operation in its service; the columns used are the shared `assets` table's.
   */
  assets(tenantId: string, field: 'external_id' | 'id', refs: string[]): HookAsset[] {
    if (!refs.length) return [];
    const marks = refs.map(() => '?').join(',');
    return this.db.query<HookAsset, string[]>(
      `SELECT seq, id, external_id, status, published FROM assets WHERE tenant_id = ? AND deleted_at IS NULL AND ${field} IN (${marks})`,
    ).all(tenantId, ...refs);
  }

  /** Publishes one ready asset (same columns the assets feature's setPublished writes). */
  publish(seq: number, now: number): void {
    this.db.query('UPDATE assets SET published = 1, published_at = ?, updated_at = ? WHERE seq = ? AND published = 0').run(now, now, seq);
  }
}
