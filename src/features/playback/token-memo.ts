import { isExpired, verifyToken, type Claims, type TokenFault } from './token';

/** A key lookup as `verifyToken` takes it: the secret of a key id, scoped to its tenant. */
type KeyFor = (kid: string, tenantId: string) => Buffer | null;

/**
 * A bounded memo of tokens already verified (structure and HMAC), keyed by the whole token string. A player asks
 * for many files with one token, so the signature is checked once per token, not once per request. A hit is reused
 * only while its signing key is still the very same secret object (every reload of keys makes new ones, a retired
 * key is gone), and the expiry is checked on every call; revocation and viewer binding stay with the caller.
 */
export function tokenMemo(max = 10_000) {
  const seen = new Map<string, { claims: Claims; secret: Buffer }>();
  return {
    /** `verifyToken`, answered from the memo when this exact token was verified under the same key secret. */
    verify(token: string, keyFor: KeyFor, nowS: number): { ok: true; claims: Claims } | { ok: false; fault: TokenFault } {
      const hit = seen.get(token);
      if (hit && keyFor(hit.claims.kid, hit.claims.t) === hit.secret) {
        return isExpired(hit.claims.e, nowS) ? { ok: false, fault: 'expired' } : { ok: true, claims: hit.claims };
      }
      const r = verifyToken(token, keyFor, nowS);
      if (r.ok) {
        const secret = keyFor(r.claims.kid, r.claims.t);
        if (secret) {
          if (seen.size >= max) seen.clear();
          seen.set(token, { claims: Object.freeze(r.claims), secret });
        }
      }
      return r;
    },
  };
}
