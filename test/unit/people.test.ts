import { expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { authenticate, hashKey, KeyCache, type Principal } from '../../src/kernel/http/auth';
import { RateLimiter } from '../../src/kernel/http/rate-limit';
import { AppError } from '../../src/kernel/errors';
import { sessionCookie } from '../../src/features/people/cookie';
import { siteOrigin, s256 } from '../../src/features/connect/redirect';
import { passwordProblems } from '../../src/features/people/password';
import { ipKey, PasswordThrottle } from '../../src/features/people/throttle';

const TOKEN = 'T'.repeat(43);
const principal: Principal = {
  kind: 'session', keyId: 's1', userId: 'u1', tenantId: 't1', tenantSlug: 'default', tenantName: 'D', cdnOnly: false,
  scopes: new Set(['assets:read']), role: 'viewer',
  session: { csrf: 'c'.repeat(32), user: { id: 'u1', email: 'a@b.c', name: '' }, tenants: [] },
};

function setup(now = () => 1_000) {
  const keys = new KeyCache(() => null);
  let touched = 0;
  keys.attachSessions({
    lookup: (h) => (h === hashKey(TOKEN) ? { principal, lastSeenAt: 0, expiresAt: 10_000_000, idleMs: 5_000_000 } : null),
    touch: () => { touched++; }, now,
  });
  return { keys, limiter: new RateLimiter(1000, 1000), touched: () => touched };
}
const req = (method: string, headers: Record<string, string>) => new Request('http://x/v1/assets', { method, headers });
const code = (fn: () => unknown) => { try { fn(); return 'ok'; } catch (e) { return `${(e as AppError).status} ${(e as AppError).detail}`; } };

test('session cookie: resolves, CSRF on writes, refused where sessions: false, only-session/only-key rules', () => {
  const { keys, limiter } = setup();
  const cookie = { cookie: `other=1; vs_session=${TOKEN}` };
  expect(authenticate(req('GET', cookie), { scope: 'assets:read' }, keys, limiter).userId).toBe('u1');
  expect(code(() => authenticate(req('POST', cookie), { scope: 'assets:read' }, keys, limiter))).toStartWith('403 CSRF token missing');
  expect(code(() => authenticate(req('DELETE', { ...cookie, 'x-csrf-token': 'c'.repeat(31) + 'd' }), { scope: null }, keys, limiter))).toStartWith('403 CSRF');
  expect(code(() => authenticate(req('POST', { ...cookie, 'x-csrf-token': 'c'.repeat(32) }), { scope: 'assets:read' }, keys, limiter))).toBe('ok');
  expect(code(() => authenticate(req('GET', cookie), { scope: null, sessions: false }, keys, limiter))).toBe('401 missing Authorization header');
  expect(code(() => authenticate(new Request('http://x/mcp', { method: 'GET', headers: cookie }), { scope: null }, keys, limiter))).toBe('401 missing Authorization header');
  expect(code(() => authenticate(new Request('http://x/mcp/', { method: 'GET', headers: cookie }), { scope: null }, keys, limiter))).toBe('401 missing Authorization header');
  expect(code(() => authenticate(new Request('http://x/mcpx', { method: 'GET', headers: cookie }), { scope: null }, keys, limiter))).toBe('ok');
  expect(code(() => authenticate(req('GET', cookie), { scope: 'keys:manage' }, keys, limiter))).toBe('403 keys:manage');
  expect(code(() => authenticate(req('GET', cookie), { scope: null, only: 'key' }, keys, limiter))).toStartWith('403 this operation needs an API key');
  expect(code(() => authenticate(req('GET', { cookie: 'vs_session=bad!' }), { scope: null }, keys, limiter))).toBe('401 malformed session cookie');
  expect(code(() => authenticate(req('GET', { cookie: `vs_session=${'U'.repeat(43)}` }), { scope: null }, keys, limiter))).toStartWith('401 session expired');
  // A malformed bearer header is judged as before, even with a valid cookie beside it.
  expect(code(() => authenticate(req('GET', { ...cookie, authorization: 'Basic x' }), { scope: null }, keys, limiter))).toBe('401 Authorization must use the Bearer scheme');
});

test('session lifetimes: idle and absolute; activity written at most once a minute; invalidation by user', () => {
  let now = 1_000;
  const { keys, touched } = setup(() => now);
  expect(keys.session(TOKEN)).not.toBeNull();
  now += 30_000; keys.session(TOKEN);
  expect(touched()).toBe(0);
  now += 40_000; keys.session(TOKEN);
  expect(touched()).toBe(1);
  keys.invalidateUser('u1');
  now = 10_000_000;
  expect(keys.session(TOKEN)).toBeNull();
});

test('cookie attributes: Secure only behind https', () => {
  expect(sessionCookie('abc', 60, 'http://127.0.0.1:8080')).toBe('vs_session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=60');
  expect(sessionCookie('abc', 60, 'https://studio.example')).toEndWith('; Secure');
});

test('redirect addresses and PKCE', () => {
  expect(siteOrigin('https://news.example/cb?x=1')).toBe('https://news.example');
  expect(siteOrigin('http://localhost:3000/cb')).toBe('http://localhost:3000');
  expect(siteOrigin('http://127.0.0.1:3000/cb')).toBe('http://127.0.0.1:3000');
  for (const bad of ['http://news.example/cb', 'https://u:p@news.example/cb', 'https://news.example/cb#x', 'ftp://news.example/', '/relative', 'https://@news.example/']) {
    expect(() => siteOrigin(bad)).toThrow();
  }
  // Same answer as an independent SHA-256 (node:crypto), base64url without padding.
  const v = 'abcDEF123-._~'.repeat(4);
  expect(s256(v)).toBe(createHash('sha256').update(v).digest('base64url'));
  expect(s256(v)).not.toContain('=');
});

test('password rules give every reason', () => {
  expect(passwordProblems('')[0].detail).toStartWith('empty');
  expect(passwordProblems('aaaa').map((p) => p.detail)).toEqual(['too short: at least 10 characters', 'one character repeated']);
  expect(passwordProblems('Password123').map((p) => p.detail)).toEqual(['too common']);
  expect(passwordProblems('dana-the-great-1', 'dana@example.com').map((p) => p.detail)).toEqual(['contains the e-mail name']);
  expect(passwordProblems('a sound passphrase')).toEqual([]);
});

test('password throttle: per account, per IP (IPv6 by /64) and per extra key; window slides', () => {
  let now = 0;
  const th = new PasswordThrottle(() => now, 3, 5, 60_000);
  for (let i = 0; i < 3; i++) th.reserve({ account: 'a@x', ip: '1.1.1.1' }).settle(false);
  expect(th.wait({ account: 'a@x', ip: '9.9.9.9' })).toBe(60);
  expect(th.wait({ account: 'b@x', ip: '2.2.2.2' })).toBe(0);
  th.reserve({ account: 'b@x', ip: '1.1.1.1' }).settle(false); th.reserve({ account: 'c@x', ip: '1.1.1.1' }).settle(false);
  expect(th.wait({ account: 'z@x', ip: '1.1.1.1' })).toBeGreaterThan(0);
  try { th.reserve({ account: 'a@x', ip: '3.3.3.3' }); throw new Error('not refused'); } catch (e) {
    expect(e).toMatchObject({ code: 'rate_limited', status: 429, extra: { headers: { 'retry-after': '60' } } });
  }
  now = 61_000;
  expect(th.wait({ account: 'a@x', ip: '1.1.1.1' })).toBe(0);
  for (let i = 0; i < 3; i++) th.reserve({ account: `v${i}@x`, ip: null, also: ['inv:1'] }).settle(false);
  expect(th.wait({ account: 'fresh@x', ip: null, also: ['inv:1'] })).toBeGreaterThan(0);
  for (let i = 0; i < 5; i++) th.reserve({ account: `six${i}@x`, ip: '2001:db8:1:2:aaaa::1' }).settle(false);
  expect(th.wait({ account: 'seven@x', ip: '2001:db8:1:2:ffff:ffff:ffff:ffff' })).toBeGreaterThan(0);
  expect(th.wait({ account: 'seven@x', ip: '2001:db8:1:3::1' })).toBe(0);
  expect(ipKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
  expect(ipKey('2001:0db8:0001:0002:0:0:0:1')).toBe('2001:db8:1:2::/64');
});

test('password throttle: reserved before the check, so parallel attempts never pass the limit; success forgives only when alone', () => {
  const now = 0;
  const th = new PasswordThrottle(() => now, 3, 100, 60_000);
  // Ten attempts in flight at once: three reservations, seven refusals, even though none has settled yet.
  const held: ReturnType<typeof th.reserve>[] = [];
  let refused = 0;
  for (let i = 0; i < 10; i++) { try { held.push(th.reserve({ account: 'a@x', ip: '1.1.1.1' })); } catch { refused++; } }
  expect([held.length, refused]).toEqual([3, 7]);
  // The right password among them does not reopen the account while the others were in flight alongside it.
  held[1].settle(true); held[0].settle(false); held[2].settle(false);
  expect(th.wait({ account: 'a@x', ip: null })).toBe(60);
  // Alone, a right password forgives the account's failures (and releases its own IP slot).
  th.reserve({ account: 'b@x', ip: '1.1.1.1' }).settle(false);
  th.reserve({ account: 'b@x', ip: '1.1.1.1' }).settle(true);
  for (let i = 0; i < 3; i++) th.reserve({ account: 'b@x', ip: '1.1.1.1' }).settle(false);
  expect(th.wait({ account: 'b@x', ip: null })).toBe(60);
  th.forgive('b@x');
  expect(th.wait({ account: 'b@x', ip: null })).toBe(0);
});