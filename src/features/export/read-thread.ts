/**
 * The export thread: everything a statistics batch costs after DuckDB wrote it happens here, off the event loop.
 * - `read(path)`: reads the file DuckDB's COPY wrote (Bun reads regular files on the calling thread: ~3 ms a
 *   megabyte into a fresh buffer, a 10,000-event batch is ~4.5 MB), counts the lines, checks no line was quoted, removes
 *   the file and hands the bytes back transferred (no copy): for the sinks that need the events in hand.
 * - `send(...)`: the whole HTTPS delivery of a batch — the file read into a reused buffer (no fresh pages per batch),
 *   lines counted, optionally gzip (level 1), HMAC-SHA256 over `timestamp.` + the bytes as sent, and the POST to the
 *   address the main thread already resolved and checked; only the status comes back. A platform batch (NDJSON built
 *   on the main thread) comes as transferred bytes instead of a path and takes the same way.
 * The main thread keeps the positions, the batch rows and the address checks; it sends and receives one message per
 * batch. The thread body is serialised with `Function.prototype.toString` and started from a blob URL (as the WAL
 * checkpointer), so it stays self-contained (no imports) and works in the compiled binary.
 */

/** One HTTPS delivery the thread makes (see `ExportThread.send`). */
export interface ThreadSend {
  /** The COPY file to send (removed after), or the NDJSON bytes themselves (transferred). */
  path?: string; body?: ArrayBuffer;
  /** The URL with the checked IP address in place of the host name; `serverName`: the TLS name to verify (https). */
  target: string; serverName: string | null;
  /** Request headers (host, batch id, user agent...); the thread adds type, encoding, count, timestamp and signature. */
  headers: Record<string, string>;
  secret: string; timestamp: number; gzip: boolean; timeoutMs: number;
  /** A declared answer body up to this size is read (the connection stays reusable); a larger one is dropped. */
  maxBytes: number;
}

/** What the thread answers for a delivery: the receiver's status, or why there was none (`timeout`: no answer in time). */
export interface SendResult { count: number; bytes: number; status?: number; error?: string; timeout?: boolean }

/** Body of the export thread (self-contained: no imports, nothing from outside). */
export function readThreadMain(): void {
  type Send = { target: string; serverName: string | null; headers: Record<string, string>; secret: string; timestamp: number; gzip: boolean; timeoutMs: number; maxBytes: number };
  type Msg = { id: number; op: 'read'; path: string } | ({ id: number; op: 'send'; path?: string; body?: ArrayBuffer } & Send);
  const scope = globalThis as unknown as { onmessage: (e: MessageEvent<Msg>) => void; postMessage: (m: unknown, transfer?: ArrayBuffer[]) => void };
  const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  const crypto = process.getBuiltinModule('node:crypto') as typeof import('node:crypto');
  // Reused read buffers (one per delivery in flight; a batch file is read into pages already mapped).
  const free: Buffer[] = [];
  const take = (n: number): Buffer => {
    const i = free.findIndex((b) => b.length >= n);
    return i >= 0 ? free.splice(i, 1)[0]! : Buffer.allocUnsafeSlow(Math.max(1 << 20, Math.ceil(n * 1.25)));
  };
  const give = (b: Buffer) => { if (free.length < 4) free.push(b); };
  /** Reads a whole file into `take`n memory and removes it; `buf` is to be given back. */
  const readInto = (path: string): { buf: Buffer; view: Buffer } => {
    const fd = fs.openSync(path, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const buf = take(size);
      let off = 0;
      while (off < size) { const n = fs.readSync(fd, buf, off, size - off, off); if (n <= 0) break; off += n; }
      return { buf, view: buf.subarray(0, off) };
    } finally { fs.closeSync(fd); fs.rmSync(path, { force: true }); }
  };
  /** Lines (`\n`) in a body, and whether any line starts with the CSV quote (\x01): never expected, refused. */
  const lines = (b: Uint8Array): { count: number; quoted: boolean } => {
    let count = 0, quoted = b.length > 0 && b[0] === 1;
    for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) { count++; if (b[i + 1] === 1) quoted = true; }
    return { count, quoted };
  };
  const send = async (m: Send & { path?: string; body?: ArrayBuffer }) => {
    let held: Buffer | null = null;
    try {
      let raw: Uint8Array;
      if (m.path !== undefined) { const r = readInto(m.path); held = r.buf; raw = r.view; } else raw = new Uint8Array(m.body!);
      const { count, quoted } = lines(raw);
      if (quoted) return { count, bytes: 0, error: 'statistics export: a line was quoted by the CSV writer' };
      if (!count) return { count: 0, bytes: 0 };
      // Level 1: ~1 us an event, NDJSON shrinks ~6x; the reused buffer is free again once compressed.
      let body: Uint8Array = raw;
      if (m.gzip) { body = Bun.gzipSync(raw as Uint8Array<ArrayBuffer>, { level: 1 }); if (held) { give(held); held = null; } }
      const mac = crypto.createHmac('sha256', m.secret);
      mac.update(`${m.timestamp}.`);
      mac.update(body);
      const headers: Record<string, string> = {
        ...m.headers, 'content-type': 'application/x-ndjson', 'x-vs-events': String(count), 'x-vs-timestamp': String(m.timestamp),
        'x-vs-signature': `sha256=${mac.digest('hex')}`,
      };
      if (m.gzip) headers['content-encoding'] = 'gzip';
      const init: RequestInit & { tls?: { serverName: string }; decompress?: boolean } = {
        method: 'POST', headers, body: body as BodyInit, redirect: 'manual', decompress: false, signal: AbortSignal.timeout(m.timeoutMs),
      };
      if (m.serverName) init.tls = { serverName: m.serverName };
      let res: Response;
      try { res = await fetch(m.target, init); } catch (e) {
        const err = e as Error & { code?: string };
        if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return { count, bytes: body.byteLength, timeout: true };
        return { count, bytes: body.byteLength, error: String(err?.code ?? err?.name ?? 'error') };
      }
      const status = res.status;
      if (status !== 204 && status !== 304) {
        const declared = Number(res.headers.get('content-length') ?? NaN);
        if (Number.isFinite(declared) && declared <= m.maxBytes) await res.arrayBuffer().catch(() => {});
        else await res.body?.cancel().catch(() => {});
      }
      return { count, bytes: body.byteLength, status };
    } finally { if (held) give(held); }
  };
  scope.onmessage = (e) => {
    const m = e.data;
    if (m.op === 'send') {
      send(m).then((r) => scope.postMessage({ id: m.id, ...r }), (err) => scope.postMessage({ id: m.id, failed: String((err as Error)?.message ?? err) }));
      return;
    }
    try {
      // An exact-size buffer of its own: it is transferred to the main thread.
      const buf = fs.readFileSync(m.path);
      fs.rmSync(m.path, { force: true });
      const { count, quoted } = lines(buf);
      const own = buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength ? buf.buffer as ArrayBuffer : buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
      scope.postMessage({ id: m.id, body: own, count, quoted }, [own]);
    } catch (err) {
      try { fs.rmSync(m.path, { force: true }); } catch { /* gone */ }
      scope.postMessage({ id: m.id, failed: String((err as Error)?.message ?? err) });
    }
  };
}

