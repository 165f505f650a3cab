import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { openDb, tx } from '../db/sqlite';
import { KEY_FILE, NEXT_KEY_FILE, kek, loadKeyRing, syncDir, writeKeyFile } from './kek';
import { Sealer, sealerOf } from './seal';
import { rewrap, type RewrapCounts } from './columns';
import { servingPid } from './running';

/** What a rotation did: the new and previous key ids and how many values were re-wrapped, by column. */
export interface RotateResult { kid: string; previous: string; source: 'file' | 'env'; rewrapped: RewrapCounts; total: number }

/**
 * Rotates the key-encryption key of a data dir (the service must be stopped). File mode: a new random
 * `master.key`; the old one stays as `master.key.<old kid>` until every value is re-wrapped in one transaction,
 * then is removed. An interruption at any step leaves every value openable by the next start (which re-seals
 * under `master.key`). With `VS_MASTER_KEY` the operator supplies the new key: set it, put the previous one in
 * `VS_MASTER_KEY_OLD`, and run this to re-wrap.
 */
export function rotateMasterKey(dataDir: string, env: Record<string, string | undefined> = process.env): RotateResult {
  const pid = servingPid(dataDir);
  if (pid) throw new Error(`viewstream serve (pid ${pid}) is using ${dataDir}: stop it, rotate, start it again (or remove ${join(dataDir, 'serve.pid')} if that process is not viewstream)`);
  const dbPath = join(dataDir, 'db', 'meta.sqlite');
  if (env.VS_MASTER_KEY) {
    if (!env.VS_MASTER_KEY_OLD) {
      throw new Error('the master key comes from VS_MASTER_KEY: set VS_MASTER_KEY to a new key (openssl rand -base64 32) and VS_MASTER_KEY_OLD to the previous one, then run `viewstream secrets rotate` again');
    }
    const db = openDb(dbPath, { dataDir, env, upgrade: false });
    try {
      const sealer = sealerOf(db);
      const rewrapped = tx(db, () => rewrap(db, sealer));
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      const previous = sealer.ring.older.map((k) => k.kid).join(',');
      return { kid: sealer.kid, previous, source: 'env', rewrapped, total: sum(rewrapped) };
    } finally { db.close(); }
  }
  const db = openDb(dbPath, { dataDir, env });
  try {
    const old = sealerOf(db);
    const dir = old.ring.dir!;
    const prev = old.ring.current;
    const next = kek(randomBytes(32));
    // 1. Keep the old key beside the new one until the database no longer needs it.
    writeKeyFile(join(dir, `${KEY_FILE}.${prev.kid}`), prev.key);
    writeKeyFile(join(dir, NEXT_KEY_FILE), next.key);
    // 2. Re-wrap every value in one transaction.
    const sealer = new Sealer({ current: next, older: [prev, ...old.ring.older], source: 'file', dir });
    const rewrapped = tx(db, () => rewrap(db, sealer, { all: true, from: old }));
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)'); // values under the old key leave the WAL too
    // 3. The new key becomes master.key; then the old one goes.
    renameSync(join(dir, NEXT_KEY_FILE), join(dir, KEY_FILE));
    syncDir(dir);
    for (const k of [prev, ...old.ring.older]) {
      const f = join(dir, `${KEY_FILE}.${k.kid}`);
      if (existsSync(f)) unlinkSync(f);
    }
    syncDir(dir);
    // A fresh ring must open everything with master.key alone.
    const check = loadKeyRing(dataDir, {});
    if (check.current.kid !== next.kid || check.older.length) throw new Error('rotation left extra key files in DATA/secrets');
    return { kid: next.kid, previous: prev.kid, source: 'file', rewrapped, total: sum(rewrapped) };
  } finally { db.close(); }
}

const sum = (c: RewrapCounts) => Object.values(c).reduce((a, b) => a + b, 0);
