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
  close(): void;
}

/** Opens (creating when missing) the DuckDB statistics file. */
export async function openStats(path: string): Promise<StatsStore> {
  await preloadDuckDb();
  const { DuckDBInstance } = await import('@duckdb/node-api');
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const instance: Instance = await DuckDBInstance.create(path);
  const conn: Conn = await instance.connect();
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
    close() {
      try { conn.closeSync(); } catch { /* already closed */ }
      try { instance.closeSync(); } catch { /* already closed */ }
    },
  };
}
