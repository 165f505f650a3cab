/**
 * A thread that reads the files DuckDB's COPY writes for statistics batches: the read (Bun reads regular files on
 * the calling thread: ~3 ms a megabyte, a 10,000-event batch is ~4.5 MB, far more on a busy disk), the line count
 * and the check that no line was quoted all happen here; the bytes come back transferred (no copy). The thread body
 * is serialised with `Function.prototype.toString` and started from a blob URL (as the WAL checkpointer), so it
 * stays self-contained.
 */

/** Body of the reader thread (self-contained: no imports, nothing from outside). */
export function readThreadMain(): void {
  type Msg = { id: number; path: string };
  const scope = globalThis as unknown as { onmessage: (e: MessageEvent<Msg>) => void; postMessage: (m: unknown, transfer?: ArrayBuffer[]) => void };
  const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  scope.onmessage = (e) => {
    const { id, path } = e.data;
    try {
      const buf = fs.readFileSync(path);
      fs.rmSync(path, { force: true });
      let count = 0, quoted = buf.length > 0 && buf[0] === 1;
      for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) { count++; if (buf[i + 1] === 1) quoted = true; }
      // A Buffer may sit in a shared pool: copy into an ArrayBuffer of its own only then.
      const own = buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength ? buf.buffer as ArrayBuffer : buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
      scope.postMessage({ id, body: own, count, quoted }, [own]);
    } catch (err) {
      try { fs.rmSync(path, { force: true }); } catch { /* gone */ }
      scope.postMessage({ id, error: String((err as Error)?.message ?? err) });
    }
  };
}

/** What the reader thread answers for one file. */
export interface ReadResult { body: Uint8Array; count: number; quoted: boolean }

/** A reader thread: `read(path)` reads, counts and removes the file. */
export interface FileReader { read(path: string): Promise<ReadResult>; stop(): void }

/** Starts a reader thread (unref'd: it never keeps the process alive). */
export function startFileReader(): FileReader {
  const url = URL.createObjectURL(new Blob([`(${readThreadMain.toString()})()`], { type: 'application/javascript' }));
  const w = new Worker(url);
  (w as Worker & { unref(): void }).unref();
  let next = 0;
  const waiting = new Map<number, { resolve: (r: ReadResult) => void; reject: (e: Error) => void }>();
  w.onmessage = (e: MessageEvent<{ id: number; body?: ArrayBuffer; count?: number; quoted?: boolean; error?: string }>) => {
    const m = e.data, p = waiting.get(m.id);
    if (!p) return;
    waiting.delete(m.id);
    if (m.error !== undefined) p.reject(new Error(m.error));
    else p.resolve({ body: new Uint8Array(m.body!), count: m.count!, quoted: m.quoted! });
  };
  const fail = (why: string) => { for (const p of waiting.values()) p.reject(new Error(why)); waiting.clear(); };
  w.onerror = (e) => fail(`export reader thread failed: ${e.message}`);
  return {
    read(path) {
      const id = ++next;
      return new Promise<ReadResult>((resolve, reject) => { waiting.set(id, { resolve, reject }); w.postMessage({ id, path }); });
    },
    stop() { fail('export reader stopped'); w.terminate(); URL.revokeObjectURL(url); },
  };
}
