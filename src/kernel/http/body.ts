import { AppError } from '../errors';

/** Reads a request body as text, refusing (413) before or as soon as it exceeds `limit` bytes. */
export async function readLimited(req: Request, limit: number): Promise<string> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) {
    // Drain (discard) the body so the connection stays in sync for the next request, then refuse.
    await drain(req);
    throw new AppError('payload_too_large', `body exceeds ${limit} bytes`);
  }
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Discard the rest so it is never parsed as the next request on a kept-alive connection.
      for (;;) { const r = await reader.read(); if (r.done) break; }
      throw new AppError('payload_too_large', `body exceeds ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON body within `limit` bytes; malformed JSON answers 400 invalid_json. */
export async function parseJsonBody(req: Request, limit: number): Promise<unknown> {
  const text = await readLimited(req, limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError('invalid_json', `request body is not valid JSON: ${(e as Error).message}`);
  }
}

/** True when a content type names JSON (application/json or any +json type). */
export function isJsonType(ct: string | null): boolean {
  if (!ct) return false;
  const base = ct.split(';')[0].trim().toLowerCase();
  return base === 'application/json' || base.endsWith('+json');
}

/** Reads and discards a request body (bounded by the server's own maximum body size). */
export async function drain(req: Request): Promise<void> {
  if (!req.body) return;
  const reader = req.body.getReader();
  for (;;) { const r = await reader.read(); if (r.done) break; }
}

const PROTO_KEY = /"(?:__proto__|constructor|prototype)"\s*:/;

/** Throws 400 when a parsed JSON value holds a `__proto__`, `constructor` or `prototype` key at any depth. */
function refuseProtoKeys(v: unknown, path: string, depth = 0): void {
  if (depth > 64 || v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) { v.forEach((x, i) => refuseProtoKeys(x, `${path}${path ? '.' : ''}${i}`, depth + 1)); return; }
  for (const k of Object.keys(v)) {
    const f = `${path}${path ? '.' : ''}${k}`;
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') {
      throw new AppError('unknown_field', `unknown field: ${f}`, { errors: [{ field: f, detail: 'reserved name' }] });
    }
    refuseProtoKeys((v as Record<string, unknown>)[k], f, depth + 1);
  }
}

/** True when a request announced a body (declared length above zero, or chunked). */
export function announcesBody(req: Request): boolean {
  const len = req.headers.get('content-length');
  return (len !== null && len !== '0') || req.headers.has('transfer-encoding');
}

/**
 * Reads the JSON body of a JSON route: no body → undefined; a body of any other content type → 415 (nothing is
 * read); malformed JSON → 400; over `limit` → 413; reserved keys (`__proto__`, `constructor`) → 400.
 */
export async function readJsonBody(req: Request, contentType: string | null, limit: number): Promise<unknown> {
  if (!announcesBody(req)) return undefined;
  if (!isJsonType(contentType)) throw new AppError('unsupported_media_type', 'this route takes application/json');
  const text = await readLimited(req, limit);
  if (text.trim() === '') return undefined;
  let value: unknown;
  try { value = JSON.parse(text); } catch (e) {
    throw new AppError('invalid_json', `request body is not valid JSON: ${(e as Error).message}`);
  }
  if (PROTO_KEY.test(text)) refuseProtoKeys(value, '');
  return value;
}
