import { AppError, invalid, notFound } from '../../kernel/errors';
import { newId, randomToken } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import { tx, type Db } from '../../kernel/db/sqlite';
import { hashKey, type KeyCache, type Principal } from '../../kernel/http/auth';
import { isScope, scopesForRole, type Role, type Scope } from '../../kernel/http/scopes';
import type { Page } from '../../kernel/http/pagination';
import type { AppContext } from '../../kernel/context';
import { IdentityStore, type KeyRow } from './store';

/** Key view returned by the API (no secret). */
export interface KeyView { id: string; name: string; role: string | null; prefix: string; scopes: string[]; created_at: string; revoked_at: string | null }

const OWNER_SCOPES = scopesForRole('owner');
/** True when a scope list holds every scope of the owner role. */
const isOwnerLevel = (scopes: string[]): boolean => { const have = new Set(scopes); return OWNER_SCOPES.every((s) => have.has(s)); };

const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function view(k: KeyRow): KeyView {
  return {
    id: k.id, name: k.name, role: k.role, prefix: k.prefix, scopes: JSON.parse(k.scopes),
    created_at: iso(k.created_at), revoked_at: k.revoked_at ? iso(k.revoked_at) : null,
  };
}

/** Turns a display name into a URL-safe slug. */
export function slugify(name: string): string {
  return name.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63) || 'tenant';
}

/** Builds a principal lookup over the store (used by the key cache). */
export function keyLookup(db: Db) {
  const store = new IdentityStore(db);
  return (hash: string): Principal | null => {
    const k = store.activeKeyByHash(hash);
    if (!k) return null;
    return {
      kind: 'key', keyId: k.id, userId: null, tenantId: k.tenant_id, tenantSlug: k.slug, tenantName: k.tenant_name, cdnOnly: k.cdn_only === 1,
      scopes: new Set(JSON.parse(k.scopes) as Scope[]), role: k.role,
    };
  };
}

/** Tenants and API keys: creation, listing, revocation, bootstrap. */
export class IdentityService {
  private store: IdentityStore;
  constructor(private db: Db, private keys: KeyCache | null, private now: () => number = Date.now) {
    this.store = new IdentityStore(db);
  }

  /** Creates a tenant; a taken slug answers 409. */
  createTenant(input: { name: string; slug?: string; cdnOnly?: boolean }): { id: string; slug: string } {
    const name = input.name.trim();
    if (!name || name.length > 200) throw invalid('name', '1-200 characters');
    const slug = input.slug ?? slugify(name);
    if (!SLUG_RE.test(slug)) throw invalid('slug', 'lowercase letters, digits and hyphens, 1-63 characters');
    if (this.store.tenantBySlug(slug)) throw new AppError('conflict', `tenant slug "${slug}" is taken`);
    const id = newId();
    this.store.insertTenant({ id, slug, name, cdn_only: input.cdnOnly ? 1 : 0, created_at: this.now() });
    return { id, slug };
  }

  /** Resolves a tenant by slug or id. */
  tenant(slugOrId: string) {
    const t = this.store.tenantBySlug(slugOrId) ?? this.store.tenantById(slugOrId);
    if (!t) throw notFound(`tenant "${slugOrId}"`);
    return t;
  }

  /**
   * Creates an API key for a tenant from a role or an explicit scope list. With a `grantor`, the key can hold
   * only scopes the grantor holds. The full key is returned once; only its SHA-256 is stored.
   */
  createKey(tenantId: string, input: { name?: string; role?: Role; scopes?: string[] }, grantor?: Principal): KeyView & { key: string } {
    if ((input.role === undefined) === (input.scopes === undefined)) {
      throw new AppError('validation_error', 'give exactly one of role or scopes', { errors: [{ field: 'role', detail: 'exactly one of role or scopes' }] });
    }
    let scopes: Scope[];
    if (input.role) scopes = scopesForRole(input.role);
    else {
      const bad = input.scopes!.filter((s) => !isScope(s));
      if (bad.length) throw invalid('scopes', `unknown scope ${bad.join(', ')}`);
      scopes = [...new Set(input.scopes as Scope[])];
    }
    if (grantor) {
      const missing = scopes.filter((s) => !grantor.scopes.has(s));
      if (missing.length) throw new AppError('insufficient_scope', `cannot grant scopes the caller lacks: ${missing.join(', ')}`);
    }
    const key = `vs_${randomToken(30)}`;
    const row = {
      id: newId(), tenant_id: tenantId, name: (input.name ?? '').slice(0, 200), role: input.role ?? null,
      prefix: key.slice(0, 10), hash: hashKey(key), scopes: JSON.stringify(scopes), created_at: this.now(),
    };
    this.store.insertKey(row);
    return { ...view({ ...row, seq: 0, revoked_at: null }), key };
  }

  /** Lists a tenant's keys, newest first. */
  listKeys(tenantId: string, limit: number, cursor: number | null, page: (rows: KeyRow[]) => Page<KeyView>): Page<KeyView> {
    return page(this.store.listKeys(tenantId, cursor, limit));
  }

  /** Maps rows to views (for pagination). */
  static view = view;

  /**
   * Revokes a key of the tenant; the next request with it answers 401. Unknown id answers 404. With a `by` caller,
   * the target's scopes must all be the caller's (else 403). The tenant's last owner-level key is never revoked (409).
   */
  revokeKey(tenantId: string, id: string, by?: Principal): void {
    tx(this.db, () => {
      const k = this.store.keyById(tenantId, id);
      if (!k) throw notFound('API key');
      const scopes = JSON.parse(k.scopes) as string[];
      if (by) {
        const missing = scopes.filter((s) => !by.scopes.has(s as Scope));
        if (missing.length) throw new AppError('insufficient_scope', `cannot revoke a key holding scopes the caller lacks: ${missing.join(', ')}`);
      }
      if (k.revoked_at === null && isOwnerLevel(scopes)) {
        const others = this.store.activeKeyScopes(tenantId).filter((o) => o.id !== id && isOwnerLevel(JSON.parse(o.scopes) as string[]));
        if (!others.length) throw new AppError('conflict', 'this is the tenant\'s last owner-level key (it holds every owner scope); create another owner key before revoking it');
      }
      this.store.revokeKey(tenantId, id, this.now());
    });
    this.keys?.invalidateKey(id);
  }

  /** First start on an empty data dir: creates tenant `default` and an owner key (returned once). */
  bootstrap(): { tenant: string; key: string } | null {
    return tx(this.db, () => {
      if (this.store.countTenants() > 0) return null;
      const t = this.createTenant({ name: 'Default', slug: 'default' });
      const k = this.createKey(t.id, { role: 'owner', name: 'first owner key' });
      return { tenant: t.slug, key: k.key };
    });
  }

  /** A service-wide secret by name, created on first use. */
  secret(name: string): string {
    const have = this.store.getSecret(name);
    if (have !== null) return have;
    this.store.putSecretIfMissing(name, randomToken(32));
    return this.store.getSecret(name)!;
  }
}

/** Builds the identity service for an app context. */
export function identityService(ctx: AppContext): IdentityService {
  return new IdentityService(ctx.db, ctx.keys, () => ctx.clock.now());
}
