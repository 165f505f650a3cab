/**
 * Body of the WAL checkpoint thread. It is serialised with `Function.prototype.toString` and started from a blob URL
 * (so `bun build --compile` needs no extra entry point): it must stay self-contained, with no imports and no
 * references to anything outside itself.
 *
 * Messages in: `{path}` opens its own connection to the database file; `{run: true}` runs one PASSIVE checkpoint
 * (copies committed WAL frames into the database file and fsyncs it, never waits for or blocks readers and writers)
 * and answers `{done: true, busy, log, copied}` or `{done: true, error}`; `{close: true}` closes the connection.
 */
export function checkpointWorkerMain(): void {
  type Msg = { path?: string; run?: boolean; close?: boolean };
  const scope = globalThis as unknown as { onmessage: (e: MessageEvent<Msg>) => void; postMessage: (m: unknown) => void };
  const { Database } = process.getBuiltinModule('bun:sqlite' as 'node:fs') as unknown as typeof import('bun:sqlite');
  let db: InstanceType<typeof Database> | null = null;
  scope.onmessage = (e) => {
    const m = e.data;
    try {
      if (m.path !== undefined) {
        db = new Database(m.path, { readwrite: true, create: false });
        // FULL: the checkpoint fsyncs the WAL before copying and the database file after, as the main connection's would.
        db.exec('PRAGMA synchronous = FULL');
        db.exec('PRAGMA busy_timeout = 0');
      }
      if (m.run && db) {
        const r = db.query('PRAGMA wal_checkpoint(PASSIVE)').get() as { busy: number; log: number; checkpointed: number } | null;
        scope.postMessage({ done: true, busy: r?.busy ?? 0, log: r?.log ?? 0, copied: r?.checkpointed ?? 0 });
      }
      if (m.close && db) { db.close(); db = null; }
    } catch (err) {
      scope.postMessage({ done: true, error: String((err as Error)?.message ?? err) });
    }
  };
}
