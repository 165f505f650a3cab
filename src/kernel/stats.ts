import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { availableParallelism } from 'node:os';
import { preloadDuckDb } from './duckdb-loader';

type Conn = import('@duckdb/node-api').DuckDBConnection;
type Instance = import('@duckdb/node-api').DuckDBInstance;
/** A value DuckDB can bind as a parameter. */
export type StatsParam = string | number | boolean | null | bigint;

/** Rows for one table of `StatsStore.appendAll` (values in column order). */
export interface StatsAppend { table: string; rows: readonly (readonly StatsParam[])[] }

/** The statistics store (DuckDB file): beacons, edge requests, exports. */
export interface StatsStore {
  /** DuckDB library version (proves the store is usable). */
  version(): Promise<string>;
  /** Runs a statement. */
  run(sql: string, params?: StatsParam[]): Promise<void>;
  /** Runs a query and returns plain row objects. */
  all<T = Record<string, unknown>>(sql: string, params?: StatsParam[]): Promise<T[]>;
  /**
   * Appends rows (values in column order) through DuckDB's appender on a connection of its own; one flush per call.
   * With `after`, the append and those statements commit as one transaction (stage rows, then move them with SQL).
   */
  append(table: string, rows: readonly (readonly StatsParam[])[], after?: readonly { sql: string; params?: StatsParam[] }[]): Promise<void>;
  /**
   * Appends rows to several tables (in order) and runs `after`, all in one transaction (nothing half-written when one
   * fails); a single part without `after` is a plain `append`.
   */
  appendAll(parts: readonly StatsAppend[], after?: readonly { sql: string; params?: StatsParam[] }[]): Promise<void>;
  /** Runs statements in one transaction on the appender's connection (after appends queued before it). */
  transaction(statements: readonly { sql: string; params?: StatsParam[] }[]): Promise<void>;
  /**
   * How many appends and `run` statements have completed on this store (not `transaction`s, which derived work such
   * as the session pass uses): equal readings mean nothing was written in between through those two.
   */
  writes(): number;
  /**
   * Opens a one-column text query as a cursor on a connection of its own: each `next()` gives one chunk's values
   * joined, each followed by `eol` (no row objects), null at the end. The query starts at once and its first chunk is
   * read ahead, so a caller can open the next query while it still sends the current one's text. Close it when done.
   */
  openText(sql: string, params: StatsParam[], eol: string): Promise<TextCursor>;
  /**
   * Refuses new work, waits for what is running (at most 10 s), then closes the connections. Closing DuckDB under a
   * running query crashed the process (segfault) when an app stopped while its statistics tables were being created.
   */
  close(): Promise<void>;
}

/** A text cursor over one query (see `StatsStore.openText`). */
export interface TextCursor {
  /** The next chunk's text and its row count; null after the last. */
  next(): Promise<{ text: string; rows: number } | null>;
  /** Closes the query's connection (idempotent; also done after the last chunk). */
  close(): void;
}

/**
 * DuckDB's worker threads for a configured count (`analytics.threads`; 0: one fewer than the cores, at least one).
 * The statistics store runs beside delivery on the same box: its writes are small batches (one origin-log flush is a
 * few thousand rows) whose parallel plans cost more in thread hand-offs than they gain. Measured on two cores under
 * the delivery front at ~1,000 answers a second: the DuckDB calls took 12.5-17.5 ms of CPU a second with two threads
 * and 7.5 ms with one, and an origin-log flush under a CPU burner 15.6 against 13.7 us a row; the statistics API
 * (30-day timeseries and overview over a million events, exports) answered as fast with one thread as with two.
 */
export function statsThreads(configured: number, cores = availableParallelism()): number {
  return configured > 0 ? configured : Math.max(1, cores - 1);
}

