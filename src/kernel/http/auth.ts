import { AppError } from '../errors';
import type { Scope } from './scopes';
import type { RateLimiter } from './rate-limit';

/** Who is calling: an API key of one tenant with a fixed scope set. */
export interface Principal {
  keyId: string;
  tenantId: string;
  tenantSlug: string;
  tenantName: string;
  cdnOnly: boolean;
  scopes: ReadonlySet<Scope>;
  role: string | null;
}

/** Looks a key up by the SHA-256 hex of its secret; null when unknown or revoked. */
export type KeyLookup = (hash: string) => Principal | null;

const KEY_RE = /^vs_[A-Za-z0-9_-]{20,120}$/;

/** SHA-256 hex of an API key's text (only this is stored). */
export function hashKey(key: string): string {
  return new Bun.CryptoHasher('sha256').update(key).digest('hex');
}

/**
 * Caches principals by presented key so the hot path neither hashes nor touches SQLite (only the SHA-256 is ever
 * stored; the in-memory map lives as long as the process, like the request that carried the key). Revocation
 * invalidates.
 */
export class KeyCache {
  private byKey = new Map<string, Principal>();
  constructor(private lookup: KeyLookup, private max = 10_000) {}

  /** Resolves a presented key to its principal, from cache or (by its hash) the store. */
  get(key: string): Principal | null {
    const hit = this.byKey.get(key);
    if (hit) return hit;
    const p = this.lookup(hashKey(key));
    if (p) {
      if (this.byKey.size >= this.max) this.byKey.clear();
      this.byKey.set(key, p);
    }
    return p;
  }

  /** Forgets a key (after revocation) so its next request is refused. */
  invalidateKey(keyId: string): void {
    for (const [k, p] of this.byKey) if (p.keyId === keyId) this.byKey.delete(k);
  }

  /** Forgets every key of a tenant (after a tenant change). */
  invalidateTenant(tenantId: string): void {
    for (const [k, p] of this.byKey) if (p.tenantId === tenantId) this.byKey.delete(k);
  }
}

/** Options a route states about its caller. */
export interface AuthRule {
  /** Scope required; null = any valid key. */
  scope: Scope | null;
  /** Any one of these scopes suffices (used instead of `scope`). */
  anyOf?: Scope[];
  /** Route is unavailable to CDN-only tenants (assets, channels, clips, players). */
  platform?: boolean;
  /** The route takes a multipart/form-data body (file uploads) instead of JSON; read after authentication. */
  multipart?: boolean;
}

/** Authenticates a request: bearer key -> principal, scope check, CDN-only check, rate limit. */
export function authenticate(req: Request, rule: AuthRule, keys: KeyCache, limiter: RateLimiter): Principal {
  const header = req.headers.get('authorization');
  if (!header) throw new AppError('invalid_credentials', 'missing Authorization header');
  const m = /^Bearer[ ]+(\S*)\s*$/i.exec(header);
  if (!m) throw new AppError('invalid_credentials', 'Authorization must use the Bearer scheme');
  const token = m[1];
  if (!token || !KEY_RE.test(token)) throw new AppError('invalid_credentials', 'malformed API key');
  const p = keys.get(token);
  if (!p) throw new AppError('invalid_credentials', 'unknown or revoked API key');
  const wait = limiter.take(p.keyId);
  if (wait > 0) throw new AppError('rate_limited', `rate limit exceeded; retry in ${wait} s`, { headers: { 'retry-after': String(wait) } });
  if (rule.scope && !p.scopes.has(rule.scope)) throw new AppError('insufficient_scope', rule.scope);
  if (rule.anyOf && !rule.anyOf.some((s) => p.scopes.has(s))) throw new AppError('insufficient_scope', rule.anyOf.join(' or '));
  if (rule.platform && p.cdnOnly) throw new AppError('feature_disabled', 'not available to CDN-only tenants');
  return p;
}

/** Throws 403 insufficient_scope unless the caller holds `scope` (for one-field checks such as `publish`). */
export function requireScope(p: Principal, scope: Scope): void {
  if (!p.scopes.has(scope)) throw new AppError('insufficient_scope', scope);
}
