import { statSync, type Stats } from 'node:fs';
import type { FdCache } from '../../kernel/fs/fd-cache';
import { httpDateNow } from '../../kernel/http/http-date';
import { markFileAnswer } from '../../kernel/http/accel';
import { extname } from 'node:path';

const TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl', '.mpd': 'application/dash+xml', '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4', '.m4a': 'audio/mp4', '.jpg': 'image/jpeg', '.webp': 'image/webp', '.vtt': 'text/vtt; charset=utf-8',
  '.key': 'application/octet-stream',
};

/** Content type by file extension (HLS, DASH, CMAF, images, WebVTT). */
export function mimeOf(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** Pure: parses one `bytes=` range against a size: the span, 'unsatisfiable', or null (ignore: serve whole). */
export function parseRange(h: string | null, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!h) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(h.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // multi-range or malformed: whole file (RFC 9110 allows ignoring)
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * Pure: true when a conditional GET/HEAD may answer 304 (RFC 9110 §13.1.2-3, §13.2.2): If-None-Match (weak
 * comparison, `*`) decides when present; otherwise If-Modified-Since against the second-granular Last-Modified.
 */
export function notModified(h: Headers, etag: string, mtimeMs: number | null): boolean {
  const inm = h.get('if-none-match');
  if (inm !== null) return inm.split(',').some((t) => { const x = t.trim(); return x === '*' || x.replace(/^W\//, '') === etag; });
  const ims = h.get('if-modified-since');
  if (ims === null || mtimeMs === null) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

const ZERO = new Uint8Array(65_536);

/**
 * The body of a HEAD answer: never sent (Bun drops HEAD bodies and keeps the explicit Content-Length), but
 * Elysia's implicit HEAD for a GET-only route measures the body to set Content-Length, so it is a lazily generated
 * stream of the right length (no file read, at most 64 KiB at a time).
 */
function headBody(length: number): ReadableStream<Uint8Array> | null {
  if (length <= 0) return null;
  let left = length;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      const k = Math.min(left, ZERO.length);
      left -= k;
      c.enqueue(ZERO.subarray(0, k));
      if (left <= 0) c.close();
    },
  });
}

/** Headers that do not change with the status: validators, policy, CORS; `date` and an inline disposition set
 * explicitly so GET and HEAD carry the same set (Bun adds `Date` only to GET and a `filename=` disposition to files). */
function baseHeaders(type: string, cacheControl: string, etag: string, lastModified: string | null, extra: Record<string, string>): Record<string, string> {
  return {
    'content-type': type, 'cache-control': cacheControl, etag, 'accept-ranges': 'bytes',
    ...(lastModified ? { 'last-modified': lastModified } : {}), 'access-control-allow-origin': '*',
    'content-disposition': 'inline', date: httpDateNow(), ...extra,
  };
}

/** A body (or a HEAD stand-in), a status and headers: 304 / 416 / 206 / 200 with exact Content-Length. */
function answer(req: Request, size: number, headers: Record<string, string>, mtimeMs: number | null, body: (start: number, end: number) => BodyInit): Response {
  const get = req.method === 'GET' || req.method === 'HEAD';
  if (get && notModified(req.headers, headers.etag, mtimeMs)) {
    // Validators and policy only (RFC 9110 §15.4.5), as nginx answers a 304: no type or ranges of a body not sent.
    delete headers['content-type'];
    delete headers['accept-ranges'];
    return new Response(null, { status: 304, headers });
  }
  const ifRange = req.headers.get('if-range');
  const rangeOk = !ifRange || ifRange === headers.etag || (headers['last-modified'] !== undefined && ifRange === headers['last-modified']);
  const range = get && rangeOk ? parseRange(req.headers.get('range'), size) : null;
  const head = req.method === 'HEAD';
  if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
  const [start, end, status] = range ? [range.start, range.end, 206] : [0, size - 1, 200];
  const len = end - start + 1;
  // `headers` is this answer's own object (built by baseHeaders for it): completed in place.
  headers['content-length'] = String(len);
  // A partial answer says Content-Range and no Accept-Ranges, as nginx answers (the same headers with or without the front).
  if (range) { headers['content-range'] = `bytes ${start}-${end}/${size}`; delete headers['accept-ranges']; }
  return new Response(head ? headBody(len) : len > 0 ? body(start, end) : null, { status, headers });
}

/**
 * Serves a file: ETag/Last-Modified with 304 on If-None-Match/If-Modified-Since, single byte ranges (206/416),
 * HEAD with exactly the GET headers (length, type, validators, ranges), the given Cache-Control; null when missing.
 * `o.st`: the file's stat when the caller just made it (one system call fewer); `o.fds`: whole-file answers from
 * kept descriptors (`fdCache`).
 */
export function serveFile(req: Request, path: string, cacheControl: string, extra: Record<string, string> = {}, o: { st?: Stats; fds?: FdCache | null } = {}): Response | null {
  let st: Stats;
  if (o.st) st = o.st;
  else try { st = statSync(path); } catch { return null; }
  if (!st.isFile()) return null;
  // nginx's own validator for a file (modification second and size, hex): a native delivery front that sends the file
  // on its own (a grant) answers conditional requests with the same ETag as this process.
  const etag = `"${Math.floor(st.mtimeMs / 1000).toString(16)}-${st.size.toString(16)}"`;
  const headers = baseHeaders(mimeOf(path), cacheControl, etag, new Date(st.mtimeMs).toUTCString(), extra);
  const fds = o.fds;
  const res = answer(req, st.size, headers, st.mtimeMs, (s, e) => (s === 0 && e === st.size - 1 ? (fds ? fds.body(path, st) : Bun.file(path)) : Bun.file(path).slice(s, e + 1)));
  // A native delivery front may send the file itself (X-Accel-Redirect): the answer says which file it is.
  return res.status === 200 || res.status === 206 ? markFileAnswer(res, path) : res;
}

/**
 * Serves bytes built in memory (playlists, manifests, keys, encrypted segments) like `serveFile`: ETag from the
 * content (304 on If-None-Match), ranges, HEAD with the exact length and the same headers as GET.
 */
export function serveBytes(req: Request, body: string | Uint8Array, type: string, cacheControl: string, extra: Record<string, string> = {}): Response {
  const bytes: Uint8Array<ArrayBuffer> = typeof body === 'string' ? Buffer.from(body) : new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
  const etag = `"${bytes.length.toString(16)}-${Bun.hash(bytes).toString(16)}"`;
  const headers = baseHeaders(type, cacheControl, etag, null, extra);
  return answer(req, bytes.length, headers, null, (s, e) => bytes.subarray(s, e + 1));
}

/** A playlist or other text answer (`serveBytes` for a string): exact length on HEAD, ETag and 304. */
export function serveText(req: Request, body: string, type: string, cacheControl: string, extra: Record<string, string> = {}): Response {
  return serveBytes(req, body, type, cacheControl, extra);
}

/**
 * Serves an object of known size and modification time read by byte range (a media store object in a bucket) like
 * `serveFile`: the same validators, 304, ranges and HEAD; `body(start, end)` streams the bytes asked for.
 */
export function serveSized(req: Request, name: string, size: number, etag: string, mtimeMs: number, cacheControl: string, extra: Record<string, string>, body: (start: number, end: number) => BodyInit): Response {
  const headers = baseHeaders(mimeOf(name), cacheControl, etag, new Date(mtimeMs).toUTCString(), extra);
  return answer(req, size, headers, mtimeMs, body);
}
