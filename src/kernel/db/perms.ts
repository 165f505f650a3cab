import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Creates a directory 0700 (parents too) and tightens an existing one to 0700 (best effort when not ours). */
export function secureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try { chmodSync(dir, 0o700); } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'EPERM') throw e; }
}

/** Creates `path` empty with mode 0600 when missing, so the database is never readable by others, even briefly. */
export function precreatePrivate(path: string): void {
  if (existsSync(path)) return;
  closeSync(openSync(path, 'a', 0o600));
}

/** Sets 0600 on a database file and its `-wal`/`-shm` (and DuckDB `.wal`) companions that exist. */
export function securePrivateFiles(path: string): void {
  for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}.wal`]) {
    if (existsSync(p)) chmodSync(p, 0o600);
  }
}

/** The data dir of a database path: `DATA` for `DATA/db/meta.sqlite`, else the database's own directory. */
export function dataDirOf(dbPath: string): string {
  const dir = dirname(dbPath);
  return basename(dir) === 'db' ? dirname(dir) : dir;
}