/** Opens (creating when missing) the DuckDB statistics file (`threads`: DuckDB's worker threads, default its own). */
export async function openStats(path: string, o: { threads?: number } = {}): Promise<StatsStore> {
  await preloadDuckDb();
  const { DuckDBInstance } = await import('@duckdb/node-api');
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const instance: Instance = await DuckDBInstance.create(path, o.threads ? { threads: String(o.threads) } : undefined);
  const conn: Conn = await instance.connect();
  const appendConn: Conn = await instance.connect();
  let appendChain: Promise<void> = Promise.resolve();
  let closed = false;
  let writes = 0;
  const inflight = new Set<Promise<unknown>>();
  // Every operation is counted while it runs so close() can wait for it; after close() they fail cleanly.
  const track = <T>(work: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error('statistics store closed'));
    const p = work();
    inflight.add(p);
    const done = () => { inflight.delete(p); };
    p.then(done, done);
    return p;
  };
  const store: StatsStore = {
    version() {
      return track(async () => String((await conn.runAndReadAll('SELECT version() AS v')).getRowObjects()[0].v));
    },
    run(sql, params) {
      return track(async () => { await conn.run(sql, params as never); writes++; });
    },
    writes() { return writes; },
    all<T>(sql: string, params?: StatsParam[]) {
      return track(async () => (await conn.runAndReadAll(sql, params as never)).getRowObjectsJson() as T[]);
    },
    append(table, rows, after) {
      return store.appendAll([{ table, rows }], after);
    },
    appendAll(parts, after) {
      if (closed) return Promise.reject(new Error('statistics store closed'));
      // Serialised on the appender connection: each part creates an appender, writes every row, flushes once.
      const appendRows = async (table: string, rows: StatsAppend['rows']) => {
        if (!rows.length) return;
        const ap = await appendConn.createAppender(table);
        try {
          const ids = Array.from({ length: ap.columnCount }, (_, i) => ap.columnType(i).typeId);
          const slice = timeSlicer();
          for (let k = 0; k < rows.length; k++) {
            const row = rows[k];
            for (let i = 0; i < ids.length; i++) appendTyped(ap, ids[i], row[i] ?? null);
            ap.endRow();
            // Each value is a native call on this thread: a large batch is cut into slices of at most SLICE_MS with
            // a turn of the event loop between them.
            if (slice.due()) await slice.next();
          }
          ap.flushSync();
        } finally { ap.closeSync(); }
      };
      const job = appendChain.then(async () => {
        const written = parts.filter((p) => p.rows.length);
        if (!after?.length && written.length <= 1) { if (written[0]) await appendRows(written[0].table, written[0].rows); return; }
        await appendConn.run('BEGIN TRANSACTION');
        try {
          for (const p of written) await appendRows(p.table, p.rows);
          for (const st of after ?? []) await appendConn.run(st.sql, st.params as never);
          await appendConn.run('COMMIT');
        } catch (e) {
          try { await appendConn.run('ROLLBACK'); } catch { /* already aborted */ }
          throw e;
        }
      });
      appendChain = job.catch(() => {});
      return track(() => job.then(() => { writes++; }));
    },
    transaction(statements) {
      if (closed) return Promise.reject(new Error('statistics store closed'));
      const job = appendChain.then(async () => {
        await appendConn.run('BEGIN TRANSACTION');
        try {
          for (const st of statements) await appendConn.run(st.sql, st.params as never);
          await appendConn.run('COMMIT');
        } catch (e) {
          try { await appendConn.run('ROLLBACK'); } catch { /* already aborted */ }
          throw e;
        }
      });
      appendChain = job.catch(() => {});
      return track(() => job);
    },
    openText(sql, params, eol) {
      if (closed) return Promise.reject(new Error('statistics store closed'));
      // The cursor counts as running work from its opening until it is closed (the store's close() waits for it).
      let done!: () => void;
      void track(() => new Promise<void>((r) => { done = r; }));
      return openTextOn(instance, sql, params, eol, () => done());
    },
    async close() {
      closed = true;
      await Promise.race([Promise.allSettled([...inflight, appendChain]), new Promise((r) => setTimeout(r, 10_000))]);
      try { appendConn.closeSync(); } catch { /* already closed */ }
      try { conn.closeSync(); } catch { /* already closed */ }
      try { instance.closeSync(); } catch { /* already closed */ }
    },
  };
  return store;
}

/** A text cursor on a connection of its own; `onClose` runs once when it is closed (or fails to open). */
async function openTextOn(instance: Instance, sql: string, params: StatsParam[], eol: string, onClose: () => void): Promise<TextCursor> {
  let c: Conn | null = null;
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    try { c?.closeSync(); } catch { /* closed */ }
    onClose();
  };
  try {
    c = await instance.connect();
    const res = await c.stream(sql, params as never);
    const read = async (): Promise<{ text: string; rows: number } | null> => {
      const chunk = await res.fetchChunk();
      if (!chunk || chunk.rowCount === 0) return null;
      const values = chunk.getColumnValues(0);
      return { text: values.join(eol) + eol, rows: values.length };
    };
    // Read ahead: the query's sort runs now, while the caller may still be sending another query's text.
    let ahead: Promise<{ text: string; rows: number } | null> | null = read();
    ahead.catch(() => {}); // next() reads it; a cursor closed unread leaves no unhandled rejection
    return {
      async next() {
        if (!open) return null;
        const p = ahead ?? read();
        ahead = null;
        const r = await p;
        if (!r) close();
        return r;
      },
      close,
    };
  } catch (e) {
    close();
    throw e;
  }
}

/** Resolves on the event loop's next turn (after pending I/O callbacks): lets requests in between long work. */
function nextTurn(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

/** Longest stretch of row-by-row work (ms) before it gives the event loop a turn (see `timeSlicer`). */
export const SLICE_MS = 5;

/**
 * A slicer for row-by-row work on the event loop: after each row, `if (slice.due()) await slice.next()`. Sliced by
 * time, not by a row count: the delivery bench's first origin-log flush appended 2,048 rows in one 85 ms stretch
 * (~40 µs a row with 20 values, each a native call, while the box was saturated), where a quiet measurement had given
 * ~10 µs a row. The next slice starts after the turn, so time spent on other work in between is not counted as ours.
 */
export function timeSlicer(ms = SLICE_MS): { due(): boolean; next(): Promise<void> } {
  let start = performance.now();
  return {
    due: () => performance.now() - start >= ms,
    async next() { await nextTurn(); start = performance.now(); },
  };
}

type Appender = import('@duckdb/node-api').DuckDBAppender;

/** Appends one JS value to the appender's current column by the column's DuckDB type id (see DuckDBTypeId). */
function appendTyped(ap: Appender, typeId: number, v: StatsParam): void {
  if (v === null) { ap.appendNull(); return; }
  switch (typeId) {
    case 1: ap.appendBoolean(Boolean(v)); return; // BOOLEAN
    case 2: case 3: case 4: ap.appendInteger(Number(v)); return; // TINYINT, SMALLINT, INTEGER
    case 5: ap.appendBigInt(typeof v === 'bigint' ? v : BigInt(Math.round(Number(v)))); return; // BIGINT
    case 10: case 11: ap.appendDouble(Number(v)); return; // FLOAT, DOUBLE
    default: ap.appendVarchar(String(v)); // VARCHAR and anything DuckDB casts from text
  }
}
