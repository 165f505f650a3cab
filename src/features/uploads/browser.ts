/**
 * Browser part uploads: `PUT /v1/upload-parts/{n}?t=<upload_token>` with no Authorization header. CORS is
 * granted only to the origin given when the upload started; errors carry the same CORS headers so the page can
 * read them.
 */
import { AppError } from '../../kernel/errors';
import type { UploadService } from './service';

/** CORS headers for an allowed origin. */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'PUT, OPTIONS',
    'access-control-allow-headers': 'content-type',
    'access-control-expose-headers': 'etag, x-request-id',
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}

/** Answers a CORS preflight: 204 with CORS headers for the upload's own origin, else 403 without them. */
export function preflight(svc: UploadService, token: string | undefined, origin: string | null): Response {
  try {
    const u = svc.findByToken(token, origin);
    if (!origin || !u.browser_origin) throw new AppError('forbidden', 'origin not allowed');
    return new Response(null, { status: 204, headers: corsHeaders(u.browser_origin) });
  } catch {
    return new Response(null, { status: 403, headers: { vary: 'Origin' } });
  }
}

/** Stores a part sent by a browser; every answer (errors too) carries CORS headers for the upload's origin. */
export async function browserPut(svc: UploadService, token: string | undefined, origin: string | null, n: string,
  contentLength: string | null, body: ReadableStream<Uint8Array> | null, setHeaders: (h: Record<string, string>) => void) {
  const u = svc.findByToken(token, origin);
  const cors = origin && u.browser_origin ? corsHeaders(u.browser_origin) : {};
  try {
    const r = await svc.putPart(u, n, contentLength, body);
    setHeaders({ ...cors, etag: `"${r.etag}"` });
    return r;
  } catch (e) {
    if (e instanceof AppError) throw new AppError(e.code, e.detail, { ...e.extra, headers: { ...e.extra.headers, ...cors } });
    throw e;
  }
}
