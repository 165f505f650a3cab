import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { ManualClock } from '../../src/kernel/clock';
import { PeopleService } from '../../src/features/people/service';
import { identityService } from '../../src/features/identity/service';
import { s256 } from '../../src/features/connect/redirect';
import { signIn, type Studio } from './people-helpers';
import { launch } from './player-helpers';

let s: TestServer;
let site: ReturnType<typeof Bun.serve>;
let owner: Studio;
const clock = new ManualClock(Date.parse('2026-11-23T02:00:00Z'));
const received: URL[] = [];
const verifier = 'v'.repeat(20) + '-._~' + 'A1b2C3d4e5F6g7H8i9J0k'; // 45 unreserved characters
let redirect = '';

beforeAll(async () => {
  s = await startTestServer({ workers: false, clock });
  const def = identityService(s.ctx).tenant('default');
  const people = new PeopleService(s.ctx);
  await people.createUser({ email: 'eng@example.com', password: 'engineer passphrase', tenantId: def.id, role: 'engineer' });
  await people.createUser({ email: 'ed@example.com', password: 'editor passphrase', tenantId: def.id, role: 'editor' });
  // The "site": a loopback origin that receives the redirect with code and state.
  site = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (r) => { received.push(new URL(r.url)); return new Response('ok'); } });
  redirect = `http://localhost:${site.port}/vs/callback`;
  owner = await signIn(s, 'eng@example.com', 'engineer passphrase');
  expect((await owner.call('PUT', '/v1/me/tenant', { tenant: 'default' })).status).toBe(200);
});
afterAll(async () => { site?.stop(true); await s?.stop(); });

const ask = (o: Record<string, unknown> = {}) => ({
  redirect_uri: redirect, state: 'st-123', code_challenge: s256(verifier), code_challenge_method: 'S256',
  scopes: ['assets:read', 'clips:read'], site_name: 'News site', ...o,
});

test('consent page shows the site, the scopes and the person (English and Hebrew); refuses without a session', async () => {
  const q = new URLSearchParams({ redirect_uri: redirect, state: 'st-123', code_challenge: s256(verifier), code_challenge_method: 'S256', scope: 'assets:read clips:read', site_name: 'News site' });
  const page = await fetch(`${s.url}/studio/connect?${q}`, { headers: { cookie: owner.cookie } });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  const html = await page.text();
  for (const want of ['News site', `http://localhost:${site.port}`, 'assets:read', 'clips:read', 'eng@example.com', 'Approve']) expect(html).toContain(want);
  const he = await (await fetch(`${s.url}/studio/connect?${q}&lang=he`, { headers: { cookie: owner.cookie } })).text();
  expect(he).toContain('dir="rtl"');
  expect(he).toContain('אישור');
  const anon = await (await fetch(`${s.url}/studio/connect?${q}`)).text();
  expect(anon).toContain('Sign in to the studio first');
  expect(anon).not.toContain('id="approve"');
  const bad = await fetch(`${s.url}/studio/connect?${new URLSearchParams({ redirect_uri: 'http://evil.example/cb', state: 's', code_challenge: s256(verifier), code_challenge_method: 'S256', scope: 'assets:read' })}`, { headers: { cookie: owner.cookie } });
  expect(bad.status).toBe(400);
  expect(await bad.text()).toContain('plain http is allowed only for localhost');
});

test('connect flow: approve → redirect to the site with code and state → token → working scoped key → disconnect', async () => {
  const a = await owner.call('POST', '/v1/connect/authorize', ask());
  expect(a.status).toBe(200);
  const { redirect_to, expires_in } = await a.json() as { redirect_to: string; expires_in: number };
  expect(expires_in).toBe(60);
  // The browser follows the redirect to the site.
  expect((await fetch(redirect_to)).status).toBe(200);
  const got = received.at(-1)!;
  expect(got.pathname).toBe('/vs/callback');
  expect(got.searchParams.get('state')).toBe('st-123');
  const code = got.searchParams.get('code')!;
  // The site exchanges the code server to server.
  const tok = await s.api('POST', '/v1/connect/token', { code, code_verifier: verifier, redirect_uri: redirect }, { key: null });
  expect(tok.status).toBe(200);
  const { key, scopes, tenant } = await tok.json() as { key: string; scopes: string[]; tenant: string };
  expect(scopes.sort()).toEqual(['assets:read', 'clips:read']);
  expect(tenant).toBe('default');
  const me = await (await s.api('GET', '/v1/me', undefined, { key })).json() as { scopes: string[] };
  expect(me.scopes.sort()).toEqual(['assets:read', 'clips:read']);
  expect((await s.api('GET', '/v1/assets', undefined, { key })).status).toBe(200);
  expect((await s.api('GET', '/v1/api-keys', undefined, { key })).status).toBe(403);
  // Replay of the same code.
  const replay = await s.api('POST', '/v1/connect/token', { code, code_verifier: verifier, redirect_uri: redirect }, { key: null });
  expect(replay.status).toBe(400);
  expect((await replay.json() as { detail: string }).detail).toContain('already used');
  // The approval is audited.
  const log = await (await s.api('GET', '/v1/audit?action=connect.approved')).json() as { items: { actor: { kind: string; label: string }; details: { site: string } }[] };
  expect(log.items[0]).toMatchObject({ actor: { kind: 'user', label: 'eng@example.com' }, details: { site: `http://localhost:${site.port}` } });
  // Disconnect revokes the key.
  expect((await s.api('POST', '/v1/connect/disconnect', undefined, { key })).status).toBe(204);
  expect((await s.api('GET', '/v1/me', undefined, { key })).status).toBe(401);
});

