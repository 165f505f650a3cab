/**
 * Body of the MD5 worker thread. It is serialised with `Function.prototype.toString` and started from a blob URL
 * (so `bun build --compile` needs no extra entry point): it must stay self-contained, with no imports and no
 * references to anything outside itself.
 *
 * Messages in: `{id, file, at}` starts a job hashing `file` from byte `at`; `{id, to}` hashes up to absolute
 * position `to`; `{id, to, end: true}` does the same and answers `{id, hex}`; `{id, drop: true}` forgets a job.
 * Errors answer `{id, error}`. The bytes are read back from the page cache right after the part writer wrote them.
 */
export function md5WorkerMain(): void {
  type Msg = { id: number; file?: string; at?: number; to?: number; end?: boolean; drop?: boolean };
  type Job = { fd: number; pos: number; h: Bun.CryptoHasher };
  const scope = globalThis as unknown as { onmessage: (e: MessageEvent<Msg>) => void; postMessage: (m: unknown) => void };
  const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  const buf = Buffer.allocUnsafe(1 << 20);
  const jobs = new Map<number, Job>();
  const forget = (id: number) => {
    const j = jobs.get(id);
    jobs.delete(id);
    if (j) try { fs.closeSync(j.fd); } catch { /* already closed */ }
  };
  scope.onmessage = (e) => {
    const m = e.data;
    try {
      if (m.drop) return forget(m.id);
      if (m.file !== undefined) jobs.set(m.id, { fd: fs.openSync(m.file, 'r'), pos: m.at ?? 0, h: new Bun.CryptoHasher('md5') });
      const j = jobs.get(m.id);
      if (!j || m.to === undefined) return;
      while (j.pos < m.to) {
        const n = fs.readSync(j.fd, buf, 0, Math.min(buf.byteLength, m.to - j.pos), j.pos);
        if (n <= 0) throw new Error(`short read at ${j.pos}`);
        j.h.update(buf.subarray(0, n));
        j.pos += n;
      }
      if (m.end) {
        const hex = j.h.digest('hex');
        forget(m.id);
        scope.postMessage({ id: m.id, hex });
      }
    } catch (err) {
      forget(m.id);
      scope.postMessage({ id: m.id, error: String(err) });
    }
  };
}
