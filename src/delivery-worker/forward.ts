import { clientIp } from '../kernel/http/server';
import { requestId } from '../kernel/http/request-id';
import { AppError, problemResponse } from '../kernel/errors';
import { requestTarget, splitUrl } from '../kernel/http/url';
import { allowedMs, bodyTimeout, readChunks, within, type BodyDeadline } from '../kernel/http/body';

/** Header that carries the viewer address from a delivery worker to the main process (Unix socket only). */
export const PEER_HEADER = 'x-vs-peer';
/** Header a worker's own app sets on an answer it must not give (the request goes to the main process instead). */
export const ELSEWHERE_HEADER = 'x-vs-elsewhere';

// Hop-by-hop headers (RFC 9110 §7.6.1) never travel to the next hop.
const HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection', PEER_HEADER];

/**
 * The lanes of a worker's connections to the main process. Bun's fetch sends at most BUN_CONFIG_MAX_HTTP_REQUESTS
 * requests at once (256 unless set) and queues the rest, so long-lived requests must never take the places ordinary
 * ones need: event streams and large streamed bodies each have a lane of their own (past it: 503 with Retry-After),
 * and the worker is started with a fetch cap of all lanes together (`WORKER_FETCH_CAP`), which leaves `ordinary`
 * places that only short requests use. Bodies up to `bufferMax` are read whole, under the body deadline, before any
 * place is taken: a slow body holds nothing but its own connection.
 */
export const LANES = { streams: 2048, bulk: 256, ordinary: 256, bufferMax: 1024 * 1024 } as const;
/** The fetch cap each worker is started with (BUN_CONFIG_MAX_HTTP_REQUESTS): every lane at once, nothing queued. */
export const WORKER_FETCH_CAP = LANES.streams + LANES.bulk + LANES.ordinary;
/** Seconds a request refused for a full lane is told to wait. */
const LANE_RETRY_S = 5;

/** The request of the event stream (a long-lived answer). */
const STREAM_PATH = '/v1/events/stream';

/** A worker's forwarder: the function that hands a request to the main process, and its lanes' use (tests). */
export interface Forwarder {
  (r: Request): Promise<Response>;
  /** Requests in the stream and bulk lanes now. */
  busy(): { streams: number; bulk: number };
}

/**
 * Returns the function a delivery worker uses to hand a request to the main process over its Unix socket: same
 * method, target, headers (plus the viewer address and request id) and body; the answer streams back untouched (no
 * decompression). Client disconnects abort the upstream request. Lanes as in `LANES`; a body slower than `deadline`
 * allows is answered 408 by the worker itself (the connection closed).
 */
