import { statSync } from 'node:fs';
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

/** Serves a file with ETag/304, single byte ranges (206/416) and the given Cache-Control; null when missing. */
export function serveFile(req: Request, path: string, cacheControl: string, extra: Record<string, string> = {}): Response | null {
  let st: ReturnType<typeof statSync>;
  try { st = statSync(path); } catch { return null; }
  if (!st.isFile()) return null;
  const size = st.size;
  const etag = `"${size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
  const headers: Record<string, string> = {
    'content-type': mimeOf(path), 'cache-control': cacheControl, etag, 'accept-ranges': 'bytes',
    'last-modified': new Date(st.mtimeMs).toUTCString(), 'access-control-allow-origin': '*', ...extra,
  };
  const inm = req.headers.get('if-none-match');
  if (inm && inm.split(',').map((s) => s.trim().replace(/^W\//, '')).includes(etag)) return new Response(null, { status: 304, headers });
  const ifRange = req.headers.get('if-range');
  const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.get('range'), size);
  const file = Bun.file(path);
  const head = req.method === 'HEAD';
  if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
  if (range) {
    const len = range.end - range.start + 1;
    return new Response(head ? null : file.slice(range.start, range.end + 1), {
      status: 206, headers: { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${size}`, 'content-length': String(len) },
    });
  }
  return new Response(head ? null : file, { status: 200, headers: { ...headers, 'content-length': String(size) } });
}
