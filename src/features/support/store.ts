import type { Db } from '../../kernel/db/sqlite';

/** A support request row. */
export interface SupportRow {
  seq: number; id: string; tenant_id: string; subject: string; category: string; status: 'open' | 'closed';
  opened_by: string; via: string; created_at: number; updated_at: number; closed_at: number | null;
}

/** A message of a request's thread. */
export interface SupportMessageRow { seq: number; request_id: string; author: string; body: string; created_at: number }

/** SQL of support requests; the only place it lives. */
export class SupportStore {
  constructor(private db: Db) {}

  insert(r: Omit<SupportRow, 'seq'>): void {
    this.db.query(`INSERT INTO support_requests (id, tenant_id, subject, category, status, opened_by, via, created_at, updated_at, closed_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(r.id, r.tenant_id, r.subject, r.category, r.status, r.opened_by, r.via, r.created_at, r.updated_at, r.closed_at);
  }

  addMessage(requestId: string, author: string, body: string, at: number): void {
    this.db.query('INSERT INTO support_messages (request_id, author, body, created_at) VALUES (?, ?, ?, ?)').run(requestId, author, body, at);
  }

  get(tenantId: string, id: string): SupportRow | null {
    return this.db.query<SupportRow, [string, string]>('SELECT * FROM support_requests WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** A tenant's requests newest first below `beforeSeq`, `limit + 1` rows, optionally one status. */
  list(tenantId: string, beforeSeq: number | null, limit: number, status: string | null): SupportRow[] {
    return this.db.query<SupportRow, [string, number, string | null, string | null, number]>(
      'SELECT * FROM support_requests WHERE tenant_id = ? AND seq < ? AND (? IS NULL OR status = ?) ORDER BY seq DESC LIMIT ?',
    ).all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, status, status, limit + 1);
  }

  messages(requestId: string): SupportMessageRow[] {
    return this.db.query<SupportMessageRow, [string]>('SELECT * FROM support_messages WHERE request_id = ? ORDER BY seq').all(requestId);
  }

  /** Requests the tenant opened after `since` (ms). */
  openedSince(tenantId: string, since: number): { n: number; oldest: number | null } {
    return this.db.query<{ n: number; oldest: number | null }, [string, number]>(
      'SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM support_requests WHERE tenant_id = ? AND created_at > ?',
    ).get(tenantId, since)!;
  }

  touch(id: string, at: number): void {
    this.db.query('UPDATE support_requests SET updated_at = ? WHERE id = ?').run(at, id);
  }

  close(id: string, at: number): void {
    this.db.query("UPDATE support_requests SET status = 'closed', closed_at = ?, updated_at = ? WHERE id = ?").run(at, at, id);
  }
}
