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
  // A key the store did not know is refused from memory when presented again (a client retrying a revoked key).
  const before = lookups;
  for (let i = 0; i < 5; i++) expect(() => authenticate(req(), { scope: null }, cache, rl)).toThrow('unknown or revoked');
  expect(lookups).toBe(before);
  // Another unknown key is still looked up once.
  const other = new Request('http://x/', { headers: { authorization: `Bearer vs_${'b'.repeat(30)}` } });
  expect(() => authenticate(other, { scope: null }, cache, rl)).toThrow('unknown or revoked');
  expect(lookups).toBe(before + 1);
});

test("an error hook's problem answer passes through Elysia as built; headers a route set before throwing still merge", async () => {
  const { Elysia } = await import('elysia');
  const { answerAsBuilt } = await import('../../src/kernel/http/error-map');
  const { problemResponse } = await import('../../src/kernel/errors');
  const built = new WeakSet<Response>();
  const app = new Elysia({ aot: true })
    .onError(({ error, set }) => {
      answerAsBuilt(set);
      const res = problemResponse(error instanceof AppError ? error : new AppError('internal_error', 'x'), '/problems', 'req_t');
      built.add(res);
      return res;
    })
    .get('/refused', () => { throw new AppError('invalid_credentials', 'malformed API key'); })
    .get('/traced', ({ set }) => { set.headers['x-trace'] = 'kept'; throw new AppError('not_found', 'asset not found'); });
  const refused = await app.handle(new Request('http://h.test/refused'));
  expect(built.has(refused)).toBe(true); // the very answer the hook built: no second Response, no body stream
  expect(refused.status).toBe(401);
  expect(refused.headers.get('content-type')).toBe('application/problem+json');
  expect((await refused.json()) as object).toMatchObject({ status: 401, detail: 'malformed API key', request_id: 'req_t' });
  const traced = await app.handle(new Request('http://h.test/traced'));
  expect(traced.status).toBe(404);
  expect(traced.headers.get('x-trace')).toBe('kept');
  expect(traced.headers.get('x-request-id')).toBe('req_t');
});
