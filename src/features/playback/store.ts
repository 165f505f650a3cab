import type { Db } from '../../kernel/db/sqlite';
import { sealerOf } from '../../kernel/secrets/seal';

/** A signing key row (secret is base64url of 32 random bytes). */
export interface SigningKeyRow { seq: number; id: string; tenant_id: string; secret: string; active: number; created_at: number; retired_at: number | null }
/** A policy row; `rules` is JSON of PolicyRules. */
export interface PolicyRow { seq: number; id: string; tenant_id: string; name: string; rules: string; created_at: number; updated_at: number }
/** An attach point: a policy applied to the tenant, a channel (by slug) or an asset (by id). */
export interface AttachmentRow { tenant_id: string; target_kind: string; target_ref: string; policy_id: string; created_at: number }

/** SQL of the playback feature; the only place it lives. */
export class PlaybackStore {
  constructor(private db: Db) {}

  /** Signing keys not retired, secrets opened. */
  allKeys(): SigningKeyRow[] {
    return this.openKeys(this.db.query<SigningKeyRow, []>('SELECT * FROM playback_signing_keys WHERE retired_at IS NULL').all());
  }
  /** A tenant's signing keys, newest first, secrets opened. */
  keysOf(tenantId: string): SigningKeyRow[] {
    return this.openKeys(this.db.query<SigningKeyRow, [string]>('SELECT * FROM playback_signing_keys WHERE tenant_id = ? ORDER BY seq DESC').all(tenantId));
  }
  /** Adds the tenant's new active key (its secret stored sealed under the master key). */
  insertKey(k: Omit<SigningKeyRow, 'seq' | 'retired_at'>): void {
    this.db.query('UPDATE playback_signing_keys SET active = 0 WHERE tenant_id = ?').run(k.tenant_id);
    this.db.query('INSERT INTO playback_signing_keys (id, tenant_id, secret, active, created_at) VALUES (?, ?, ?, ?, ?)').run(k.id, k.tenant_id, sealerOf(this.db).seal(k.secret), k.active, k.created_at);
  }
  private openKeys(rows: SigningKeyRow[]): SigningKeyRow[] {
    const s = sealerOf(this.db);
    for (const r of rows) r.secret = s.open(r.secret);
    return rows;
  }
  retireKey(tenantId: string, id: string, at: number): boolean {
    return this.db.query('UPDATE playback_signing_keys SET retired_at = ?, active = 0 WHERE tenant_id = ? AND id = ? AND retired_at IS NULL AND active = 0').run(at, tenantId, id).changes > 0;
  }

