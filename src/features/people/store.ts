import type { Db } from '../../kernel/db/sqlite';

/** A user row (password as an argon2id PHC string). */
export interface UserRow {
  seq: number; id: string; email: string; name: string; password_hash: string; created_at: number;
  password_changed_at: number; disabled_at: number | null;
}
/** A membership joined with its tenant. */
export interface MembershipRow { tenant_id: string; slug: string; name: string; cdn_only: number; role: string; created_at: number }
/** A studio session row. */
export interface SessionRow {
  seq: number; id: string; user_id: string; hash: string; csrf: string; tenant_id: string | null; ip: string | null;
  user_agent: string; created_at: number; last_seen_at: number; expires_at: number; revoked_at: number | null;
}

/** SQL for users, memberships, sessions and password resets; the only place it lives. */
export class PeopleStore {
  constructor(private db: Db) {}

  insertUser(u: Omit<UserRow, 'seq' | 'disabled_at'>): void {
    this.db.query('INSERT INTO users (id, email, name, password_hash, created_at, password_changed_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(u.id, u.email, u.name, u.password_hash, u.created_at, u.password_changed_at);
  }

  userByEmail(email: string): UserRow | null {
    return this.db.query<UserRow, [string]>('SELECT * FROM users WHERE email = ?').get(email);
  }

  userById(id: string): UserRow | null {
    return this.db.query<UserRow, [string]>('SELECT * FROM users WHERE id = ?').get(id);
  }

  setPassword(userId: string, hash: string, at: number): void {
    this.db.query('UPDATE users SET password_hash = ?, password_changed_at = ? WHERE id = ?').run(hash, at, userId);
  }

  /** Every membership of a user with its tenant, oldest first. */
  memberships(userId: string): MembershipRow[] {
    return this.db.query<MembershipRow, [string]>(
      `SELECT m.tenant_id, t.slug, t.name, t.cdn_only, m.role, m.created_at FROM memberships m JOIN tenants t ON t.id = m.tenant_id
       WHERE m.user_id = ? ORDER BY m.created_at, t.slug`,
    ).all(userId);
  }

  membership(tenantId: string, userId: string): { role: string } | null {
    return this.db.query<{ role: string }, [string, string]>('SELECT role FROM memberships WHERE tenant_id = ? AND user_id = ?').get(tenantId, userId);
  }

  upsertMembership(tenantId: string, userId: string, role: string, at: number): void {
    this.db.query(`INSERT INTO memberships (tenant_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (tenant_id, user_id) DO UPDATE SET role = excluded.role`).run(tenantId, userId, role, at);
  }

  setRole(tenantId: string, userId: string, role: string): boolean {
    return this.db.query('UPDATE memberships SET role = ? WHERE tenant_id = ? AND user_id = ?').run(role, tenantId, userId).changes > 0;
  }

  removeMembership(tenantId: string, userId: string): boolean {
    return this.db.query('DELETE FROM memberships WHERE tenant_id = ? AND user_id = ?').run(tenantId, userId).changes > 0;
  }

  countRole(tenantId: string, role: string): number {
    return this.db.query<{ n: number }, [string, string]>('SELECT COUNT(*) AS n FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.tenant_id = ? AND m.role = ? AND u.disabled_at IS NULL').get(tenantId, role)!.n;
  }

  /** Members of a tenant with their user fields, by join time. */
  members(tenantId: string): (MembershipRow & { user_id: string; email: string; user_name: string })[] {
    return this.db.query<MembershipRow & { user_id: string; email: string; user_name: string }, [string]>(
      `SELECT m.tenant_id, t.slug, t.name, t.cdn_only, m.role, m.created_at, u.id AS user_id, u.email, u.name AS user_name
       FROM memberships m JOIN users u ON u.id = m.user_id JOIN tenants t ON t.id = m.tenant_id
       WHERE m.tenant_id = ? ORDER BY m.created_at, u.email`,
    ).all(tenantId);
  }

  insertSession(s: Omit<SessionRow, 'seq' | 'revoked_at'>): void {
    this.db.query(`INSERT INTO user_sessions (id, user_id, hash, csrf, tenant_id, ip, user_agent, created_at, last_seen_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(s.id, s.user_id, s.hash, s.csrf, s.tenant_id, s.ip, s.user_agent, s.created_at, s.last_seen_at, s.expires_at);
  }

  /** A live session and its user by token hash. */
  activeSessionByHash(hash: string): (SessionRow & { email: string; user_name: string }) | null {
    return this.db.query<SessionRow & { email: string; user_name: string }, [string]>(
      `SELECT s.*, u.email, u.name AS user_name FROM user_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.hash = ? AND s.revoked_at IS NULL AND u.disabled_at IS NULL`,
    ).get(hash);
  }

  touchSession(id: string, at: number): void {
    this.db.query('UPDATE user_sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?').run(at, id, at);
  }

  setSessionTenant(id: string, tenantId: string): void {
    this.db.query('UPDATE user_sessions SET tenant_id = ? WHERE id = ?').run(tenantId, id);
  }

  /** A user's live sessions, newest first. */
  userSessions(userId: string, now: number): SessionRow[] {
    return this.db.query<SessionRow, [string, number]>(
      'SELECT * FROM user_sessions WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ? ORDER BY seq DESC LIMIT 200',
    ).all(userId, now);
  }

  revokeSession(userId: string, id: string, at: number): boolean {
    return this.db.query('UPDATE user_sessions SET revoked_at = ? WHERE user_id = ? AND id = ? AND revoked_at IS NULL').run(at, userId, id).changes > 0;
  }

  /** Revokes every session of a user (after a password reset); returns their ids. */
  revokeAllSessions(userId: string, at: number): string[] {
    const ids = this.db.query<{ id: string }, [string]>('SELECT id FROM user_sessions WHERE user_id = ? AND revoked_at IS NULL').all(userId).map((r) => r.id);
    this.db.query('UPDATE user_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL').run(at, userId);
    return ids;
  }

  insertReset(hash: string, userId: string, at: number, expiresAt: number): void {
    this.db.query('INSERT INTO password_resets (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(hash, userId, at, expiresAt);
  }

  reset(hash: string): { user_id: string; expires_at: number; used_at: number | null } | null {
    return this.db.query<{ user_id: string; expires_at: number; used_at: number | null }, [string]>('SELECT user_id, expires_at, used_at FROM password_resets WHERE hash = ?').get(hash);
  }

  /** Marks a reset link used; false when it was already used (single use under concurrency). */
  useReset(hash: string, at: number): boolean {
    return this.db.query('UPDATE password_resets SET used_at = ? WHERE hash = ? AND used_at IS NULL').run(at, hash).changes > 0;
  }
}
