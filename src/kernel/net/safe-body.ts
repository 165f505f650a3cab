import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors';

/** A response whose body is bounded by `maxBytes` and by the deadline. */
export interface SafeResponse {
  status: number;
  headers: Headers;
  /** Final URL after redirects. */
  url: string;
  body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
  bytes(): Promise<Uint8Array>;
}

/** Most bytes read after a cancelled body to keep its connection, and the longest wait for them. */
const DRAIN_MAX_BYTES = 64 * 1024, DRAIN_MAX_MS = 2_000;

/**
 * After a caller cancels a body: reads what is left of a small answer, so its kept-alive connection can serve the
 * next request (Bun 1.4's node:http, like Node's, closes the connection of a response destroyed before its end);
 * a rest larger than DRAIN_MAX_BYTES or slower than DRAIN_MAX_MS closes the connection instead.
 */
async function drain(it: AsyncIterator<unknown>, res: IncomingMessage): Promise<void> {
  let left = DRAIN_MAX_BYTES;
  const timer = setTimeout(() => res.destroy(), DRAIN_MAX_MS);
  timer.unref?.();
  try {
    for (;;) {
      const { done, value } = await it.next();
      if (done) return;
      left -= (value as Buffer).byteLength;
      if (left < 0) { res.destroy(); return; }
    }
  } catch {
    res.destroy();
  } finally {
    clearTimeout(timer);
  }
}

/** Wraps a node response as a SafeResponse whose stream stops (with an error) past `maxBytes`. */
export function responseBody(res: IncomingMessage, url: string, maxBytes: number, head: boolean, done: () => void,
  tooLarge: () => AppError, signal: AbortSignal): SafeResponse {
  const onAbort = () => res.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  signal.addEventListener('abort', onAbort, { once: true });
  const finish = () => { signal.removeEventListener('abort', onAbort); done(); };
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else if (v !== undefined) headers.set(k, v);
  }
  let stream: ReadableStream<Uint8Array> | null = null;
  if (!head && res.statusCode !== 204 && res.statusCode !== 304) {
    const it = res[Symbol.asyncIterator]();
    let seen = 0;
    stream = new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        try {
          const { done: end, value } = await it.next();
          if (end) { finish(); ctrl.close(); return; }
          const chunk = value as Buffer;
          seen += chunk.byteLength;
          if (seen > maxBytes) throw tooLarge();
          ctrl.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        } catch (e) {
          finish();
          res.destroy();
          const reason = signal.aborted && signal.reason instanceof AppError ? signal.reason : e;
          ctrl.error(reason instanceof AppError ? reason : new AppError('not_ready', `reading the remote body failed: ${(reason as Error)?.message ?? reason}`));
        }
      },
      cancel() { finish(); void drain(it, res); },
    }, { highWaterMark: 0 });
  } else {
    res.resume();
    finish();
  }
  const bytes = async (): Promise<Uint8Array> => {
    if (!stream) return new Uint8Array(0);
    const parts: Uint8Array[] = [];
    const reader = stream.getReader();
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      parts.push(value);
    }
    return new Uint8Array(Buffer.concat(parts));
  };
  return {
    status: res.statusCode ?? 0, headers, url, body: stream,
    bytes,
    text: async () => new TextDecoder().decode(await bytes()),
  };
}
