import { Database } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS } from './migrations';

/** The metadata database handle (bun:sqlite). */
export type Db = Database;

/** Opens (creating when missing) the SQLite metadata database with the service's pragmas, then migrates it. */
export function openDb(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true, strict: true });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  migrate(db);
  return db;
}

/** Applies every numbered migration not yet recorded in `schema_migrations`, each in its own transaction. */
export function migrate(db: Db): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const done = new Set(db.query<{ version: number }, []>('SELECT version FROM schema_migrations').all().map((r) => r.version));
  let applied = 0;
  const versions = new Set<number>();
  for (const m of MIGRATIONS) {
    if (versions.has(m.version)) throw new Error(`duplicate migration version ${m.version}`);
    versions.add(m.version);
  }
  for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    })();
    applied++;
  }
  return applied;
}

/** Runs `fn` in one immediate transaction (writes serialize; nothing half-applied on error). */
export function tx<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
