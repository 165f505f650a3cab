import { AppError } from '../errors';

/** Reads a request body as text, refusing (413) before or as soon as it exceeds `limit` bytes. */
export async function readLimited(req: Request, limit: number): Promise<string> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) {
    // Drain (discard) the body so the connection stays in sync for the next request, then refuse.
    await drain(req);
    throw new AppError('payload_too_large', `body exceeds ${limit} bytes`);
  }
  // A declared length within the limit is read in one piece: the server never hands over more than it declares, and
  // the chunk loop below cost ~18 % of a small MCP call. `req.body` is not touched on this path: asking for it builds
  // a ReadableStream (and its queue) that req.text() then has to drain — most of a small body's read cost.
  if (declared !== null && /^\d{1,10}$/.test(declared)) return declared === '0' ? '' : req.text();
  if (!req.body) return '';
  // Chunked bodies are counted as they arrive.
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

/** Shape limits of any JSON body: no real request comes near them, hostile ones are refused in one pass. */
export const JSON_LIMITS = { depth: 32, nodes: 20_000 } as const;

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * One iterative pass over a parsed body before schema validation: the top level must be an object, nesting at most
 * 32 deep, at most 20,000 values in all, and no `__proto__`/`constructor`/`prototype` key anywhere. Keeps the cost
 * of a hostile 1 MB body to milliseconds (validators and error reports walk every value otherwise).
 */
export function checkJsonShape(value: unknown): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AppError('validation_error', '(body): must be a JSON object', { errors: [{ field: '(body)', detail: 'must be a JSON object' }] });
  }
  const stack: [unknown, number, string][] = [[value, 1, '']];
  let nodes = 0;
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    if (++nodes > JSON_LIMITS.nodes) throw new AppError('bad_request', `request body has more than ${JSON_LIMITS.nodes} values`);
    if (v === null || typeof v !== 'object') continue;
    if (depth > JSON_LIMITS.depth) throw new AppError('bad_request', `request body is nested deeper than ${JSON_LIMITS.depth} levels`);
    if (Array.isArray(v)) {
      if (nodes + v.length > JSON_LIMITS.nodes) throw new AppError('bad_request', `request body has more than ${JSON_LIMITS.nodes} values`);
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], depth + 1, path]);
      continue;
    }
    const keys = Object.keys(v);
    if (nodes + keys.length > JSON_LIMITS.nodes) throw new AppError('bad_request', `request body has more than ${JSON_LIMITS.nodes} values`);
    for (const k of keys) {
      const f = path ? `${path}.${k}` : k;
      if (RESERVED.has(k)) throw new AppError('unknown_field', `unknown field: ${f}`, { errors: [{ field: f, detail: 'reserved name' }] });
      stack.push([(v as Record<string, unknown>)[k], depth + 1, f]);
    }
  }
}

/** True when a request announced a body (declared length above zero, or chunked). */
export function announcesBody(req: Request): boolean {
  const len = req.headers.get('content-length');
  return (len !== null && len !== '0') || req.headers.has('transfer-encoding');
}

/**
 * Reads the JSON body of a JSON route: no body → undefined; a body of any other content type → 415 (nothing is
 * read); malformed JSON → 400; over `limit` → 413; then `checkJsonShape` (object at the top, bounded depth and size,
 * no reserved keys).
 */
export async function readJsonBody(req: Request, contentType: string | null, limit: number): Promise<unknown> {
  if (!announcesBody(req)) return undefined;
  if (!isJsonType(contentType)) throw new AppError('unsupported_media_type', 'this route takes application/json');
  const text = await readLimited(req, limit);
  if (text.trim() === '') return undefined;
  let value: unknown;
  try { value = JSON.parse(text); } catch (e) {
    throw new AppError('invalid_json', `request body is not valid JSON: ${(e as Error).message.slice(0, 200)}`);
  }
  checkJsonShape(value);
  return value;
}
