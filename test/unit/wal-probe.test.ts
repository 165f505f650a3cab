import { afterAll, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { walProbe } from '../../src/kernel/db/wal-probe';
import { PlaybackState } from '../../src/features/playback/state';
import { openDb } from '../../src/kernel/db/sqlite';
import { ephemeralRing } from '../../src/kernel/secrets/kek';

const dir = mkdtempSync(join(tmpdir(), 'vs-walprobe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A WAL database with a table, and a second connection to it. */
function pair(name: string): { a: Database; b: Database; file: string } {
  const file = join(dir, name);
  const a = new Database(file, { create: true });
  a.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER)');
  const b = new Database(file);
  return { a, b, file };
}

test('walProbe: answers changed exactly when some connection committed (another connection, this one, after a WAL restart)', () => {
  const { a, b } = pair('one.db');
  const p = walProbe(a)!;
  expect(p).not.toBeNull();
  expect(p.changed()).toBe(true); // first call
  expect(p.changed()).toBe(false);
  a.query('SELECT count(*) FROM t').get(); // reads change nothing
  expect(p.changed()).toBe(false);
  b.exec('INSERT INTO t VALUES (1)');
  expect(p.changed()).toBe(true);
  expect(p.changed()).toBe(false);
  a.exec('INSERT INTO t VALUES (2)');
  expect(p.changed()).toBe(true);
  // A checkpoint that restarts the WAL, then a commit with the same frame count as before: still seen.
  b.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  p.changed();
  b.exec('INSERT INTO t VALUES (3)');
  expect(p.changed()).toBe(true);
  // A rolled-back transaction commits nothing.
  b.exec('BEGIN; INSERT INTO t VALUES (4); ROLLBACK');
  expect(p.changed()).toBe(false);
  a.close(); b.close();
});

test('walProbe: sees a commit made by another process', async () => {
  const { a, b, file } = pair('two.db');
  b.close();
  const p = walProbe(a)!;
  p.changed();
  const child = Bun.spawn(['bun', '-e', `const { Database } = require('bun:sqlite'); const d = new Database(${JSON.stringify(file)}); d.exec('INSERT INTO t VALUES (9)'); d.close();`], { stdout: 'ignore', stderr: 'pipe' });
  expect(await child.exited).toBe(0);
  expect(p.changed()).toBe(true);
  expect(a.query<{ n: number }, []>('SELECT count(*) AS n FROM t').get()!.n).toBe(1);
  a.close();
});

test('walProbe: null where there is no shared index to read (memory, rollback journal, exclusive locking)', () => {
  expect(walProbe(new Database(':memory:'))).toBeNull();
  const j = new Database(join(dir, 'journal.db'), { create: true });
  j.exec('PRAGMA journal_mode = DELETE; CREATE TABLE t (x)');
  expect(walProbe(j)).toBeNull();
  j.close();
  const x = new Database(join(dir, 'exclusive.db'), { create: true });
  x.exec('PRAGMA journal_mode = WAL; PRAGMA locking_mode = EXCLUSIVE; CREATE TABLE t (x)');
  expect(walProbe(x)).toBeNull();
  x.close();
});

test('PlaybackState.sync: a revocation committed by another connection moves the generation and is seen by the very next call', () => {
  const file = join(dir, 'meta.sqlite');
  const ring = ephemeralRing();
  const db = openDb(file, { dataDir: dir, ring });
  const other = openDb(file, { dataDir: dir, ring });
  const state = PlaybackState.over(db);
  state.followWrites();
  const g0 = state.sync();
  expect(state.sync()).toBe(g0);
  expect(state.isRevoked('sess-1')).toBe(false);
  const tenant = db.query<{ id: string }, []>('SELECT id FROM tenants LIMIT 1').get()?.id ?? null;
  other.exec('PRAGMA foreign_keys = OFF');
  other.query('INSERT INTO playback_revocations (tenant_id, sid, reason, revoked_at) VALUES (?, ?, ?, ?)').run(tenant ?? 't', 'sess-1', 'test', Date.now());
  const g1 = state.sync();
  expect(g1).toBeGreaterThan(g0);
  expect(state.isRevoked('sess-1')).toBe(true);
  expect(state.sync()).toBe(g1);
  other.close(); db.close();
});
