import type { Db } from '../../kernel/db/sqlite';

/** A leak suspicion row (migration 0193); `evidence` is JSON (`LeakEvidence`). */
export interface LeakRow {
  seq: number; id: string; tenant_id: string; sid: string; target_kind: string; target_id: string; policy_id: string | null;
  reason: string; evidence: string; status: 'open' | 'dismissed' | 'revoked'; auto: number;
  detected_at: number; updated_at: number; resolved_at: number | null; resolved_by: string | null;
}

/** SQL of leak suspicions. */
export class LeakStore {
  constructor(private db: Db) {}

  /** Inserts a suspicion unless the session already has one; true when inserted. */
  insert(r: Omit<LeakRow, 'seq'>): boolean {
    return this.db.query('INSERT OR IGNORE INTO playback_leaks (id, tenant_id, sid, target_kind, target_id, policy_id, reason, evidence, status, auto, detected_at, updated_at, resolved_at, resolved_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(r.id, r.tenant_id, r.sid, r.target_kind, r.target_id, r.policy_id, r.reason, r.evidence, r.status, r.auto, r.detected_at, r.updated_at, r.resolved_at, r.resolved_by).changes > 0;
  }
  /** The suspicion of a session, if any. */
  bySid(tenantId: string, sid: string): LeakRow | null {
    return this.db.query<LeakRow, [string, string]>('SELECT * FROM playback_leaks WHERE tenant_id = ? AND sid = ?').get(tenantId, sid);
  }
  get(tenantId: string, id: string): LeakRow | null {
    return this.db.query<LeakRow, [string, string]>('SELECT * FROM playback_leaks WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }
  /** A page of a tenant's suspicions, newest first, optionally of one status. */
  list(tenantId: string, status: string | null, beforeSeq: number | null, limit: number): LeakRow[] {
    return this.db.query<LeakRow, [string, string | null, string | null, number, number]>(
      'SELECT * FROM playback_leaks WHERE tenant_id = ? AND (? IS NULL OR status = ?) AND seq < ? ORDER BY seq DESC LIMIT ?',
    ).all(tenantId, status, status, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1);
  }
  /** Replaces the evidence (and reason) of an open suspicion as the session is seen from more places. */
  updateEvidence(id: string, reason: string, evidence: string, at: number): void {
    this.db.query("UPDATE playback_leaks SET reason = ?, evidence = ?, updated_at = ? WHERE id = ? AND status = 'open'").run(reason, evidence, at, id);
  }
  /** Moves a suspicion to `dismissed` or `revoked`. */
  resolve(id: string, status: 'dismissed' | 'revoked', at: number, by: string | null, auto = false): void {
    this.db.query('UPDATE playback_leaks SET status = ?, auto = ?, resolved_at = ?, resolved_by = ?, updated_at = ? WHERE id = ?').run(status, auto ? 1 : 0, at, by, at, id);
  }
}
