import { expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toAppError } from '../../src/kernel/http/error-map';
import { AppError, problemResponse } from '../../src/kernel/errors';
import { openDb, migrate } from '../../src/kernel/db/sqlite';

test('an unexpected fault becomes a stack-free 500 internal_error with the request id', async () => {
  const { err, fault } = toAppError('UNKNOWN', new Error('db password is hunter2\n    at secret (/src/x.ts:1:1)'));
  expect(fault).toBe(true);
  const res = problemResponse(err, 'https://p', 'req_1');
  expect(res.status).toBe(500);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const text = await res.text();
  expect(text).not.toContain('hunter2');
  expect(text).not.toContain('x.ts');
  expect(JSON.parse(text)).toMatchObject({ type: 'https://p/internal_error', status: 500, request_id: 'req_1' });
  expect(toAppError('VALIDATION', new AppError('conflict', 'x')).err.code).toBe('conflict');
  expect(toAppError('PARSE', { cause: new AppError('payload_too_large', 'big') }).err.status).toBe(413);
});

test('a 4xx AppError is built without a stack trace (an answer, not a fault); a 5xx keeps its stack', () => {
  const before = Error.stackTraceLimit;
  const refused = new AppError('invalid_credentials', 'malformed API key');
  expect(refused.stack ?? '').not.toContain(' at ');
  expect(refused.status).toBe(401);
  expect(refused.message).toBe('malformed API key');
  expect(refused).toBeInstanceOf(Error);
  const broken = new AppError('internal_error', 'store unavailable');
  expect(broken.stack ?? '').toContain('kernel-errors.test.ts');
  // The limit is restored: other errors keep their stacks.
  expect(Error.stackTraceLimit).toBe(before);
  expect(new Error('x').stack ?? '').toContain('kernel-errors.test.ts');
});

test('SQLite opens with WAL, synchronous=FULL, foreign keys and a busy timeout; migrations apply once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-db-'));
  const path = join(dir, 'meta.sqlite');
  const db = openDb(path);
  const pragma = (n: string) => Object.values(db.query(`PRAGMA ${n}`).get() as object)[0];
  expect(pragma('journal_mode')).toBe('wal');
  expect(pragma('synchronous')).toBe(2);
  expect(pragma('foreign_keys')).toBe(1);
  expect(pragma('busy_timeout')).toBe(5000);
  expect(migrate(db)).toBe(0);
  const versions = db.query<{ version: number }, []>('SELECT version FROM schema_migrations ORDER BY version').all().map((r) => r.version);
  expect(versions[0]).toBe(1);
  expect(new Set(versions).size).toBe(versions.length);
  db.close();
  const raw = new Database(path);
  expect(() => raw.query('INSERT INTO api_keys (id, tenant_id, prefix, hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)').run('k', 'no-tenant', 'p', 'h', '[]', 0)).not.toThrow(); // FKs are per connection...
  raw.close();
  const again = openDb(path);
  expect(() => again.query('INSERT INTO api_keys (id, tenant_id, prefix, hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?)').run('k2', 'no-tenant', 'p', 'h2', '[]', 0)).toThrow(); // ...and on in ours
  again.close();
  rmSync(dir, { recursive: true, force: true });
});
