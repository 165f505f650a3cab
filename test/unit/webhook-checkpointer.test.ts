import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { lazyCommit } from '../../src/kernel/db/lazy-commit';
import { startCheckpointer } from '../../src/features/webhooks/checkpointer';
import { waitFor } from '../helpers/server';

/** A WAL database with a table; `grow` commits ~2,000 pages through lazyCommit without SQLite's own checkpoint. */
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'vs-test-ckpt-'));
  const path = join(dir, 'meta.sqlite');
  const db = new Database(path, { create: true, strict: true });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const pad = 'x'.repeat(4000);
  const grow = (rows: number) => {
    for (let i = 0; i < rows; i += 100) {
      lazyCommit(db, () => { for (let j = 0; j < 100; j++) db.query('INSERT INTO t (v) VALUES (?)').run(pad); }, { checkpoint: false });
    }
  };
  const fileSize = () => statSync(path).size;
  return { db, path, grow, fileSize, done: () => { db.close(); rmSync(dir, { recursive: true, force: true }); } };
}

test('lazyCommit { checkpoint: false } leaves the WAL to grow past 1,000 pages and restores the connection settings', () => {
  const { db, grow, fileSize, done } = setup();
  try {
    const before = fileSize();
    grow(2000); // ~2,000 pages of 4 KiB: SQLite's own checkpoint would have copied them at 1,000
    expect(fileSize()).toBe(before); // nothing copied into the database file on this thread
    expect(db.query<{ wal_autocheckpoint: number }, []>('PRAGMA wal_autocheckpoint').get()!.wal_autocheckpoint).toBe(1000);
    expect(db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()!.synchronous).toBe(2);
    expect(db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM t').get()!.n).toBe(2000);
  } finally { done(); }
});

test('the checkpoint thread copies committed WAL frames into the database file after a nudge', async () => {
  const { db, path, grow, fileSize, done } = setup();
  const errors: string[] = [];
  const ck = startCheckpointer(path, 10, (e) => errors.push(e));
  try {
    const before = fileSize();
    grow(1500);
    ck.nudge();
    await waitFor('pages checkpointed into the file', () => fileSize() > before + 1000 * 4096, 20_000, 20);
    expect(errors).toEqual([]);
    // The data reads back on a fresh connection once the main one is gone (nothing depends on this thread's WAL).
    db.close();
    const again = new Database(path, { readonly: true });
    expect(again.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM t').get()!.n).toBe(1500);
    again.close();
  } finally { ck.stop(); try { db.close(); } catch { /* closed */ } done(); }
});

test('a stopped checkpointer ignores nudges', () => {
  const { path, done } = setup();
  const ck = startCheckpointer(path);
  ck.stop();
  expect(ck.running).toBe(false);
  ck.nudge();
  done();
});

test('with an owner connection, its commits never checkpoint while the thread runs; the thread runs unprompted', async () => {
  const { db, path, fileSize, done } = setup();
  const auto = () => db.query<{ wal_autocheckpoint: number }, []>('PRAGMA wal_autocheckpoint').get()!.wal_autocheckpoint;
  const ck = startCheckpointer(path, 10, () => {}, { owner: db, everyMs: 50 });
  try {
    expect(auto()).toBe(0);
    const before = fileSize();
    // Plain durable commits (another feature's), ~1,500 pages: SQLite alone would checkpoint at 1,000 on this thread.
    const pad = 'y'.repeat(4000);
    for (let i = 0; i < 15; i++) db.transaction(() => { for (let j = 0; j < 100; j++) db.query('INSERT INTO t (v) VALUES (?)').run(pad); })();
    expect(fileSize()).toBe(before);
    // No nudge: the periodic run copies them.
    await waitFor('pages checkpointed without a nudge', () => fileSize() > before + 1000 * 4096, 20_000, 20);
    ck.stop();
    expect(auto()).toBe(1000); // the connection's own checkpoint is back
  } finally { ck.stop(); done(); }
});

test('the unprompted run is skipped while nothing is committed on the owner, and resumes after a commit', async () => {
  const { db, path, done } = setup();
  const ck = startCheckpointer(path, 10, () => {}, { owner: db, everyMs: 20 });
  try {
    await waitFor('first unprompted run', () => ck.runs >= 1, 10_000, 5);
    // Idle: ten periods later the thread was not woken again.
    const idle = ck.runs;
    const until = Date.now() + 200;
    await waitFor('ten idle periods', () => Date.now() >= until, 5_000, 20);
    expect(ck.runs).toBe(idle);
    db.run('INSERT INTO t (v) VALUES (?)', ['one more row']);
    await waitFor('a run after the commit', () => ck.runs > idle, 10_000, 5);
  } finally { ck.stop(); done(); }
});

test('lazyCommit inside another transaction commits with it (and rolls back with it); the setting is left alone', () => {
  const { db, done } = setup();
  try {
    const sync = () => db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()!.synchronous;
    const count = () => db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM t').get()!.n;
    const n0 = count();
    expect(() => db.transaction(() => {
      lazyCommit(db, () => {
        expect(sync()).toBe(2); // the enclosing transaction's durability is not lowered for its commit
        db.query('INSERT INTO t (v) VALUES (?)').run('inner');
      });
      throw new Error('roll back');
    })()).toThrow('roll back');
    expect(count()).toBe(n0);
    db.transaction(() => { lazyCommit(db, () => db.query('INSERT INTO t (v) VALUES (?)').run('inner')); })();
    expect(count()).toBe(n0 + 1);
    lazyCommit(db, () => { expect(sync()).toBe(1); db.query('INSERT INTO t (v) VALUES (?)').run('alone'); }); // on its own: NORMAL
    expect(count()).toBe(n0 + 2);
    expect(sync()).toBe(2);
  } finally { done(); }
});
