import { AppError } from '../errors';
import type { Scope } from './scopes';
import type { RateLimiter } from './rate-limit';

/** Who is calling: an API key of one tenant with a fixed scope set, or a signed-in person (studio session). */
export interface Principal {
  /** `key`: an API key; `session`: a studio session cookie. */
  kind: 'key' | 'session';
  /** The key's id; for sessions the session id. */
  keyId: string;
  /** The signed-in person (sessions only). */
  userId: string | null;
  tenantId: string;
  tenantSlug: string;
  tenantName: string;
  cdnOnly: boolean;
  scopes: ReadonlySet<Scope>;
  role: string | null;
  /** Session extras: the CSRF token writes must echo, the person and every active membership (for /v1/me). */
  session?: SessionInfo;
}

/** What a session principal carries beyond the key fields (tenant fields are '' until a tenant is chosen). */
export interface SessionInfo {
  csrf: string;
  user: { id: string; email: string; name: string };
  tenants: { id: string; slug: string; name: string; role: string; cdn_only: boolean }[];
}

/** A session as the auth layer needs it: its principal and its lifetimes (ms since epoch). */
export interface SessionRecord { principal: Principal; lastSeenAt: number; expiresAt: number; idleMs: number }

/** Where sessions come from (the people feature attaches one; the kernel never imports features). */
export interface SessionSource {
  /** An active session by the SHA-256 hex of its cookie token; null when unknown, revoked or its user is disabled. */
  lookup(hash: string): SessionRecord | null;
  /** Records activity (called at most once a minute per session). */
  touch(sessionId: string, at: number): void;
  now(): number;
}

