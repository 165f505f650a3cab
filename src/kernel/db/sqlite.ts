import { Database } from 'bun:sqlite';
import { dirname } from 'node:path';
import { MIGRATIONS } from './migrations';
import { dataDirOf, precreatePrivate, secureDir, securePrivateFiles } from './perms';
import { ephemeralRing, loadKeyRing, type KeyRing } from '../secrets/kek';
import { attachSealer, Sealer } from '../secrets/seal';
import { needsRewrap, rewrap } from '../secrets/columns';

/** The metadata database handle (bun:sqlite). */
export type Db = Database;

/** How openDb finds the master key: an explicit ring, else VS_MASTER_KEY / DATA/secrets/master.key of `dataDir`. */
export interface OpenDbOptions { dataDir?: string; ring?: KeyRing; env?: Record<string, string | undefined>; upgrade?: boolean }

/**
 * Opens (creating when missing) the SQLite metadata database with the service's pragmas, then migrates it. Files are
 * private (dirs 0700, database 0600); the master key seals secrets (`sealerOf(db)`), and legacy plaintext secrets
 * are re-sealed here (`upgrade: false` skips that). A database sealed with another master key fails here (SealError).
 */
export function openDb(path: string, o: OpenDbOptions = {}): Db {
  let ring = o.ring;
  if (path !== ':memory:') {
    const dataDir = o.dataDir ?? dataDirOf(path);
    secureDir(dataDir);
    secureDir(dirname(path));
    precreatePrivate(path);
    ring ??= loadKeyRing(dataDir, o.env);
  }
  // bun:sqlite keeps 20 prepared statements per database by default and the appliance has ~300 distinct queries:
  // past 20 most db.query() calls prepared again (~5 us each, 8 % of CPU in the MCP profile). 512 holds them all.
  Database.MAX_QUERY_CACHE_SIZE = Math.max(Database.MAX_QUERY_CACHE_SIZE, 512);
  const db = new Database(path, { create: true, strict: true });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA secure_delete = FAST'); // overwritten secrets do not linger in the page's free space
  try {
    migrate(db);
    if (path !== ':memory:') securePrivateFiles(path);
    const sealer = new Sealer(ring ?? ephemeralRing());
    attachSealer(db, sealer);
    if (o.upgrade !== false && needsRewrap(db, sealer)) {
      const counts = tx(db, () => rewrap(db, sealer));
      // Legacy plaintext must not survive in the WAL either.
      if (Object.values(counts).some((n) => n > 0)) db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    }
  } catch (e) { db.close(); throw e; }
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
