import type { Db } from './sqlite';

/** A cheap "has anything been committed?" check of one WAL database, shared by every connection to it. */
export interface WalProbe {
  /** True when some connection (any process) committed since the previous call; the first call answers true. */
  changed(): boolean;
}

/** Bytes of the first WAL-index header copy and the 32-bit words read from it (see `walProbe`). */
const HEADER_BYTES = 48;
const WORDS = [2, 4, 8, 9] as const; // iChange, mxFrame, aSalt[0], aSalt[1]

/**
 * Watches a WAL database's shared-memory index (`<db>-shm`, mapped shared) instead of asking SQLite on every request.
 * The first 48 bytes of that file are the WAL-index header (https://sqlite.org/walformat.html §2.1): `iChange` is
 * incremented with every transaction, `mxFrame` is the last committed frame, and the two salts change whenever the
 * WAL restarts, so a commit by any connection changes at least one of those words before the committer's call
 * returns. Reading four words costs ~15 ns where `SELECT data_version` costs 5-17 µs (a read transaction with its
 * shared-memory locks). A torn read only answers "changed" once too often. Null when the database has no shared
 * index to map (in memory, not WAL, exclusive locking): the caller then asks SQLite.
 *
 * The mapping stays valid while this connection is open: SQLite truncates or removes the index only when the last
 * connection to the database closes or the first one opens, and this connection counts.
 */
export function walProbe(db: Db): WalProbe | null {
  const file = db.filename;
  if (!file || file === ':memory:') return null;
  try {
    const mode = db.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get()?.journal_mode;
    const locking = db.query<{ locking_mode: string }, []>('PRAGMA locking_mode').get()?.locking_mode;
    if (mode !== 'wal' || locking !== 'normal') return null;
    db.query('SELECT 1 FROM sqlite_master LIMIT 1').get(); // a read makes SQLite create and map the index
    const map = Bun.mmap(`${file}-shm`, { shared: true });
    if (map.byteLength < HEADER_BYTES) return null;
    const words = new Uint32Array(map.buffer, map.byteOffset, HEADER_BYTES / 4);
    const last = new Uint32Array(WORDS.length);
    let first = true;
    return {
      changed(): boolean {
        let moved = first;
        first = false;
        for (let i = 0; i < WORDS.length; i++) {
          const w = words[WORDS[i]];
          if (w !== last[i]) { last[i] = w; moved = true; }
        }
        return moved;
      },
    };
  } catch {
    return null;
  }
}