  allPolicies(): PolicyRow[] { return this.db.query<PolicyRow, []>('SELECT * FROM playback_policies').all(); }
  policy(tenantId: string, id: string): PolicyRow | null {
    return this.db.query<PolicyRow, [string, string]>('SELECT * FROM playback_policies WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }
  listPolicies(tenantId: string, beforeSeq: number | null, limit: number): PolicyRow[] {
    return this.db.query<PolicyRow, [string, number, number]>('SELECT * FROM playback_policies WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?').all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1);
  }
  insertPolicy(p: Omit<PolicyRow, 'seq'>): void {
    this.db.query('INSERT INTO playback_policies (id, tenant_id, name, rules, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(p.id, p.tenant_id, p.name, p.rules, p.created_at, p.updated_at);
  }
  updatePolicy(tenantId: string, id: string, name: string, rules: string, at: number): void {
    this.db.query('UPDATE playback_policies SET name = ?, rules = ?, updated_at = ? WHERE tenant_id = ? AND id = ?').run(name, rules, at, tenantId, id);
  }
  deletePolicy(tenantId: string, id: string): boolean {
    return this.db.query('DELETE FROM playback_policies WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0;
  }

  allAttachments(): AttachmentRow[] { return this.db.query<AttachmentRow, []>('SELECT * FROM playback_policy_attachments').all(); }
  attachmentsOf(tenantId: string): AttachmentRow[] {
    return this.db.query<AttachmentRow, [string]>('SELECT * FROM playback_policy_attachments WHERE tenant_id = ? ORDER BY created_at').all(tenantId);
  }
  attach(a: AttachmentRow): void {
    this.db.query('INSERT OR REPLACE INTO playback_policy_attachments (tenant_id, target_kind, target_ref, policy_id, created_at) VALUES (?, ?, ?, ?, ?)').run(a.tenant_id, a.target_kind, a.target_ref, a.policy_id, a.created_at);
  }
  detach(tenantId: string, kind: string, ref: string): boolean {
    return this.db.query('DELETE FROM playback_policy_attachments WHERE tenant_id = ? AND target_kind = ? AND target_ref = ?').run(tenantId, kind, ref).changes > 0;
  }

  insertSession(s: { sid: string; tenant_id: string; target_kind: string; target_id: string; viewer_id: string | null; via: string; issued_at: number; expires_at: number }): void {
    this.db.query('INSERT INTO playback_sessions (sid, tenant_id, target_kind, target_id, viewer_id, via, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(s.sid, s.tenant_id, s.target_kind, s.target_id, s.viewer_id, s.via, s.issued_at, s.expires_at);
  }
  /** Deletes up to `limit` session rows that expired before `beforeMs` (index `playback_sessions_expiry`); how many went. */
  deleteExpiredSessions(beforeMs: number, limit: number): number {
    return this.db.query('DELETE FROM playback_sessions WHERE rowid IN (SELECT rowid FROM playback_sessions WHERE expires_at < ? LIMIT ?)').run(beforeMs, limit).changes;
  }
  session(tenantId: string, sid: string): { sid: string } | null {
    return this.db.query<{ sid: string }, [string, string]>('SELECT sid FROM playback_sessions WHERE tenant_id = ? AND sid = ?').get(tenantId, sid);
  }
  /** The issuer's record of one session, any tenant (beacon binding: src/features/player/beacon-binding.ts). */
  sessionBySid(sid: string): { sid: string; tenant_id: string; target_kind: string; target_id: string; via: string; expires_at: number } | null {
    return this.db.query<{ sid: string; tenant_id: string; target_kind: string; target_id: string; via: string; expires_at: number }, [string]>('SELECT sid, tenant_id, target_kind, target_id, via, expires_at FROM playback_sessions WHERE sid = ?').get(sid);
  }
  allRevokedSids(): string[] {
    return this.db.query<{ sid: string }, []>('SELECT sid FROM playback_revocations').all().map((r) => r.sid);
  }
  revoke(tenantId: string, sid: string, reason: string | null, at: number): boolean {
    return this.db.query('INSERT OR IGNORE INTO playback_revocations (sid, tenant_id, reason, revoked_at) VALUES (?, ?, ?, ?)').run(sid, tenantId, reason, at).changes > 0;
  }
  /** The playback change counter (migration 0051): bumped by triggers on every key, policy, attach point and revocation write. */
  changeCounter(): number | null {
    return this.db.query<{ v: number }, []>('SELECT v FROM playback_state_version WHERE id = 1').get()?.v ?? null;
  }
  /** The delivery grant counter (migration 0110): moves with every write that can change what a token opens. */
  grantVersion(): number {
    return this.db.query<{ v: number }, []>('SELECT v FROM delivery_grant_version WHERE id = 1').get()?.v ?? 0;
  }
  /** This connection's total_changes() and SQLite's data_version in one statement (no table read). */
  changeStamp(): [number, number] {
    return this.db.query<[number, number], []>('SELECT total_changes(), data_version FROM pragma_data_version').values()[0] as [number, number];
  }
  /** SQLite's data_version: changes when another connection committed anything (cheap; no table read). */
  dataVersion(): number {
    return this.db.query<{ data_version: number }, []>('PRAGMA data_version').get()!.data_version;
  }
  listRevocations(tenantId: string, limit: number): { sid: string; reason: string | null; revoked_at: number }[] {
    return this.db.query<{ sid: string; reason: string | null; revoked_at: number }, [string, number]>('SELECT sid, reason, revoked_at FROM playback_revocations WHERE tenant_id = ? ORDER BY seq DESC LIMIT ?').all(tenantId, limit);
  }
}
