import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { PeopleService } from '../../src/features/people/service';
import { createMailer } from '../../src/kernel/mail';
import { identityService } from '../../src/features/identity/service';
import { signIn } from './people-helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: false });
  const def = identityService(s.ctx).tenant('default');
  await new PeopleService(s.ctx, createMailer(s.ctx.config, s.ctx.log)).createUser({ email: 'ed@example.com', password: 'editor passphrase one', tenantId: def.id, role: 'editor' });
}, 60_000);
afterAll(() => s?.stop(), 60_000);

const get = (path: string, headers: Record<string, string> = {}) => fetch(s.url + path, { headers, redirect: 'manual' });

test('signed out: / and studio pages redirect to sign-in (with where they were going); the sign-in page itself loads', async () => {
  const root = await get('/');
  expect(root.status).toBe(302);
  expect(root.headers.get('location')).toBe('/studio/sign-in');
  const lib = await get('/studio/library');
  expect(lib.status).toBe(302);
  expect(lib.headers.get('location')).toBe('/studio/sign-in?next=%2Fstudio%2Flibrary');
  expect((await get('/', { cookie: 'vs_session=not-a-session' })).headers.get('location')).toBe('/studio/sign-in');
  const page = await get('/studio/sign-in');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  // The e-mailed link pages of the people feature are still theirs.
  expect(await (await get('/studio/reset?token=x')).text()).toContain('/v1/password-reset/confirm');
});

test('signed in: / goes to the studio, pages answer the app in the saved language; the API still needs the CSRF header', async () => {
  const st = await signIn(s, 'ed@example.com', 'editor passphrase one');
  const root = await get('/', { cookie: st.cookie });
  expect(root.headers.get('location')).toBe('/studio/');
  const html = await (await get('/studio/library', { cookie: `${st.cookie}; vs_lang=he` })).text();
  expect(html).toContain('<html lang="he" dir="rtl">');
  expect(await (await get('/studio/', { cookie: st.cookie, 'accept-language': 'en' })).text()).toContain('dir="ltr"');
  expect((await get('/studio', { cookie: st.cookie })).headers.get('location')).toBe('/studio/');
  // No bypass: serving the app grants nothing; a write without the CSRF header is refused.
  const noCsrf = await st.call('POST', '/v1/channels', { name: 'x' }, { csrf: false });
  expect(noCsrf.status).toBe(403);
});

test('bundle: hashed files with ETag, gzip when asked, 304 on If-None-Match, immutable caching; unknown names answer a 404 problem', async () => {
  const html = await (await get('/studio/sign-in')).text();
  const js = /src="\/studio\/assets\/(studio-[^"]+\.js)"/.exec(html)![1];
  const css = /href="\/studio\/assets\/(studio-[^"]+\.css)"/.exec(html)![1];
  const plain = await get(`/studio/assets/${js}`, { 'accept-encoding': 'identity' });
  expect(plain.status).toBe(200);
  expect(plain.headers.get('content-type')).toContain('text/javascript');
  expect(plain.headers.get('content-encoding')).toBeNull();
  expect(plain.headers.get('cache-control')).toContain('immutable');
  const body = await plain.arrayBuffer();
  const etag = plain.headers.get('etag')!;
  expect(etag).toMatch(/^"[^"]+"$/);
  const gz = await fetch(`${s.url}/studio/assets/${js}`, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit);
  expect(gz.headers.get('content-encoding')).toBe('gzip');
  const zipped = new Uint8Array(await gz.arrayBuffer());
  expect(zipped.length).toBeLessThan(body.byteLength);
  expect(Bun.gunzipSync(zipped).byteLength).toBe(body.byteLength);
  expect((await get(`/studio/assets/${js}`, { 'if-none-match': etag })).status).toBe(304);
  expect((await get(`/studio/assets/${css}`)).headers.get('content-type')).toContain('text/css');
  const missing = await get('/studio/assets/nope.js');
  expect(missing.status).toBe(404);
  expect(missing.headers.get('content-type')).toContain('application/problem+json');
});
