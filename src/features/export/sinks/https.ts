/**
 * HTTPS sink: each batch is one POST of NDJSON, signed like webhook deliveries — `X-VS-Timestamp` and
 * `X-VS-Signature: sha256=<hex HMAC-SHA256 over "timestamp." + the request body as sent>` with the destination's secret
 * (shown once at creation) — with `X-VS-Batch`, the batch id, stable across retries so a receiver can drop a repeat,
 * and `X-VS-Events`, the line count. With `gzip` set on the destination the body is gzip (`Content-Encoding: gzip`) and
 * the signature covers the compressed bytes: a receiver checks it before inflating anything (no decompression of
 * unauthenticated data), with the same code as an uncompressed one over the raw request body.
 * The address is checked here on the main thread (shape, resolve, every address against the private table unless
 * allowlisted; no redirects: a 3xx is a failure) and the rest — read, compress, sign, send — happens in the export
 * thread (read-thread.ts), which connects to exactly the checked address. Only a 2xx acknowledges.
 */
import { BlockedAddressError, allowCidrs, raceAbort, resolveChecked } from '../../../kernel/net/safe-fetch';
import { sendTarget, type SendTarget } from '../../../kernel/net/safe-send';
import type { FileReader, ThreadSend } from '../read-thread';
import { SinkError, type Sink } from './types';

/** How long a receiver has to answer one batch. */
export const HTTPS_TIMEOUT_MS = 15_000;

/** Settings of an HTTPS sink. */
export interface HttpsSettings { url: string; secret: string; gzip: boolean; allowlist: string[]; now: () => number; thread: () => FileReader }

/** Pure: the delivery the thread makes to a checked address (`to`) for a prepared target. */
export function threadSend(t: SendTarget, to: { address: string; family: 4 | 6 }, o: { batchId: string; secret: string; timestamp: number; gzip: boolean }): ThreadSend {
  const u = t.url;
  const addr = to.family === 6 ? `[${to.address}]` : to.address;
  const headers: Record<string, string> = { 'user-agent': 'ViewStream-Export/1', 'accept-encoding': 'identity', host: u.host, 'x-vs-batch': o.batchId };
  if (t.authorization) headers.authorization = t.authorization;
  return {
    target: `${u.protocol}//${addr}${u.port ? `:${u.port}` : ''}${u.pathname}${u.search}`,
    // TLS: SNI and certificate verification use the host name; an IP-literal URL verifies against that IP.
    serverName: u.protocol === 'https:' && !t.literal ? u.hostname.replace(/^\[|\]$/g, '') : null,
    headers, secret: o.secret, timestamp: o.timestamp, gzip: o.gzip, timeoutMs: HTTPS_TIMEOUT_MS, maxBytes: 64 * 1024,
  };
}

/** An HTTPS sink for one destination. */
export function httpsSink(o: HttpsSettings): Sink {
  let target: SendTarget | null = null;
  /** Checks the address (every attempt: a host name may resolve elsewhere now) and lets the thread deliver. */
  const deliver = async (batchId: string, what: { path: string } | { body: ArrayBuffer }, signal: AbortSignal): Promise<{ count: number; bytes: number }> => {
    let s: ThreadSend;
    try {
      target ??= sendTarget(o.url, allowCidrs(o.allowlist));
      const to = target.literal ?? await raceAbort(resolveChecked(target.url.hostname, target.allow), signal);
      s = { ...threadSend(target, to, { batchId, secret: o.secret, timestamp: Math.floor(o.now() / 1000), gzip: o.gzip }), ...what };
    } catch (e) {
      if ('path' in what) await Bun.file(what.path).delete().catch(() => {});
      if (e instanceof BlockedAddressError) throw new SinkError(`refused: ${e.detail}`);
      throw new SinkError(String((e as Error)?.message ?? e).slice(0, 300));
    }
    const r = await o.thread().send(s);
    const sent = { count: r.count, bytes: r.bytes };
    if (r.timeout) throw new SinkError(`no answer within ${HTTPS_TIMEOUT_MS} ms`, sent);
    if (r.error !== undefined) throw new SinkError(r.error.startsWith('statistics export') ? r.error : `could not fetch from ${target.url.host}: ${r.error}`, sent);
    if (r.status === undefined) return sent; // nothing to send (no line)
    if (r.status < 200 || r.status >= 300) throw new SinkError(r.status >= 300 && r.status < 400 ? `redirect ${r.status} not followed` : `HTTP ${r.status}`, sent);
    return sent;
  };
  return {
    async send(b, signal) {
      // The bytes go to the thread (a copy: the caller's array stays whole for a retry within this attempt's caller).
      const body = b.body.slice().buffer as ArrayBuffer;
      return { bytes: (await deliver(b.id, { body }, signal)).bytes };
    },
    sendFile: (f, signal) => deliver(f.id, { path: f.path }, signal),
    async close() {},
  };
}
