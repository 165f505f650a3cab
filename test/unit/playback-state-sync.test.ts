import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlaybackState } from '../../src/features/playback/state';
import { openDb } from '../../src/kernel/db/sqlite';
import { ephemeralRing } from '../../src/kernel/secrets/kek';

const dir = mkdtempSync(join(tmpdir(), 'vs-pbsync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
  // A statement of this connection moves the generation too (its own total_changes()).
  db.exec('PRAGMA foreign_keys = OFF');
  db.query('INSERT INTO playback_revocations (tenant_id, sid, reason, revoked_at) VALUES (?, ?, ?, ?)').run(tenant ?? 't', 'sess-2', 'test', Date.now());
  expect(state.sync()).toBeGreaterThan(g1);
  other.close(); db.close();
});
