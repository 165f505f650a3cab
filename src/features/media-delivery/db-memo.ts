/**
 * A memo of values read from the database for delivery, dropped whenever the database may have changed: keyed by
 * the change generation the delivery gate read for the request (`Guarded.dbGeneration`, from this connection's
 * `total_changes()` and SQLite's `data_version`), so a value is reused only while nothing was committed since it was
 * read. Never stale; no statement of its own.
 */
export function dbMemo<T>(max = 10_000) {
  const seen = new Map<string, T>();
  let at = -1;
  return {
    /** The value under `key`, computed by `read` when missing or when `generation` differs from the stored one's. */
    get(generation: number, key: string, read: () => T): T {
      if (generation !== at || generation < 0) { seen.clear(); at = generation; }
      if (seen.has(key)) return seen.get(key)!;
      const v = read();
      if (seen.size >= max) seen.clear();
      seen.set(key, v);
      return v;
    },
  };
}
