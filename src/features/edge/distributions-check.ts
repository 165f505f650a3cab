import { accessSync, constants, readFileSync } from 'node:fs';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { AppError, invalid } from '../../kernel/errors';
import { blockedReason, formatIp, parseIp } from '../../kernel/net/ip';
import { resolveName } from '../../kernel/net/pool';
import { allowCidrs, BlockedAddressError, shape } from '../../kernel/net/safe-fetch';

/** Cache rules as stored and rendered (defaults filled in). */
export interface CacheRules {
  ttl_overrides: { path: string; ttl_s: number }[];
  default_ttl_s: number;
  query_string: 'include' | 'ignore' | 'allow_list';
  query_allow: string[];
}

/** The methods a distribution passes on when none are given. */
export const DEFAULT_METHODS = ['GET', 'HEAD'];

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})+$`);
/** Characters a path may hold to stand verbatim in the edge's nginx configuration (no quote, `$`, `;`, braces, space). */
const SAFE_URL_PATH = /^\/[A-Za-z0-9._~!*+,=:@%/-]*$/;
/** A file path nginx reads verbatim inside double quotes. */
const SAFE_FILE = /^\/[^"\\$\x00-\x1f\x7f;{}\s]*$/;

/** Pure: a hostname lower-cased (trailing dot dropped) when it is a DNS name the edge can serve; throws 422 naming `field`. */
export function normHostname(raw: string, field: string): string {
  const h = raw.trim().toLowerCase().replace(/\.$/, '');
  if (!HOSTNAME.test(h) || h.length > 253) throw invalid(field, 'a DNS host name such as cdn.example.com (letters, digits, hyphens; no wildcard, port or path)');
  if (parseIp(h) || /^\d+$/.test(h.slice(h.lastIndexOf('.') + 1))) throw invalid(field, 'an IP address is not a hostname');
  if (/(^|\.)(localhost|invalid)$/.test(h)) throw invalid(field, 'localhost and .invalid names are not served by the edge');
  return h;
}

/** The hostnames of a request, normalised, without duplicates (422), none of them the appliance's own host (409). */
export function checkHostnames(list: string[], own: string[]): string[] {
  const out = list.map((h, i) => normHostname(h, `hostnames[${i}]`));
  const dup = out.find((h, i) => out.indexOf(h) !== i);
  if (dup) throw invalid('hostnames', `${dup} is listed twice`);
  const mine = out.find((h) => own.includes(h));
  if (mine) throw new AppError('conflict', `${mine} is the appliance's own address; a distribution cannot take it`);
  return out;
}

/** Pure: the origin URL's shape (http/https, no credentials, query or fragment, a path nginx can carry); throws 422. */
export function checkOriginShape(url: string, allow: string[]): URL {
  let u: URL;
  try { u = shape(url, allowCidrs(allow)); } catch (e) { throw e instanceof BlockedAddressError ? invalid('origin.url', e.detail) : e; }
  if (u.username || u.password) throw invalid('origin.url', 'credentials in the URL are not allowed');
  if (u.search || u.hash || url.includes('?') || url.includes('#')) throw invalid('origin.url', 'no query or fragment: the request\'s own query is passed on');
  if (!SAFE_URL_PATH.test(u.pathname)) throw invalid('origin.url', 'the path holds characters the edge cannot pass on');
  return u;
}

/**
 * Resolves the origin's host and checks every address against the private/internal table (exempt: the operator's
 * `VS_CDN_ORIGIN_ALLOW`); the addresses the edge will connect to (pinned in its configuration). Throws 422.
 */
