import type { Db } from '../../../kernel/db/sqlite';

/** An alert destination row (`target` is the address or the Telegram chat id; null while a chat is not linked). */
export interface DestinationRow {
  seq: number; id: string; tenant_id: string; kind: 'email' | 'telegram'; target: string | null; name: string | null;
  status: 'active' | 'pending'; token_hash: string | null; token_expires_at: number | null; created_at: number; confirmed_at: number | null;
}

/** SQL of alert destinations; the only place it lives. */
export class DestinationStore {
  constructor(private db: Db) {}

  insert(r: Omit<DestinationRow, 'seq'>): void {
    this.db.query(`INSERT INTO alert_destinations (id, tenant_id, kind, target, name, status, token_hash, token_expires_at, created_at, confirmed_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(r.id, r.tenant_id, r.kind, r.target, r.name, r.status, r.token_hash, r.token_expires_at, r.created_at, r.confirmed_at);
  }

  get(tenantId: string, id: string): DestinationRow | null {
    return this.db.query<DestinationRow, [string, string]>('SELECT * FROM alert_destinations WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** Several destinations of a tenant by id (unknown ids are left out). */
  many(tenantId: string, ids: string[]): DestinationRow[] {
    if (!ids.length) return [];
    return this.db.query<DestinationRow, string[]>(`SELECT * FROM alert_destinations WHERE tenant_id = ? AND id IN (${ids.map(() => '?').join(',')})`).all(tenantId, ...ids);
  }

  byId(id: string): DestinationRow | null {
    return this.db.query<DestinationRow, [string]>('SELECT * FROM alert_destinations WHERE id = ?').get(id);
  }

  byToken(hash: string): DestinationRow | null {
    return this.db.query<DestinationRow, [string]>('SELECT * FROM alert_destinations WHERE token_hash = ?').get(hash);
  }

  sameTarget(tenantId: string, kind: string, target: string): DestinationRow | null {
    return this.db.query<DestinationRow, [string, string, string]>('SELECT * FROM alert_destinations WHERE tenant_id = ? AND kind = ? AND lower(target) = lower(?)').get(tenantId, kind, target);
  }

  count(tenantId: string): number {
    return this.db.query<{ n: number }, [string]>('SELECT COUNT(*) AS n FROM alert_destinations WHERE tenant_id = ?').get(tenantId)!.n;
  }

  list(tenantId: string, beforeSeq: number | null, limit: number): DestinationRow[] {
    return this.db.query<DestinationRow, [string, number, number]>('SELECT * FROM alert_destinations WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?')
      .all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1);
  }

  /** Marks a destination active (with its target when a chat was linked); the token is spent. */
  activate(id: string, target: string | null, name: string | null, at: number): void {
    this.db.query("UPDATE alert_destinations SET status = 'active', target = coalesce(?, target), name = coalesce(name, ?), token_hash = NULL, token_expires_at = NULL, confirmed_at = ? WHERE id = ?")
      .run(target, name, at, id);
  }

  /** Unexpired Telegram destinations waiting for their /start message. */
  pendingTelegram(now: number): DestinationRow[] {
    return this.db.query<DestinationRow, [number]>("SELECT * FROM alert_destinations WHERE kind = 'telegram' AND status = 'pending' AND token_expires_at > ?").all(now);
  }

  delete(id: string): void {
    this.db.query('DELETE FROM alert_destinations WHERE id = ?').run(id);
  }
}