export function forwarder(sock: string, problemsBase: string, deadline: BodyDeadline, o: { lanes?: { streams: number; bulk: number }; tag?: string } = {}): Forwarder {
  const lanes = o.lanes ?? LANES;
  // Under a tag (VS_DELIVERY_TAG): answers the worker gives itself (408, full lane, 502) carry `x-vs-served-by`, those
  // it forwards `x-vs-forwarded-by`.
  const own: Record<string, string> = o.tag ? { 'x-vs-served-by': o.tag } : {};
  // An answer the worker gives itself may leave part of the body unread: the connection closes after it.
  const ownClose = { ...own, connection: 'close' };
  let streams = 0, bulk = 0;
  const fail = (r: Request, e: unknown): Response => {
    if (e instanceof AppError) return problemResponse(e, problemsBase, requestId(r), ownClose);
    return problemResponse(new AppError('internal_error', 'the appliance did not answer this request', { status: 502 }), problemsBase, requestId(r), ownClose);
  };
  const full = (r: Request, what: string): Response =>
    problemResponse(new AppError('not_ready', `too many ${what} on this process; retry in ${LANE_RETRY_S} s`, { headers: { 'retry-after': String(LANE_RETRY_S) } }), problemsBase, requestId(r), ownClose);
  /** One upstream request; `retry`: the body is in memory, so a connection refused for a full backlog is tried again. */
  const send = async (r: Request, headers: Headers, body: BodyInit | undefined, signal: AbortSignal, retry: boolean): Promise<Response> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return via(await fetch(`http://localhost${requestTarget(r.url)}`, {
          unix: sock, method: r.method, headers, body, redirect: 'manual', decompress: false, signal, duplex: 'half',
        } as RequestInit));
      } catch (e) {
        // EAGAIN: the main socket's accept backlog was full for a moment; nothing was sent.
        if (!retry || attempt >= 4 || signal.aborted || (e as { code?: string })?.code !== 'EAGAIN') throw e;
        await Bun.sleep(10 * (attempt + 1));
      }
    }
  };
  /** Marks an answer that came from the main process through this worker (under a tag only). */
  const via = o.tag ? (res: Response): Response => { try { res.headers.set('x-vs-forwarded-by', o.tag!); } catch { /* immutable */ } return res; } : (res: Response) => res;
  const forward = (async (r: Request): Promise<Response> => {
    const startedAt = performance.now();
    const headers = new Headers(r.headers);
    for (const h of HOP) headers.delete(h);
    headers.set(PEER_HEADER, clientIp(r) ?? '');
    headers.set('x-request-id', requestId(r));
    // Without this the client library would ask for compression the viewer never asked for.
    if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'identity');
    try {
      if (r.method === 'GET' || r.method === 'HEAD') {
        if (r.method === 'GET' && splitUrl(r.url).path === STREAM_PATH) {
          if (streams >= lanes.streams) return full(r, 'event streams');
          streams++;
          return await held(() => send(r, headers, undefined, r.signal, true), () => { streams--; }, r.signal);
        }
        return await send(r, headers, undefined, r.signal, true);
      }
      if (!r.body) return await send(r, headers, undefined, r.signal, true);
      const declared = r.headers.get('content-length');
      if (declared === null || Number(declared) <= LANES.bufferMax) {
        // Read whole (under the deadline) before any place is taken.
        const got = await readChunks(r.body, LANES.bufferMax, deadline, startedAt);
        if (!got.over) {
          const body = got.chunks.length === 1 ? got.chunks[0] : Buffer.concat(got.chunks);
          headers.set('content-length', String(body.byteLength));
          return await send(r, headers, body as BodyInit, r.signal, true);
        }
        // A chunked body past bufferMax: what arrived, then the rest, in the bulk lane.
        return await streamed(r, headers, got.chunks, got.size, got.reader, startedAt);
      }
      return await streamed(r, headers, [], 0, r.body.getReader(), startedAt);
    } catch (e) {
      return fail(r, e);
    }
  }) as Forwarder;
  /** A large body streamed to the main process in the bulk lane, cut (408) when it arrives slower than the deadline. */
  const streamed = async (r: Request, headers: Headers, head: Uint8Array[], size: number, reader: ReadableStreamDefaultReader<Uint8Array>, startedAt: number): Promise<Response> => {
    if (bulk >= lanes.bulk) { void reader.cancel().catch(() => {}); return full(r, 'large uploads'); }
    bulk++;
    const stop = new AbortController();
    let late = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        const first = head.shift();
        if (first) { c.enqueue(first); return; }
        try {
          const x = await within(reader.read(), startedAt + allowedMs(deadline, size) - performance.now());
          if (x.done) { c.close(); return; }
          size += x.value.byteLength;
          c.enqueue(x.value);
        } catch (e) {
          late = e instanceof AppError && e.code === 'request_timeout';
          void reader.cancel().catch(() => {});
          c.error(e);
          stop.abort();
        }
      },
      cancel() { void reader.cancel().catch(() => {}); },
    });
    try {
      return await held(() => send(r, headers, body, AbortSignal.any([r.signal, stop.signal]), false), () => { bulk--; }, r.signal);
    } catch (e) {
      if (late) throw bodyTimeout();
      throw e;
    }
  };
  forward.busy = () => ({ streams, bulk });
  return forward;
}

/**
 * Runs `go` and calls `release` once when its answer's body ends, fails or is cancelled, when the client goes away,
 * or when `go` fails.
 */
async function held(go: () => Promise<Response>, release: () => void, signal: AbortSignal): Promise<Response> {
  let done = false;
  const once = () => { if (!done) { done = true; release(); } };
  signal.addEventListener('abort', once, { once: true });
  let res: Response;
  try { res = await go(); } catch (e) { once(); throw e; }
  if (!res.body) { once(); return res; }
  const body = res.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: once }));
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
