import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { ManualClock } from '../../src/kernel/clock';
import { PeopleService } from '../../src/features/people/service';
import { identityService } from '../../src/features/identity/service';
import { scopesForRole } from '../../src/kernel/http/scopes';
import { signIn, startSmtp, studioOf, linkIn } from './people-helpers';

let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const clock = new ManualClock(Date.parse('2026-11-23T02:00:00Z'));
const PW = 'correct horse battery';

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ workers: false, clock, env: { VS_SMTP_URL: smtp.url } });
  const def = identityService(s.ctx).tenant('default');
  await new PeopleService(s.ctx).createUser({ email: 'Owner@Example.com', name: 'Olga Owner', password: PW, tenantId: def.id, role: 'owner' });
});
afterAll(async () => { await s?.stop(); await smtp?.stop(); });

test('sign-in: wrong password and unknown e-mail answer the same 401, in comparable time', async () => {
  const time = async (email: string) => {
    const t0 = performance.now();
    const r = await s.api('POST', '/v1/session', { email, password: 'wrong password here' }, { key: null, headers: { 'x-forwarded-for': '1.2.3.4' } });
    const ms = performance.now() - t0;
    const b = await r.json() as { detail: string; type: string };
    return { status: r.status, detail: b.detail, type: b.type, ms };
  };
  // Interleaved pairs (a load spike on a busy CI host then hits both paths alike); three wrong passwords stay under
  // the per-account throttle of five.
  const wrong: Awaited<ReturnType<typeof time>>[] = [], unknown: Awaited<ReturnType<typeof time>>[] = [];
  for (let i = 0; i < 3; i++) {
    wrong.push(await time('owner@example.com'));
    unknown.push(await time(`nobody${i}@example.com`));
  }
  for (const r of [...wrong, ...unknown]) {
    expect(r.status).toBe(401);
    expect(r.detail).toBe('wrong e-mail address or password');
    expect(r.type).toEndWith('/invalid_credentials');
  }
  // Both paths run one argon2id verification: the unknown address is not answered faster.
  const minUnknown = Math.min(...unknown.map((r) => r.ms)), minWrong = Math.min(...wrong.map((r) => r.ms));
  expect(minUnknown).toBeGreaterThan(minWrong * 0.5);
});

test('session cookie: attributes, /v1/me before and after choosing a tenant, CSRF on writes', async () => {
  const r = await s.api('POST', '/v1/session', { email: 'OWNER@example.com', password: PW }, { key: null });
  expect(r.status).toBe(200);
  const cookie = r.headers.get('set-cookie')!;
  expect(cookie).toMatch(/^vs_session=[A-Za-z0-9_-]{40,}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/);
  const body = await r.json() as { csrf_token: string; current_tenant: null; user: { email: string } };
  expect(body.current_tenant).toBeNull();
  expect(body.user.email).toBe('owner@example.com');
  const st = studioOf(s, cookie.split(';')[0], body.csrf_token);

  let me = await (await st.call('GET', '/v1/me')).json() as Record<string, unknown>;
  expect(me).toEqual({
    auth: 'session', user: { id: expect.any(String), email: 'owner@example.com', name: 'Olga Owner' },
    tenants: [{ id: expect.any(String), slug: 'default', name: 'Default', role: 'owner', cdn_only: false }],
    current_tenant: null, scopes: [],
  });
  // No current tenant yet: scoped routes refuse.
  expect((await st.call('GET', '/v1/api-keys')).status).toBe(403);
  // Cookie-authenticated writes need the CSRF header.
  const noCsrf = await st.call('PUT', '/v1/me/tenant', { tenant: 'default' }, { csrf: false });
  expect(noCsrf.status).toBe(403);
  expect((await noCsrf.json() as { detail: string }).detail).toContain('CSRF');
  const bad = await s.api('PUT', '/v1/me/tenant', { tenant: 'default' }, { key: null, headers: { cookie: st.cookie, 'x-csrf-token': 'x'.repeat(32) } });
  expect(bad.status).toBe(403);
  expect((await st.call('PUT', '/v1/me/tenant', { tenant: 'nope' })).status).toBe(404);
  const chose = await st.call('PUT', '/v1/me/tenant', { tenant: 'default' });
  expect(chose.status).toBe(200);
  me = await (await st.call('GET', '/v1/me')).json() as Record<string, unknown>;
  expect(me.current_tenant).toMatchObject({ slug: 'default', role: 'owner', cdn_hostname: new URL(s.url).host });
  expect(me.scopes).toEqual(scopesForRole('owner'));
  expect((await st.call('GET', '/v1/api-keys')).status).toBe(200);
  expect((await st.call('POST', '/v1/api-keys', { role: 'viewer', name: 'x' }, { csrf: false })).status).toBe(403);
  const created = await st.call('POST', '/v1/api-keys', { role: 'viewer', name: 'from studio' });
  expect(created.status).toBe(201);
  // A bearer key wins over a cookie; the key path is unchanged.
  const both = await s.api('GET', '/v1/me', undefined, { headers: { cookie: st.cookie } });
  expect((await both.json() as { auth: string }).auth).toBe('api_key');
});

