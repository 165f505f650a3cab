import type { Db } from '../../kernel/db/sqlite';
import { sealerOf } from '../../kernel/secrets/seal';

/** A tenant row. */
export interface TenantRow { seq: number; id: string; slug: string; name: string; cdn_only: number; settings: string; created_at: number }
/** An API key row (the secret itself is never stored, only its hash). */
export interface KeyRow {
  seq: number; id: string; tenant_id: string; name: string; role: string | null; prefix: string; hash: string;
  scopes: string; created_at: number; revoked_at: number | null;
}

/** SQL for tenants and keys; the only place identity SQL lives. */
export class IdentityStore {
  constructor(private db: Db) {}

  insertTenant(t: Omit<TenantRow, 'seq' | 'settings'>): void {
    this.db.query('INSERT INTO tenants (id, slug, name, cdn_only, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(t.id, t.slug, t.name, t.cdn_only, t.created_at);
  }

  tenantBySlug(slug: string): TenantRow | null {
    return this.db.query<TenantRow, [string]>('SELECT * FROM tenants WHERE slug = ?').get(slug);
  }

  tenantById(id: string): TenantRow | null {
    return this.db.query<TenantRow, [string]>('SELECT * FROM tenants WHERE id = ?').get(id);
  }

  countTenants(): number {
    return this.db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM tenants').get()!.n;
  }

  insertKey(k: Omit<KeyRow, 'seq' | 'revoked_at'>): void {
    this.db.query('INSERT INTO api_keys (id, tenant_id, name, role, prefix, hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(k.id, k.tenant_id, k.name, k.role, k.prefix, k.hash, k.scopes, k.created_at);
  }

  /** An active key and its tenant by key hash. */
  activeKeyByHash(hash: string): (KeyRow & { slug: string; tenant_name: string; cdn_only: number }) | null {
    return this.db.query<KeyRow & { slug: string; tenant_name: string; cdn_only: number }, [string]>(
      `SELECT k.*, t.slug, t.name AS tenant_name, t.cdn_only FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
       WHERE k.hash = ? AND k.revoked_at IS NULL`,
    ).get(hash);
  }

  keyById(tenantId: string, id: string): KeyRow | null {
    return this.db.query<KeyRow, [string, string]>('SELECT * FROM api_keys WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** Keys of a tenant, newest first, after cursor `beforeSeq`, `limit + 1` rows. */
  listKeys(tenantId: string, beforeSeq: number | null, limit: number): KeyRow[] {
    return this.db.query<KeyRow, [string, number, number]>(
      'SELECT * FROM api_keys WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
    ).all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1);
  }

  /** Ids and scope lists of a tenant's non-revoked keys. */
  activeKeyScopes(tenantId: string): { id: string; scopes: string }[] {
    return this.db.query<{ id: string; scopes: string }, [string]>('SELECT id, scopes FROM api_keys WHERE tenant_id = ? AND revoked_at IS NULL').all(tenantId);
  }

  revokeKey(tenantId: string, id: string, at: number): boolean {
    return this.db.query('UPDATE api_keys SET revoked_at = ? WHERE tenant_id = ? AND id = ? AND revoked_at IS NULL')
      .run(at, tenantId, id).changes > 0;
  }

  /** A service-wide secret, opened (stored sealed under the master key). */
  getSecret(name: string): string | null {
    const v = this.db.query<{ value: string }, [string]>('SELECT value FROM secrets WHERE name = ?').get(name)?.value;
    return v === undefined ? null : sealerOf(this.db).open(v);
  }

  /** Stores a service-wide secret sealed, unless one by that name exists. */
  putSecretIfMissing(name: string, value: string): void {
    this.db.query('INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)').run(name, sealerOf(this.db).seal(value));
  }
}