/** What the thread answers for one file read. */
export interface ReadResult { body: Uint8Array; count: number; quoted: boolean }

/** The export thread: `read(path)` reads, counts and removes a file; `send(...)` makes one HTTPS delivery. */
export interface FileReader { read(path: string): Promise<ReadResult>; send(s: ThreadSend): Promise<SendResult>; stop(): void }

/** Starts the export thread (unref'd: it never keeps the process alive). */
export function startFileReader(): FileReader {
  const url = URL.createObjectURL(new Blob([`(${readThreadMain.toString()})()`], { type: 'application/javascript' }));
  const w = new Worker(url);
  (w as Worker & { unref(): void }).unref();
  let next = 0;
  const waiting = new Map<number, { resolve: (r: never) => void; reject: (e: Error) => void }>();
  w.onmessage = (e: MessageEvent<{ id: number; failed?: string } & Partial<ReadResult & SendResult> & { body?: ArrayBuffer }>) => {
    const m = e.data, p = waiting.get(m.id);
    if (!p) return;
    waiting.delete(m.id);
    if (m.failed !== undefined) p.reject(new Error(m.failed));
    else if (m.body !== undefined) p.resolve({ body: new Uint8Array(m.body), count: m.count!, quoted: m.quoted! } as never);
    else p.resolve({ count: m.count!, bytes: m.bytes!, status: m.status, error: m.error, timeout: m.timeout } as never);
  };
  const fail = (why: string) => { for (const p of waiting.values()) p.reject(new Error(why)); waiting.clear(); };
  w.onerror = (e) => fail(`export thread failed: ${e.message}`);
  const call = <T>(msg: Record<string, unknown>, transfer: ArrayBuffer[] = []) => {
    const id = ++next;
    return new Promise<T>((resolve, reject) => { waiting.set(id, { resolve: resolve as (r: never) => void, reject }); w.postMessage({ id, ...msg }, transfer); });
  };
  return {
    read: (path) => call<ReadResult>({ op: 'read', path }),
    send: (s) => call<SendResult>({ op: 'send', ...s }, s.body ? [s.body] : []),
    stop() { fail('export thread stopped'); w.terminate(); URL.revokeObjectURL(url); },
  };
}
