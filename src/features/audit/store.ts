import type { Db } from '../../kernel/db/sqlite';

/** An audit log row. */
export interface AuditRow {
  seq: number; id: string; tenant_id: string | null; at: number; action: string; actor_kind: string;
  actor_id: string | null; actor_label: string; ip: string | null; target: string | null; details: string;
}

/** SQL of the audit log; the only place it lives. */
export class AuditStore {
  constructor(private db: Db) {}

  insert(r: Omit<AuditRow, 'seq'>): void {
    this.db.query(`INSERT INTO audit_log (id, tenant_id, at, action, actor_kind, actor_id, actor_label, ip, target, details)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(r.id, r.tenant_id, r.at, r.action, r.actor_kind, r.actor_id, r.actor_label, r.ip, r.target, r.details);
  }

  /** A tenant's entries newest first after cursor `beforeSeq`, `limit + 1` rows, optionally one action. */
  list(tenantId: string, beforeSeq: number | null, limit: number, action: string | null): AuditRow[] {
    return this.db.query<AuditRow, [string, number, string | null, string | null, number]>(
      'SELECT * FROM audit_log WHERE tenant_id = ? AND seq < ? AND (? IS NULL OR action = ?) ORDER BY seq DESC LIMIT ?',
    ).all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, action, action, limit + 1);
  }
}
