import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Playback token format (documented in the OpenAPI description of POST /v1/playback/tokens):
 *   v1.<payload>.<signature>
 * payload   = base64url(JSON claims), claims = {v:1, kid, t: tenant id, k: kind, i: target id, a?: range start ms,
 *             b?: range end ms or null for "live", e: expiry (Unix seconds), s: session id, ip?: viewer IP}
 * signature = base64url(HMAC-SHA256(signing key secret, "v1." + payload))
 * The token sits in the path (/t/<token>/...), so every relative URL in a playlist inherits it.
 */
export interface Claims {
  v: 1;
  kid: string;
  t: string;
  k: TargetKind;
  i: string;
  a?: number;
  b?: number | null;
  e: number;
  s: string;
  ip?: string;
}

/** What a token opens. */
export type TargetKind = 'asset' | 'channel' | 'clip' | 'catchup' | 'startover';

/** Signs claims with a key secret (raw bytes). */
export function signToken(claims: Claims, secret: Buffer): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const sig = createHmac('sha256', secret).update(`v1.${payload}`).digest('base64url');
  return `v1.${payload}.${sig}`;
}

/** A signature: exactly 43 base64url characters (32 bytes, no padding). */
const SIG = /^[A-Za-z0-9_-]{43}$/;

/** Decodes base64url strictly: only the alphabet, no padding, and the one canonical spelling of the bytes. */
export function canonicalB64(s: string): Buffer | null {
  if (!s || !/^[A-Za-z0-9_-]+$/.test(s) || s.length % 4 === 1) return null;
  const b = Buffer.from(s, 'base64url');
  return b.toString('base64url') === s ? b : null;
}

/** Why a token was refused. */
export type TokenFault = 'malformed' | 'unknown_key' | 'bad_signature' | 'expired';

/**
 * Verifies a token: structure, key id, HMAC (constant time) and expiry. `keyFor(kid)` returns the secret from an
 * in-memory cache, so verification never reads the database.
 */
export function verifyToken(token: string, keyFor: (kid: string, tenantId: string) => Buffer | null, nowS: number): { ok: true; claims: Claims } | { ok: false; fault: TokenFault } {
  if (token.length > 2048) return { ok: false, fault: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1' || !parts[2] || !SIG.test(parts[2])) return { ok: false, fault: 'malformed' };
  const payload = canonicalB64(parts[1]);
  if (!payload) return { ok: false, fault: 'malformed' };
  let claims: Claims;
  try {
    claims = JSON.parse(payload.toString('utf8'));
  } catch { return { ok: false, fault: 'malformed' }; }
  if (!claims || claims.v !== 1 || typeof claims.kid !== 'string' || typeof claims.t !== 'string' || typeof claims.i !== 'string'
    || typeof claims.e !== 'number' || typeof claims.s !== 'string' || typeof claims.k !== 'string') return { ok: false, fault: 'malformed' };
  // The key must belong to the tenant the claims name: a tenant's key never signs for another tenant.
  const secret = keyFor(claims.kid, claims.t);
  if (!secret) return { ok: false, fault: 'unknown_key' };
  const want = createHmac('sha256', secret).update(`v1.${parts[1]}`).digest();
  const got = canonicalB64(parts[2]);
  if (!got) return { ok: false, fault: 'malformed' };
  if (got.length !== want.length || !timingSafeEqual(got, want)) return { ok: false, fault: 'bad_signature' };
  if (isExpired(claims.e, nowS)) return { ok: false, fault: 'expired' };
  return { ok: true, claims };
}

/**
 * True from the expiry second on: a token whose `e` is 1000 is refused from 1000.000 s (`expires_at`) exactly, never
 * up to a second later. `nowS` is whole seconds (the current time rounded down), so `e <= nowS` is the same as
 * `e * 1000 <= now in ms` for whole-second expiries; a fractional `e` (a backend that signed `Date.now() / 1000 + ttl`)
 * counts from its whole second, a fraction early rather than late.
 */
export function isExpired(e: number, nowS: number): boolean {
  return Math.floor(e) <= nowS;
}