/** Name of the studio session cookie. */
export const SESSION_COOKIE = 'vs_session';
/** Header that cookie-authenticated writes must carry (synchronizer token). */
export const CSRF_HEADER = 'x-csrf-token';
const TOUCH_EVERY_MS = 60_000;
/** How long a key the store did not know is refused from memory (KeyCache.misses). */
const MISS_TTL_MS = 60_000;

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

  /** The principal of a key already in the cache (no lookup). */
  cached(key: string): Principal | null { return this.byKey.get(key) ?? null; }

  /**
   * Keys presented recently that the store did not know, with when that answer lapses: a client retrying with a
   * revoked or mistyped key is refused without hashing and reading the store each time. Keys are only ever made
   * by the server from 30 random bytes, so a text refused here cannot become valid later except by a store swapped
   * under the running process, and the lapse bounds even that.
   */
  private misses = new Map<string, number>();

  /** Resolves a presented key to its principal, from cache or (by its hash) the store. */
  get(key: string): Principal | null {
    const hit = this.byKey.get(key);
    if (hit) return hit;
    const now = Date.now();
    const missed = this.misses.get(key);
    if (missed !== undefined && missed > now) return null;
    const p = this.lookup(hashKey(key));
    if (p) {
      if (this.byKey.size >= this.max) this.byKey.clear();
      this.byKey.set(key, p);
    } else {
      if (this.misses.size >= this.max) this.misses.clear();
      this.misses.set(key, now + MISS_TTL_MS);
    }
    return p;
  }

  /** Forgets a key (after revocation) so its next request is refused. */
  invalidateKey(keyId: string): void {
    for (const [k, p] of this.byKey) if (p.keyId === keyId) this.byKey.delete(k);
  }

  /** Forgets every key of a tenant and every cached session (after a tenant change). */
  invalidateTenant(tenantId: string): void {
    for (const [k, p] of this.byKey) if (p.tenantId === tenantId) this.byKey.delete(k);
    // A session lists every membership of its person (names included), not only its current tenant: drop them all.
    this.bySession.clear();
  }

  private sessions: SessionSource | null = null;
  private bySession = new Map<string, SessionRecord>();

  /** Enables studio session cookies with this source (called once by the people feature when routes are built). */
  attachSessions(source: SessionSource): void { this.sessions = source; }

  /**
   * Resolves a presented session token to its principal: cached by token (role and membership changes invalidate
   * by user), idle and absolute lifetimes checked on every call, activity written at most once a minute.
   */
  session(token: string): Principal | null {
    const src = this.sessions;
    if (!src) return null;
    const now = src.now();
    let r = this.bySession.get(token);
    if (!r) {
      const found = src.lookup(hashKey(token));
      if (!found) return null;
      if (this.bySession.size >= this.max) this.bySession.clear();
      this.bySession.set(token, found);
      r = found;
    }
    if (now >= r.expiresAt || now >= r.lastSeenAt + r.idleMs) { this.bySession.delete(token); return null; }
    if (now - r.lastSeenAt >= TOUCH_EVERY_MS) { r.lastSeenAt = now; src.touch(r.principal.keyId, now); }
    return r.principal;
  }

  /** Forgets every cached session of a person (after a role, membership, password or tenant change). */
  invalidateUser(userId: string): void {
    for (const [k, r] of this.bySession) if (r.principal.userId === userId) this.bySession.delete(k);
  }

  /** Forgets one session (after sign-out or revocation). */
  invalidateSession(sessionId: string): void {
    for (const [k, r] of this.bySession) if (r.principal.keyId === sessionId) this.bySession.delete(k);
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
  /** false: studio session cookies are refused (API keys only, e.g. /mcp); default true. */
  sessions?: boolean;
  /** The route takes a multipart/form-data body (file uploads) instead of JSON; read after authentication. */
  multipart?: boolean;
  /** 'session': only a signed-in person (an API key answers 403); 'key': only an API key. */
  only?: 'session' | 'key';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The value of one cookie in a Cookie header, or null. */
export function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

/** Constant-time string equality (for CSRF tokens). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}

/**
 * Authenticates a request: bearer key (or, without one, a studio session cookie) -> principal, CSRF for
 * cookie-authenticated writes, rate limit, scope check, CDN-only check.
 */
export function authenticate(req: Request, rule: AuthRule, keys: KeyCache, limiter: RateLimiter): Principal {
  const header = req.headers.get('authorization');
  const p = header ? byKey(header, keys) : bySession(req, rule, keys);
  if (rule.only === 'session' && p.kind !== 'session') throw new AppError('forbidden', 'only a signed-in person can do this, never an API key');
  if (rule.only === 'key' && p.kind !== 'key') throw new AppError('forbidden', 'this operation needs an API key');
  const wait = limiter.take(p.kind === 'key' ? p.keyId : `u:${p.userId}`);
  if (wait > 0) throw new AppError('rate_limited', `rate limit exceeded; retry in ${wait} s`, { headers: { 'retry-after': String(wait) } });
  if ((rule.scope || rule.anyOf) && p.kind === 'session' && !p.tenantId) throw new AppError('forbidden', 'choose a current tenant first (PUT /v1/me/tenant)');
  if (rule.scope && !p.scopes.has(rule.scope)) throw new AppError('insufficient_scope', rule.scope);
  if (rule.anyOf && !rule.anyOf.some((s) => p.scopes.has(s))) throw new AppError('insufficient_scope', rule.anyOf.join(' or '));
  if (rule.platform && p.cdnOnly) throw new AppError('feature_disabled', 'not available to CDN-only tenants');
  return p;
}

/** The token of `Bearer <token>` (the common spelling without a regex), or null when the scheme is not Bearer. */
function bearerToken(header: string): string | null {
  if (header.startsWith('Bearer ') && !/\s/.test(header.slice(7))) return header.slice(7);
  const m = /^Bearer[ ]+(\S*)\s*$/i.exec(header);
  return m ? m[1] : null;
}

function byKey(header: string, keys: KeyCache): Principal {
  // Common spelling first: a cached key passed the key pattern (no whitespace) when it was first seen, so an exact
  // `Bearer <cached key>` needs no further parsing. Anything else takes the full path below.
  if (header.startsWith('Bearer ')) {
    const hit = keys.cached(header.slice(7));
    if (hit) return hit;
  }
  const token = bearerToken(header);
  if (token === null) throw new AppError('invalid_credentials', 'Authorization must use the Bearer scheme');
  const cached = keys.cached(token);
  if (cached) return cached;
  if (!token || !KEY_RE.test(token)) throw new AppError('invalid_credentials', 'malformed API key');
  const p = keys.get(token);
  if (!p) throw new AppError('invalid_credentials', 'unknown or revoked API key');
  return p;
}

const SESSION_RE = /^[A-Za-z0-9_-]{20,120}$/;
/** The remote assistant endpoint never takes studio sessions, whatever its routes say (spec: Authentication 5). */
const MCP_RE = /^[a-z]+:\/\/[^/]+\/mcp(?:[/?]|$)/i;

function bySession(req: Request, rule: AuthRule, keys: KeyCache): Principal {
  const token = rule.sessions === false || MCP_RE.test(req.url) ? null : cookieValue(req.headers.get('cookie'), SESSION_COOKIE);
  if (!token) throw new AppError('invalid_credentials', 'missing Authorization header');
  if (!SESSION_RE.test(token)) throw new AppError('invalid_credentials', 'malformed session cookie');
  const p = keys.session(token);
  if (!p) throw new AppError('invalid_credentials', 'session expired or signed out; sign in again');
  if (!SAFE_METHODS.has(req.method)) {
    const sent = req.headers.get(CSRF_HEADER);
    if (!sent || !sameText(sent, p.session!.csrf)) throw new AppError('forbidden', 'CSRF token missing or wrong: cookie-authenticated writes must send X-CSRF-Token');
  }
  return p;
}

/** Throws 403 insufficient_scope unless the caller holds `scope` (for one-field checks such as `publish`). */
export function requireScope(p: Principal, scope: Scope): void {
  if (!p.scopes.has(scope)) throw new AppError('insufficient_scope', scope);
}
