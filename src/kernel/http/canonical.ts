/**
 * One canonical request target, computed once before routing. The router (Elysia reads the path from
 * `request.url` at a fixed offset) and every check after it must see the same path, so a request whose URL would
 * be read differently is rebuilt on a canonical origin, and targets or Host headers that are malformed are
 * refused before anything else looks at them.
 */

/** Where Elysia starts looking for the path in `request.url` (`url.indexOf('/', 11)`, "http://" + 4 chars). */
const ROUTER_OFFSET = 11;
/** The origin a request is rebuilt on when its own would be read differently by the router. */
const CANON_ORIGIN = 'http://canonical.invalid';

// RFC 3986 reg-name (letters, digits, '-', '_', dots), IPv4, or a bracketed IPv6 literal; optional port (group 1).
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::([0-9]{1,5}))?$/;
// Bytes allowed raw in a path: RFC 3986 pchar plus '/' (no backslash, controls, spaces or quotes).
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;

/** Why a request target was refused. */
export type TargetFault = 'bad_host' | 'bad_path';

/** A canonical target: its path (still percent-encoded) and raw query (without `?`). */
export interface CanonicalTarget { path: string; query: string }

/** A URL remembered as canonical, with the Host header it came with (found valid then). */
export interface KnownTarget extends CanonicalTarget { host: string | null }

/** The canonical view of one request: its path (still percent-encoded), raw query, and the request to route. */
export interface CanonicalRequest extends CanonicalTarget { request: Request }

/** Index of the path's first '/' in an absolute URL (after the authority). */
function pathStart(url: string): number {
  const scheme = url.indexOf('//');
  return url.indexOf('/', scheme < 0 ? 0 : scheme + 2);
}

/** A delivery path (/t/, /m/, /live/): every shape of the delivery table is plain ASCII, never percent-encoded. */
const DELIVERY_PATH = /^\/(?:t|m|live)\//;

/**
 * True when every segment of a percent-encoded path is a plain name once decoded (no dot segments, no '/'), and a
 * delivery path has nothing percent-encoded at all (the delivery front refuses any encoded delivery path, so both
 * ports answer such a path the same way).
 */
export function isCleanPath(path: string): boolean {
  if (path.length === 0 || path[0] !== '/' || path.length > 4096 || !PATH_CHARS.test(path)) return false;
  // Fast path (most requests): nothing encoded, no dot segment, no empty segment, so every segment is a plain name.
  if (!path.includes('%') && !path.includes('/.') && !path.includes('//')) return true;
  if (path.includes('%') && DELIVERY_PATH.test(path)) return false;
  const segs = path.split('/');
  for (let i = 1; i < segs.length; i++) {
    const raw = segs[i];
    // An empty segment is only allowed last (a trailing slash); '//' anywhere else is refused.
    if (raw === '') { if (i !== segs.length - 1) return false; continue; }
    let seg: string;
    if (raw.includes('%')) {
      try { seg = decodeURIComponent(raw); } catch { return false; }
      // Double encoding (%252e) is refused outright: a later decode must never reveal a dot segment or separator.
      if (/%[0-9A-Fa-f]{2}/.test(seg)) return false;
    } else seg = raw;
    if (seg === '.' || seg === '..' || seg.includes('/') || seg.includes('\\') || /[\x00-\x1f\x7f]/.test(seg)) return false;
  }
  return true;
}

/**
 * Deepest raw request target served, in segments (a trailing slash adds none); deeper ones are refused. The deepest
 * delivery path (a /t/ catch-up segment) has 10.
 */
export const RAW_MAX_SEGMENTS = 32;

/**
 * Route patterns for Bun.serve's `routes` that together match every raw request target of 0 to `RAW_MAX_SEGMENTS`
 * non-empty segments, with or without a trailing slash: `/`, `/:s0`, `/:s0/`, `/:s0/:s1`, ... Bun's router matches
 * the RAW target (before `request.url` resolves dot segments, `%2e` spellings and backslashes), so the `params` of
 * the pattern that matched are the raw segments, percent-decoded (`rawSegmentsClean` judges them). A raw target none
 * of them matches has an empty segment before its end or is deeper: refused (`isCleanPath` refuses those too).
 */