test('sessions: list, revoke another, sign out; idle lifetime', async () => {
  const a = await signIn(s, 'owner@example.com', PW);
  const b = await signIn(s, 'owner@example.com', PW);
  const list = await (await a.call('GET', '/v1/me/sessions')).json() as { items: { id: string; current: boolean }[] };
  expect(list.items.filter((x) => x.current)).toHaveLength(1);
  const bId = (await (await b.call('GET', '/v1/session')).json() as { session_id: string }).session_id;
  expect(list.items.map((x) => x.id)).toContain(bId);
  expect((await a.call('DELETE', `/v1/me/sessions/${bId}`)).status).toBe(204);
  expect((await b.call('GET', '/v1/me')).status).toBe(401);
  const out = await a.call('DELETE', '/v1/session');
  expect(out.status).toBe(204);
  expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
  expect((await a.call('GET', '/v1/me')).status).toBe(401);
  // Idle lifetime (12 h without a request).
  const c = await signIn(s, 'owner@example.com', PW);
  clock.advance(11 * 3600_000);
  expect((await c.call('GET', '/v1/me')).status).toBe(200);
  clock.advance(11 * 3600_000);
  expect((await c.call('GET', '/v1/me')).status).toBe(200);
  clock.advance(12 * 3600_000 + 1000);
  expect((await c.call('GET', '/v1/me')).status).toBe(401);
});

test('password reset by e-mail: link followed, old sessions signed out, link single use; weak passwords refused', async () => {
  const old = await signIn(s, 'owner@example.com', PW);
  const before = smtp.mails.length;
  expect((await s.api('POST', '/v1/password-reset', { email: 'nobody@example.com' }, { key: null })).status).toBe(202);
  expect((await s.api('POST', '/v1/password-reset', { email: 'owner@example.com' }, { key: null })).status).toBe(202);
  const mail = await smtp.next('owner@example.com', before);
  expect(smtp.mails.slice(before).some((m) => m.to.includes('nobody@example.com'))).toBe(false);
  const link = linkIn(mail.text, `${s.url}/studio/reset?token=`);
  const token = new URL(link).searchParams.get('token')!;
  const pageRes = await fetch(link, { headers: { 'accept-language': 'he-IL,he;q=0.9' } });
  expect(pageRes.status).toBe(200);
  expect(await pageRes.text()).toContain('dir="rtl"');
  for (const [pw, reason] of [['', 'empty'], ['short', 'too short'], ['aaaaaaaaaaaa', 'one character repeated'], ['password123', 'too common']] as const) {
    const r = await s.api('POST', '/v1/password-reset/confirm', { token, password: pw }, { key: null });
    expect(r.status).toBe(422);
    const b = await r.json() as { errors: { field: string; detail: string }[] };
    expect(b.errors.map((e) => e.detail).join(' ')).toContain(reason);
  }
  const NEW = 'a brand new passphrase';
  expect((await s.api('POST', '/v1/password-reset/confirm', { token, password: NEW }, { key: null })).status).toBe(204);
  expect((await old.call('GET', '/v1/me')).status).toBe(401);
  const again = await s.api('POST', '/v1/password-reset/confirm', { token, password: 'another new passphrase' }, { key: null });
  expect(again.status).toBe(410);
  expect((await s.api('POST', '/v1/session', { email: 'owner@example.com', password: PW }, { key: null })).status).toBe(401);
  await signIn(s, 'owner@example.com', NEW);
});

test('sign-in throttling per account: 429 with Retry-After, even for the right password', async () => {
  await new PeopleService(s.ctx).createUser({ email: 'victim@example.com', password: 'sturdy passphrase 1' });
  for (let i = 0; i < 5; i++) expect((await s.api('POST', '/v1/session', { email: 'victim@example.com', password: `bad guess ${i}` }, { key: null })).status).toBe(401);
  const r = await s.api('POST', '/v1/session', { email: 'victim@example.com', password: 'sturdy passphrase 1' }, { key: null });
  expect(r.status).toBe(429);
  expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  clock.advance(15 * 60_000 + 1000);
  expect((await s.api('POST', '/v1/session', { email: 'victim@example.com', password: 'sturdy passphrase 1' }, { key: null })).status).toBe(200);
});

test('password change while signed in: current password required, reasons for weak ones, other sessions signed out', async () => {
  await new PeopleService(s.ctx).createUser({ email: 'mover@example.com', password: 'moving passphrase 1' });
  const a = await signIn(s, 'mover@example.com', 'moving passphrase 1');
  const b = await signIn(s, 'mover@example.com', 'moving passphrase 1');
  expect((await a.call('PUT', '/v1/me/password', { current_password: 'nope nope nope', new_password: 'moving passphrase 2' })).status).toBe(403);
  const weak = await a.call('PUT', '/v1/me/password', { current_password: 'moving passphrase 1', new_password: 'short' });
  expect(weak.status).toBe(422);
  expect((await weak.json() as { errors: { field: string }[] }).errors[0].field).toBe('new_password');
  expect((await a.call('PUT', '/v1/me/password', { current_password: 'moving passphrase 1', new_password: 'moving passphrase 2' }, { csrf: false })).status).toBe(403);
  expect((await a.call('PUT', '/v1/me/password', { current_password: 'moving passphrase 1', new_password: 'moving passphrase 2' })).status).toBe(204);
  expect((await a.call('GET', '/v1/me')).status).toBe(200);
  expect((await b.call('GET', '/v1/me')).status).toBe(401);
  await signIn(s, 'mover@example.com', 'moving passphrase 2');
});

test('sign-in throttling per IP: many accounts from one address', async () => {
  // 20 failures per IP in 15 minutes; the accounts differ so the per-account limit (5) is not what stops it.
  let last: Response | null = null;
  for (let i = 0; i < 25; i++) {
    last = await s.api('POST', '/v1/session', { email: `spray${i}@example.com`, password: 'guess guess guess' }, { key: null });
    if (last.status === 429) break;
  }
  expect(last!.status).toBe(429);
  expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  clock.advance(15 * 60_000 + 1000);
});
