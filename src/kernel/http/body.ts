import { AppError } from '../errors';

/** How long a request body may take: `baseS` seconds plus one second per `minRate` bytes received (config `bodyDeadline`). */
export interface BodyDeadline { baseS: number; minRate: number }

let deadline: BodyDeadline = { baseS: 10, minRate: 16 * 1024 };

/** Sets the body deadline this process's body reads use (from the config, at start). */
export function setBodyDeadline(d: BodyDeadline): void { deadline = d; }

/** The 408 of a body that arrived too slowly; the connection is closed after the answer (the rest is never read). */
export function bodyTimeout(): AppError {
  return new AppError('request_timeout', 'the request body did not arrive in time', { headers: { connection: 'close' } });
}

/** Milliseconds a body may take in all once `bytes` of it arrived. */
export function allowedMs(d: BodyDeadline, bytes: number): number {
  return d.baseS * 1000 + (bytes / d.minRate) * 1000;
}

/** `p`, or a 408 (`bodyTimeout`) once `ms` passed first; `p` is never left rejected unhandled. */
export function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => { p.catch(() => {}); reject(bodyTimeout()); }, Math.max(0, ms));
    p.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
  });
}

/**
 * Reads a body stream's chunks until its end or until more than `limit` bytes arrived (then `over` is true and the
 * rest is left unread), under the body deadline counted from `startedAt`: too slow → 408 (`bodyTimeout`, reader
 * cancelled).
 */
export async function readChunks(body: ReadableStream<Uint8Array>, limit: number, d: BodyDeadline = deadline, startedAt = performance.now()): Promise<{ chunks: Uint8Array[]; size: number; over: boolean; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const r = await readWithin(reader, d, size, startedAt);
    if (r.done) return { chunks, size, over: false, reader };
    chunks.push(r.value);
    size += r.value.byteLength;
    if (size > limit) return { chunks, size, over: true, reader };
  }
}

/**
 * Reads a request body as text, refusing (413) before or as soon as it exceeds `limit` bytes, and (408) when it
 * arrives slower than the body deadline allows (`setBodyDeadline`).
 */
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
  if (declared !== null && /^\d{1,10}$/.test(declared)) return declared === '0' ? '' : within(req.text(), allowedMs(deadline, Number(declared)));
  if (!req.body) return '';
  // Chunked bodies are counted as they arrive.
  const got = await readChunks(req.body, limit);
  if (got.over) {
    // Discard the rest so it is never parsed as the next request on a kept-alive connection.
    await discard(got.reader, got.size, deadline, performance.now());
    throw new AppError('payload_too_large', `body exceeds ${limit} bytes`);
  }
  return Buffer.concat(got.chunks).toString('utf8');
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

/** Reads and discards the rest of a body under the body deadline (408 when too slow); `size` bytes already arrived. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, size: number, d: BodyDeadline, startedAt: number): Promise<void> {
  for (;;) {
    const r = await readWithin(reader, d, size, startedAt);
    if (r.done) return;
    size += r.value.byteLength;
  }
}

/** Reads and discards a request body (bounded by the server's own maximum body size and by the body deadline). */
export async function drain(req: Request): Promise<void> {
  if (!req.body) return;
  await discard(req.body.getReader(), 0, deadline, performance.now());
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

/** One read of a body under the deadline (`size` bytes already arrived since `startedAt`); too slow cancels the reader and throws (408). */
async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, d: BodyDeadline, size: number, startedAt: number): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>> {
  try {
    return await within(reader.read(), startedAt + allowedMs(d, size) - performance.now());
  } catch (e) {
    void reader.cancel().catch(() => {});
    throw e;
  }
}
