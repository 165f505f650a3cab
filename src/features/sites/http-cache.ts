import { AppError } from '../../kernel/errors';
import { withKernelHeaders } from '../../kernel/http/answer';
import { requestId } from '../../kernel/http/request-id';

/** A public answer before headers: body bytes, media type, cache class, tags and (optionally) when it must stop being cached. */
export interface SiteAnswer {
  body: Uint8Array; type: string; etag: string; tags: string[];
  /** `page` 30 s, `sitemap` 600 s, `robots` 3600 s, `private` (previews: no-store). */
  kind: 'page' | 'sitemap' | 'robots' | 'private';
  /** A scheduled change at this instant (ms): s-maxage ends then. */
  changeAt: number | null;
  status?: number;
  /** Headers built on first send (see send); their `x-request-id` is rewritten per request. */
  base?: Record<string, string>;
  /** The same as a Headers object, and the body as a Blob: what a Response is made from fastest (see send). */
  headers?: Headers; blob?: Blob;
}

const MAX_AGE = { page: 30, sitemap: 600, robots: 3600 } as const;
const TEXT = new TextEncoder();

/** Builds an answer; the strong ETag is a hash of the exact bytes. */
export function answer(body: string | Uint8Array, type: string, kind: SiteAnswer['kind'], tags: string[], changeAt: number | null = null): SiteAnswer {
  const bytes = typeof body === 'string' ? TEXT.encode(body) : body;
  return { body: bytes, type, kind, tags: tags.map((x) => encodeURIComponent(x)), changeAt, etag: `"${Bun.hash(bytes).toString(36)}-${bytes.length.toString(36)}"` };
}

/** The Cache-Control of an answer at `now`: a scheduled change lowers s-maxage so it ends at that moment. */
export function cacheControl(a: SiteAnswer, now: number): string {
  if (a.kind === 'private') return 'private, no-store';
  let age: number = MAX_AGE[a.kind];
  if (a.changeAt !== null && a.changeAt > now) age = Math.min(age, Math.max(1, Math.ceil((a.changeAt - now) / 1000)));
  return `public, s-maxage=${age}, stale-while-revalidate=300, stale-if-error=86400`;
}

/** True when If-None-Match names this ETag (weak comparison, as RFC 9110 asks for If-None-Match) or is `*`. */
export function notModified(header: string | null, etag: string): boolean {
  if (!header) return false;
  // The common case (a cache or browser sending back the one ETag it was given) needs no splitting.
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * The Response of an answer: body or 304, caching headers, Cache-Tag, CORS for an allowed origin, X-VS-Sites-API,
 * and the kernel's `X-Request-Id` (marked as built with the kernel's headers: one Headers build per request, the same
 * answer from the router's path and from the fast lane).
 */
export function send(req: Request, a: SiteAnswer, now: number, allowOrigin: string | null): Response {
  const id = requestId(req);
  return withKernelHeaders(respond(req, a, now, allowOrigin, id), id);
}

/**
 * `send`'s Response for the request whose id is `id`, not marked: what a fast lane returns (`serveApp` adds nothing
 * to a lane's answer, so the mark, a property added to each Response, is not needed there).
 */
export function respond(req: Request, a: SiteAnswer, now: number, allowOrigin: string | null, id: string): Response {
  // The headers that do not change per request are built once per answer (the request id's place is kept in them).
  const base = a.base ??= {
    'content-type': a.type, etag: a.etag, 'x-vs-sites-api': '1', vary: 'Origin', 'cache-control': cacheControl(a, now),
    ...(a.tags.length ? { 'cache-tag': a.tags.join(',') } : {}), 'x-request-id': '',
  };
  let h: Headers | Record<string, string>;
  if (allowOrigin || a.changeAt !== null) {
    h = { ...base, 'cache-control': cacheControl(a, now), 'x-request-id': id };
    if (allowOrigin) { h['access-control-allow-origin'] = allowOrigin; h['access-control-expose-headers'] = 'ETag, Cache-Tag, X-VS-Sites-API'; }
  } else {
    // A Response copies its headers when made: the answer's one Headers object is rewritten per request (JavaScript
    // runs one request at a time), and made from a Headers object and a Blob a Response costs half as much.
    h = a.headers ??= new Headers(base);
    h.set('x-request-id', id);
  }
  const inm = req.headers.get('if-none-match');
  if (inm !== null && (a.status ?? 200) === 200 && notModified(inm, a.etag)) return new Response(null, { status: 304, headers: h });
  // A Blob of the bytes, not the bytes themselves: with a Uint8Array body the garbage collector runs about twice as
  // often (appliance with 100,000 catalogue items under wrk, BUN_JSC_logGC: 13-18 eden collections per 61-86k answers
  // against 7-13 per 93k with a Blob), which a bare server with a small heap does not show.
  const body = req.method === 'HEAD' ? null : a.blob ??= new Blob([a.body as Uint8Array<ArrayBuffer>]);
  return new Response(body, { status: a.status ?? 200, headers: h });
}

/** Hyphenated status text: the `type` tail of Sites Delivery problems. */
const STATUS_TYPE: Record<number, string> = {
  400: 'bad-request', 401: 'unauthorized', 403: 'forbidden', 404: 'not-found', 405: 'method-not-allowed', 408: 'request-timeout',
  409: 'conflict', 410: 'gone', 413: 'content-too-large', 415: 'unsupported-media-type', 422: 'unprocessable-content',
  429: 'too-many-requests', 500: 'internal-server-error', 503: 'service-unavailable',
};
const TITLES: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 422: 'Unprocessable Content', 500: 'Internal Server Error', 503: 'Service Unavailable' };

/** A Sites Delivery problem: RFC 9457 with `no-store`, the type from the hyphenated status text, CORS when allowed. */
export function siteProblem(err: AppError, problemsBase: string, allowOrigin: string | null): Response {
  const status = err.status;
  const body: Record<string, unknown> = {
    type: `${problemsBase}/${STATUS_TYPE[status] ?? 'error'}`, title: TITLES[status] ?? STATUS_TYPE[status] ?? 'Error', status, detail: err.detail,
  };
  if (err.extra.errors) body.errors = err.extra.errors;
  const h: Record<string, string> = { 'content-type': 'application/problem+json', 'cache-control': 'no-store', 'x-vs-sites-api': '1', vary: 'Origin', ...err.extra.headers };
  if (allowOrigin) h['access-control-allow-origin'] = allowOrigin;
  return new Response(JSON.stringify(body), { status, headers: h });
}
