import { afterAll, beforeAll, expect, test } from 'bun:test';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { firstOwnerLink } from '../../src/features/team/service';
import { identityService } from '../../src/features/identity/service';
import { s256 } from '../../src/features/connect/redirect';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
let s: TestServer;
let browser: Browser;
let site: ReturnType<typeof Bun.serve>;
const hits: URL[] = [];

beforeAll(async () => {
  s = await startTestServer({ workers: false });
  site = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (r) => { hits.push(new URL(r.url)); return new Response('<p id="site">connected</p>', { headers: { 'content-type': 'text/html' } }); } });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, timeout: 30_000 });
}, 60_000);
afterAll(async () => { await browser?.close(); site?.stop(true); await s?.stop(); });

test('in a browser: first-owner link → owner signed in → consent page → Approve → the site gets a code → scoped key', async () => {
  const def = identityService(s.ctx).tenant('default');
  const link = (await firstOwnerLink(s.ctx, def.id, def.name))!;
  const page = await browser.newPage();
  await page.goto(link);
  await page.fill('#email', 'first@example.com');
  await page.fill('#name', 'First Owner');
  await page.fill('#password', 'short');
  await page.click('#go');
  await page.waitForSelector('text=too short');
  await page.fill('#password', 'studio keeper passphrase');
  await page.click('#go');
  await page.waitForSelector('text=Done');
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'vs_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

  const verifier = 'x'.repeat(50);
  const redirect = `http://127.0.0.1:${site.port}/cb`;
  const q = new URLSearchParams({ redirect_uri: redirect, state: 'abc', code_challenge: s256(verifier), code_challenge_method: 'S256', scope: 'assets:read', site_name: 'Local site' });
  await page.goto(`${s.url}/studio/connect?${q}`);
  expect(await page.textContent('#person')).toBe('first@example.com');
  expect(await page.textContent('#scopes')).toContain('assets:read');
  await page.click('#approve');
  await page.waitForSelector('#site');
  const got = (await waitFor('the site callback', () => hits.find((h) => h.pathname === '/cb')))!;
  expect(got.searchParams.get('state')).toBe('abc');
  const tok = await s.api('POST', '/v1/connect/token', { code: got.searchParams.get('code'), code_verifier: verifier, redirect_uri: redirect }, { key: null });
  expect(tok.status).toBe(200);
  const { key } = await tok.json() as { key: string };
  const me = await (await s.api('GET', '/v1/me', undefined, { key })).json() as { scopes: string[] };
  expect(me.scopes).toEqual(['assets:read']);
  await page.close();
}, 90_000);
