import type { Db } from '../../kernel/db/sqlite';

/** An invitation row (only the link token's hash is kept). */
export interface InvitationRow {
  seq: number; id: string; tenant_id: string; email: string | null; role: string; hash: string; invited_by: string | null;
  created_at: number; expires_at: number; accepted_at: number | null; revoked_at: number | null;
}

/** SQL of invitations; the only place it lives (members are in the people store). */
export class TeamStore {
  constructor(private db: Db) {}

  insert(r: Omit<InvitationRow, 'seq' | 'accepted_at' | 'revoked_at'>): void {
    this.db.query('INSERT INTO invitations (id, tenant_id, email, role, hash, invited_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(r.id, r.tenant_id, r.email, r.role, r.hash, r.invited_by, r.created_at, r.expires_at);
  }

  byHash(hash: string): InvitationRow | null {
    return this.db.query<InvitationRow, [string]>('SELECT * FROM invitations WHERE hash = ?').get(hash);
  }

  /** Pending (not accepted, not revoked, not expired) invitations of a tenant, newest first. */
  pending(tenantId: string, now: number): InvitationRow[] {
    return this.db.query<InvitationRow, [string, number]>(
      'SELECT * FROM invitations WHERE tenant_id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ? ORDER BY seq DESC LIMIT 500',
    ).all(tenantId, now);
  }

  /** Marks an invitation accepted; false when it was used or revoked meanwhile (single use under concurrency). */
  accept(id: string, at: number): boolean {
    return this.db.query('UPDATE invitations SET accepted_at = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL').run(at, id).changes > 0;
  }

  revoke(tenantId: string, id: string, at: number): boolean {
    return this.db.query('UPDATE invitations SET revoked_at = ? WHERE tenant_id = ? AND id = ? AND accepted_at IS NULL AND revoked_at IS NULL').run(at, tenantId, id).changes > 0;
  }
}
