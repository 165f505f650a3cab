import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { preloadDuckDb } from './duckdb-loader';

type Conn = import('@duckdb/node-api').DuckDBConnection;
type Instance = import('@duckdb/node-api').DuckDBInstance;
/** A value DuckDB can bind as a parameter. */
export type StatsParam = string | number | boolean | null | bigint;

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
  /** Runs statements in one transaction on the appender's connection (after appends queued before it). */
  transaction(statements: readonly { sql: string; params?: StatsParam[] }[]): Promise<void>;
  /** Streams a query's rows in chunks (plain JSON-safe objects) on a connection of its own; stop early by returning false. */
  stream(sql: string, params: StatsParam[], onRows: (rows: Record<string, unknown>[]) => boolean | Promise<boolean>): Promise<void>;
  close(): void;
}

/** Opens (creating when missing) the DuckDB statistics file. */
export async function openStats(path: string): Promise<StatsStore> {
  await preloadDuckDb();
  const { DuckDBInstance } = await import('@duckdb/node-api');
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const instance: Instance = await DuckDBInstance.create(path);
  const conn: Conn = await instance.connect();
  const appendConn: Conn = await instance.connect();
  let appendChain: Promise<void> = Promise.resolve();
  return {
    async version() {
      const r = await conn.runAndReadAll('SELECT version() AS v');
      return String(r.getRowObjects()[0].v);
    },
    async run(sql, params) {
      await conn.run(sql, params as never);
    },
    async all<T>(sql: string, params?: StatsParam[]) {
      const r = await conn.runAndReadAll(sql, params as never);
      return r.getRowObjectsJson() as T[];
    },
    append(table, rows, after) {
      // Serialised on the appender connection: each call creates an appender, writes every row, flushes once.
      const appendRows = async () => {
        if (!rows.length) return;
        const ap = await appendConn.createAppender(table);
        try {
          const ids = Array.from({ length: ap.columnCount }, (_, i) => ap.columnType(i).typeId);
          for (const row of rows) {
            for (let i = 0; i < ids.length; i++) appendTyped(ap, ids[i], row[i] ?? null);
            ap.endRow();
          }
          ap.flushSync();
        } finally { ap.closeSync(); }
      };
      const job = appendChain.then(async () => {
        if (!after?.length) { await appendRows(); return; }
        await appendConn.run('BEGIN TRANSACTION');
        try {
          await appendRows();
          for (const st of after) await appendConn.run(st.sql, st.params as never);
          await appendConn.run('COMMIT');
        } catch (e) {
          try { await appendConn.run('ROLLBACK'); } catch { /* already aborted */ }
          throw e;
        }
      });
      appendChain = job.catch(() => {});
      return job;
    },
    transaction(statements) {
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
      return job;
    },
    async stream(sql, params, onRows) {
      const c = await instance.connect();
      try {
        const res = await c.stream(sql, params as never);
        for (;;) {
          const chunk = await res.fetchChunk();
          if (!chunk || chunk.rowCount === 0) break;
          const names = res.columnNames();
          const cols = chunk.getColumns();
          const rows: Record<string, unknown>[] = new Array(chunk.rowCount);
          for (let r = 0; r < chunk.rowCount; r++) {
            const o: Record<string, unknown> = {};
            for (let k = 0; k < names.length; k++) { const v = cols[k][r]; o[names[k]] = typeof v === 'bigint' ? Number(v) : v; }
            rows[r] = o;
          }
          if ((await onRows(rows)) === false) break;
        }
      } finally { try { c.closeSync(); } catch { /* closed */ } }
    },
    close() {
      try { appendConn.closeSync(); } catch { /* already closed */ }
      try { conn.closeSync(); } catch { /* already closed */ }
      try { instance.closeSync(); } catch { /* already closed */ }
    },
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
