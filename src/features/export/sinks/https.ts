/**
 * HTTPS sink: each batch is one POST of NDJSON, signed like webhook deliveries — `X-VS-Timestamp` and
 * `X-VS-Signature: sha256=<hex HMAC-SHA256 over "timestamp.body">` with the destination's secret (shown once at
 * creation) — and `X-VS-Batch`, the batch id, stable across retries so a receiver can drop a repeat. Sent through the
 * safe sender (address checks on every attempt, no redirects: a 3xx is a failure); only a 2xx acknowledges.
 */
import { createHmac } from 'node:crypto';
import { BlockedAddressError, FetchTimeoutError } from '../../../kernel/net/safe-fetch';
import { safeSend } from '../../../kernel/net/safe-send';
import { SinkError, type Sink } from './types';

/** How long a receiver has to answer one batch. */
export const HTTPS_TIMEOUT_MS = 15_000;

/** Bytes hashed between turns of the event loop (~2 ms of HMAC-SHA256 on a loaded box). */
const SIGN_SLICE = 1 << 20;

/**
 * `sha256=` + hex HMAC-SHA256 over `timestamp.body`, the webhook signature (kernel signPayload), computed a slice at a
 * time with a turn of the event loop between slices: a 10,000-event batch is ~4.5 MB, ~10-20 ms in one stretch.
 */
export async function signSliced(secret: string, timestamp: number, body: Uint8Array): Promise<string> {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  for (let i = 0; i < body.length; i += SIGN_SLICE) {
    if (i) await new Promise((r) => setImmediate(r));
    mac.update(body.subarray(i, i + SIGN_SLICE));
  }
  return `sha256=${mac.digest('hex')}`;
}

/** An HTTPS sink for one destination. */
export function httpsSink(o: { url: string; secret: string; allowlist: string[]; now: () => number }): Sink {
  return {
    async send(b, signal) {
      const ts = Math.floor(o.now() / 1000);
      const body = b.body;
      const headers = {
        'content-type': 'application/x-ndjson', 'user-agent': 'ViewStream-Export/1', 'x-vs-batch': b.id, 'x-vs-events': String(b.count),
        'x-vs-timestamp': String(ts), 'x-vs-signature': await signSliced(o.secret, ts, body),
      };
      let status: number;
      try {
        status = (await safeSend(o.url, { method: 'POST', headers, body, timeoutMs: HTTPS_TIMEOUT_MS, maxBytes: 64 * 1024, allowlist: o.allowlist, signal })).status;
      } catch (e) {
        if (e instanceof BlockedAddressError) throw new SinkError(`refused: ${e.detail}`);
        if (e instanceof FetchTimeoutError) throw new SinkError(`no answer within ${HTTPS_TIMEOUT_MS} ms`);
        throw new SinkError(String((e as Error)?.message ?? e).slice(0, 300));
      }
      if (status < 200 || status >= 300) throw new SinkError(status >= 300 && status < 400 ? `redirect ${status} not followed` : `HTTP ${status}`);
      return { bytes: body.byteLength };
    },
    async close() {},
  };
}
