import { expect, test } from 'bun:test';
import { RateLimiter } from '../../src/kernel/http/rate-limit';
import { Cursors } from '../../src/kernel/http/pagination';
import { ALL_SCOPES, SCOPE_TABLE, scopesForRole } from '../../src/kernel/http/scopes';
import { AppError } from '../../src/kernel/errors';
import { authenticate, hashKey, KeyCache, type Principal } from '../../src/kernel/http/auth';

test('roles hold the scopes of every lower role (seed scope table)', () => {
  expect(scopesForRole('owner')).toEqual(ALL_SCOPES);
  expect(scopesForRole('viewer')).toContain('support:write');
  expect(scopesForRole('viewer')).not.toContain('assets:write');
  expect(scopesForRole('editor')).toContain('epg:write');
  expect(scopesForRole('publisher')).toContain('assets:publish');
  expect(scopesForRole('engineer')).toContain('keys:manage');
  expect(scopesForRole('engineer')).not.toContain('stats:pii');
  expect(scopesForRole('admin')).not.toContain('billing:read');
  expect(ALL_SCOPES.length).toBe(Object.keys(SCOPE_TABLE).length);
});

test('token bucket: burst then refill at the rate', () => {
  let now = 0;
  const rl = new RateLimiter(20, 100, () => now);
  let allowed = 0;
  for (let i = 0; i < 150; i++) if (rl.take('k') === 0) allowed++;
  expect(allowed).toBe(100);
  expect(rl.take('k')).toBe(1);
  expect(rl.take('other')).toBe(0);
  now += 500; // 0.5 s refills 10 tokens
  allowed = 0;
  for (let i = 0; i < 20; i++) if (rl.take('k') === 0) allowed++;
  expect(allowed).toBe(10);
});

test('cursors are tamper-evident and bound to their list', () => {
  const c = new Cursors('secret');
  const cur = c.encode('assets:t1', 42);
  expect(c.decode('assets:t1', cur)).toBe(42);
  expect(() => c.decode('assets:t2', cur)).toThrow(AppError);
  expect(() => new Cursors('other').decode('assets:t1', cur)).toThrow(AppError);
  expect(() => c.decode('assets:t1', cur.slice(0, -2))).toThrow(AppError);
  expect(() => c.decode('assets:t1', 'x'.repeat(600))).toThrow(AppError);
});

test('key cache: the store is read once per key; revocation invalidates', () => {
  let lookups = 0;
  const p: Principal = { kind: 'key', userId: null, keyId: 'k1', tenantId: 't', tenantSlug: 't', tenantName: 'T', cdnOnly: true, scopes: new Set(['assets:read']), role: null };
  let revoked = false;
  const cache = new KeyCache((h) => { lookups++; return !revoked && h === hashKey(`vs_${'a'.repeat(30)}`) ? p : null; });
  const req = () => new Request('http://x/', { headers: { authorization: `Bearer vs_${'a'.repeat(30)}` } });
  const rl = new RateLimiter(1000, 1000);
  for (let i = 0; i < 5; i++) expect(authenticate(req(), { scope: 'assets:read' }, cache, rl).keyId).toBe('k1');
  expect(lookups).toBe(1);
  expect(() => authenticate(req(), { scope: 'assets:write' }, cache, rl)).toThrow('assets:write');
  const e = (() => { try { authenticate(req(), { scope: 'assets:read', platform: true }, cache, rl); } catch (x) { return x as AppError; } })();
  expect(e?.code).toBe('feature_disabled');
  expect(e?.status).toBe(403);
  revoked = true;
  cache.invalidateKey('k1');
  expect(() => authenticate(req(), { scope: null }, cache, rl)).toThrow('unknown or revoked');
});