export async function resolveOrigin(url: string, allow: string[]): Promise<{ url: URL; addresses: string[] }> {
  const u = checkOriginShape(url, allow);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const cidrs = allowCidrs(allow);
  const literal = parseIp(host);
  let addrs: string[];
  if (literal) addrs = [formatIp(literal)];
  else {
    try { addrs = (await resolveName(host)).map((a) => a.address); } catch (e) {
      throw invalid('origin.url', `host ${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (!addrs.length) throw invalid('origin.url', `host ${host} does not resolve`);
  for (const a of addrs) {
    const ip = parseIp(a);
    const why = ip ? blockedReason(ip, cidrs) : 'unreadable';
    if (why) throw invalid('origin.url', `${host} resolves to ${a} (${why}); private and internal origins need the operator's VS_CDN_ORIGIN_ALLOW`);
  }
  return { url: u, addresses: [...new Set(addrs.map((a) => formatIp(parseIp(a)!)))] };
}

/** Pure: cache rules with defaults filled in; path patterns and query settings checked (422). */
export function checkCacheRules(r: Partial<CacheRules> | undefined): CacheRules {
  const rules: CacheRules = {
    ttl_overrides: r?.ttl_overrides ?? [], default_ttl_s: r?.default_ttl_s ?? 0,
    query_string: r?.query_string ?? 'include', query_allow: r?.query_allow ?? [],
  };
  rules.ttl_overrides.forEach((o, i) => { if (!SAFE_URL_PATH.test(o.path)) throw invalid(`cache_rules.ttl_overrides[${i}].path`, 'a path starting with / of letters, digits and ._~!*+,=:@%/- (`*` matches anything)'); });
  if (rules.query_string === 'allow_list' && !rules.query_allow.length) throw invalid('cache_rules.query_allow', 'name at least one parameter for allow_list');
  if (rules.query_string !== 'allow_list' && rules.query_allow.length) throw invalid('cache_rules.query_allow', 'only with query_string: allow_list');
  return rules;
}

/** Pure: the allowed methods (GET required; HEAD goes with GET), in a stable order. */
export function checkMethods(m: string[] | undefined): string[] {
  const set = new Set(m ?? DEFAULT_METHODS);
  if (!set.has('GET')) throw invalid('allowed_methods', 'GET must be allowed');
  set.add('HEAD');
  return ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((x) => set.has(x));
}

/** What the API shows of a distribution's certificate. */
export interface TlsFacts { names: string[]; not_after: string }

/**
 * Checks TLS file paths: absolute, usable in the edge's configuration, readable by the service, a PEM certificate and
 * the private key that belongs to it (422 naming the field). Their content is never stored or answered.
 */
export function checkTls(tls: { certificate_file: string; key_file: string }): TlsFacts {
  const read = (p: string, field: string) => {
    if (!SAFE_FILE.test(p)) throw invalid(field, 'an absolute path without quotes, spaces, $, ; or braces');
    try { accessSync(p, constants.R_OK); return readFileSync(p, 'utf8'); } catch { throw invalid(field, 'not a readable file'); }
  };
  const certPem = read(tls.certificate_file, 'tls.certificate_file');
  const keyPem = read(tls.key_file, 'tls.key_file');
  let cert: X509Certificate;
  try { cert = new X509Certificate(certPem); } catch { throw invalid('tls.certificate_file', 'not a PEM certificate'); }
  let ok = false;
  try { ok = cert.checkPrivateKey(createPrivateKey(keyPem)); } catch { throw invalid('tls.key_file', 'not a PEM private key'); }
  if (!ok) throw invalid('tls.key_file', 'this key does not belong to the certificate');
  const names = (cert.subjectAltName ?? '').split(/,\s*/).filter((s) => s.startsWith('DNS:')).map((s) => s.slice(4));
  return { names, not_after: new Date(cert.validTo).toISOString() };
}

/** Pure: the TLS facts of stored paths, or null when the files are unreadable now (shown as such, never a 500). */
export function tlsFactsOf(cert: string | null, key: string | null): TlsFacts | null {
  if (!cert || !key) return null;
  try { return checkTls({ certificate_file: cert, key_file: key }); } catch { return null; }
}
