import { invalid } from '../../kernel/errors';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks a site's redirect address and returns its origin: an absolute https URL (plain http only for localhost
 * and loopback addresses), without user info or fragment. The redirect must stay on this origin.
 */
export function siteOrigin(uri: string): string {
  if (uri.length > 2000) throw invalid('redirect_uri', 'at most 2000 characters');
  if (uri.includes('#')) throw invalid('redirect_uri', 'must not carry a fragment');
  let u: URL;
  try { u = new URL(uri); } catch { throw invalid('redirect_uri', 'not an absolute URL'); }
  if (u.username || u.password || /^[a-z]+:\/\/[^/]*@/i.test(uri)) throw invalid('redirect_uri', 'must not carry user info');
  if (u.protocol === 'http:' && !LOOPBACK.has(u.hostname)) throw invalid('redirect_uri', 'plain http is allowed only for localhost; use https');
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid('redirect_uri', 'must be https (or http on localhost)');
  return u.origin;
}

/** The S256 challenge of a PKCE verifier: base64url(SHA-256(verifier)). */
export function s256(verifier: string): string {
  return new Bun.CryptoHasher('sha256').update(verifier).digest('base64url');
}

/** PKCE verifiers and challenges: 43-128 characters of the unreserved set (RFC 7636). */
export const PKCE_RE = /^[A-Za-z0-9._~-]{43,128}$/;
