import type { Db } from '../../kernel/db/sqlite';

/**
 * A memo of values read from the database, dropped whenever the database may have changed: this connection's
 * `total_changes()` (its own writes) or SQLite's `data_version` (another connection's commits) moved since the last
 * call. One cheap statement per lookup (no table read) instead of the reads it saves; never stale.
 */
export function dbMemo<T>(db: Db, max = 10_000) {
  const version = db.prepare<[number, number], []>('SELECT total_changes(), data_version FROM pragma_data_version');
  const seen = new Map<string, T>();
  let changes = -1, dataVersion = -1;
  return {
    /** The value under `key`, computed by `read` when missing or when the database changed since it was stored. */
    get(key: string, read: () => T): T {
      const [c, d] = version.values()[0] as unknown as [number, number];
      if (c !== changes || d !== dataVersion) { seen.clear(); changes = c; dataVersion = d; }
      if (seen.has(key)) return seen.get(key)!;
      const v = read();
      if (seen.size >= max) seen.clear();
      seen.set(key, v);
      return v;
    },
  };
}