export function rawTargetPatterns(): string[] {
  const out = ['/'];
  let p = '';
  for (let i = 0; i < RAW_MAX_SEGMENTS; i++) { p += `/:s${i}`; out.push(p, `${p}/`); }
  return out;
}

/**
 * True when no raw segment (route params, percent-decoded by Bun) is a dot segment or holds a backslash: what Bun's
 * URL parser would resolve or turn into a separator before `request.url` shows the path. Literal `.`/`..`, every
 * `%2e` case mix and `\`/`%5c` are caught here; an overlong `%c0%ae` is not a dot to the URL parser and stays in
 * `request.url`, where `isCleanPath` refuses it (it does not decode). No regular expression: this runs per request.
 */
export function rawSegmentsClean(params: Record<string, string> | undefined): boolean {
  for (const k in params) {
    const v = params[k];
    if (v === '.' || v === '..' || v.includes('\\')) return false;
  }
  return true;
}

/** True for a syntactically valid Host header value. */
export function isValidHost(host: string): boolean {
  const m = host.length > 0 && host.length <= 261 ? HOST.exec(host) : null;
  // A port is a 16-bit number: `:99999` matches the pattern's five digits but names no port (RFC 3986 / RFC 6335).
  return m !== null && (m[1] === undefined || Number(m[1]) <= 65535);
}

/** Longest `request.url` whose canonical split `canonicalize` remembers. */
const KNOWN_URL_MAX = 512;
/** How many URLs one server's `knownUrls` holds before it starts again. */
const KNOWN_URLS = 1024;

/**
 * Checks a request's Host and target and returns its canonical form: the path and query as the router will read
 * them, and the request itself, rebuilt on a canonical origin when the router would otherwise slice its URL
 * somewhere else (short or empty Host, absolute-form targets). `goodHosts` (one per server) remembers Host values
 * already found valid; `knownUrls` (one per server) remembers URLs already found canonical (as the router reads them)
 * with their path, query and Host header, so a URL asked for again with the same Host (a kept answer, its 304) is
 * split and judged once: the verdict depends on those two texts alone.
 */
export function canonicalize(req: Request, goodHosts?: Set<string>, knownUrls?: Map<string, KnownTarget>): CanonicalRequest | TargetFault {
  const host = req.headers.get('host');
  const url = req.url;
  // A URL asked for again with the same Host header: the same verdict (both were judged then), no check repeated.
  const known = knownUrls?.get(url);
  if (known !== undefined && known.host === host) return { path: known.path, query: known.query, request: req };
  if (host !== null && !goodHosts?.has(host)) {
    if (!isValidHost(host)) return 'bad_host';
    // A server sees few distinct Host values: remember the valid ones (bounded) so the pattern runs once per value.
    if (goodHosts) { if (goodHosts.size >= 256) goodHosts.clear(); goodHosts.add(host); }
  }
  const i = pathStart(url);
  if (i < 0) return 'bad_path';
  const q = url.indexOf('?', i);
  const path = q < 0 ? url.slice(i) : url.slice(i, q);
  const query = q < 0 ? '' : url.slice(q + 1);
  if (!isCleanPath(path) || query.includes('#')) return 'bad_path';
  if (i === url.indexOf('/', ROUTER_OFFSET)) {
    if (knownUrls && url.length <= KNOWN_URL_MAX) { if (knownUrls.size >= KNOWN_URLS) knownUrls.clear(); knownUrls.set(url, { path, query, host }); }
    return { path, query, request: req };
  }
  // The router would read another path from this URL: hand it a request whose URL it reads the same way.
  const request = new Request(CANON_ORIGIN + url.slice(i), req);
  return { path, query, request };
}