test('PKCE refusals: wrong verifier burns the code, mismatched redirect_uri, expired code', async () => {
  const code = async () => new URL((await (await owner.call('POST', '/v1/connect/authorize', ask())).json() as { redirect_to: string }).redirect_to).searchParams.get('code')!;
  const c1 = await code();
  const wrong = await s.api('POST', '/v1/connect/token', { code: c1, code_verifier: 'w'.repeat(43), redirect_uri: redirect }, { key: null });
  expect(wrong.status).toBe(400);
  expect((await wrong.json() as { detail: string }).detail).toContain('code_verifier does not match');
  const after = await s.api('POST', '/v1/connect/token', { code: c1, code_verifier: verifier, redirect_uri: redirect }, { key: null });
  expect(after.status).toBe(400);
  const c2 = await code();
  const other = await s.api('POST', '/v1/connect/token', { code: c2, code_verifier: verifier, redirect_uri: redirect + '/x' }, { key: null });
  expect(other.status).toBe(400);
  expect((await other.json() as { detail: string }).detail).toContain('redirect_uri differs');
  const c3 = await code();
  clock.advance(61_000);
  const late = await s.api('POST', '/v1/connect/token', { code: c3, code_verifier: verifier, redirect_uri: redirect }, { key: null });
  expect(late.status).toBe(400);
  expect((await late.json() as { detail: string }).detail).toContain('expired');
});

test('authorize refusals: missing state, user info, fragment, http non-localhost, non-S256, scopes beyond the person, API key, no keys:manage', async () => {
  const cases: [Record<string, unknown>, number, string][] = [
    [{ state: '' }, 422, 'state'],
    [{ redirect_uri: `http://user:pw@localhost:${site.port}/cb` }, 422, 'user info'],
    [{ redirect_uri: `${redirect}#frag` }, 422, 'fragment'],
    [{ redirect_uri: 'http://news.example/cb' }, 422, 'plain http'],
    [{ redirect_uri: 'javascript:alert(1)' }, 422, 'https'],
    [{ code_challenge_method: 'plain' }, 422, 'S256'],
    [{ code_challenge: 'short' }, 422, 'code_challenge'],
    [{ scopes: ['tenant:settings'] }, 403, 'tenant:settings'],
    [{ scopes: ['nope:nope'] }, 422, 'unknown'],
  ];
  for (const [o, status, word] of cases) {
    const r = await owner.call('POST', '/v1/connect/authorize', ask(o));
    expect(r.status).toBe(status);
    expect((await r.json() as { detail: string }).detail).toContain(word);
  }
  const noState = { ...ask() } as Record<string, unknown>;
  delete noState.state;
  expect((await owner.call('POST', '/v1/connect/authorize', noState)).status).toBe(422);
  // An API key (even the owner's) never approves.
  const key = await s.api('POST', '/v1/connect/authorize', ask());
  expect(key.status).toBe(403);
  expect((await key.json() as { detail: string }).detail).toContain('only a signed-in person');
  // A person without keys:manage.
  const ed = await signIn(s, 'ed@example.com', 'editor passphrase');
  await ed.call('PUT', '/v1/me/tenant', { tenant: 'default' });
  expect((await ed.call('POST', '/v1/connect/authorize', ask({ scopes: ['assets:read'] }))).status).toBe(403);
  // CSRF header is required for the cookie write.
  expect((await owner.call('POST', '/v1/connect/authorize', ask(), { csrf: false })).status).toBe(403);
});

test('token endpoint: 10 requests per minute per IP, then 429 with Retry-After', async () => {
  let last: Response | null = null;
  for (let i = 0; i < 12; i++) {
    last = await s.api('POST', '/v1/connect/token', { code: `nope${i}`, code_verifier: verifier, redirect_uri: redirect }, { key: null });
    if (last.status === 429) break;
  }
  expect(last!.status).toBe(429);
  expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
});

test('consent page isolates right-to-left overrides in the site name: the words after it keep their order (Chromium)', async () => {
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ cookie: owner.cookie });
    // The order on screen of two words of the page's own sentence after the site's name: [first, second] left edges.
    const order = async (lang: 'en' | 'he', override: string, first: string, second: string) => {
      const q = new URLSearchParams({ redirect_uri: redirect, state: 'st-rtl', code_challenge: s256(verifier), code_challenge_method: 'S256', scope: 'assets:read', site_name: `${override}evil site`, lang });
      expect((await page.goto(`${s.url}/studio/connect?${q}`))!.status()).toBe(200);
      return page.evaluate(([a, b]) => {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const text = n.textContent ?? '';
          if (!text.includes(a) || !text.includes(b)) continue;
          const left = (w: string) => { const r = document.createRange(); r.setStart(n!, text.indexOf(w)); r.setEnd(n!, text.indexOf(w) + w.length); return r.getBoundingClientRect().left; };
          return [left(a), left(b)];
        }
        return null;
      }, [first, second] as const);
    };
    // English (left to right): a right-to-left override in the name must not turn "wants to connect" around.
    const [wants, connect] = (await order('en', '\u202E', 'wants', 'connect'))!;
    expect(wants).toBeLessThan(connect);
    // Hebrew (right to left): a left-to-right override must not turn "מבקש להתחבר" around.
    const [asks, join] = (await order('he', '\u202D', 'מבקש', 'להתחבר'))!;
    expect(asks).toBeGreaterThan(join);
    // Every piece of user text on the page is isolated: the site's name, its origin, the person and the tenant.
    const html = await page.content();
    for (const want of ['<bdi>\u202Devil site</bdi>', '<bdi>eng@example.com</bdi>', '<bdi>Default</bdi>']) expect(html).toContain(want);
  } finally { await browser.close(); }
}, 60_000);
