import { afterAll, beforeAll, expect, test } from 'bun:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server';

/** Generated hostile input against the running appliance, and custom domains verified over HTTP on this machine. */
let s: TestServer;
let token = '';
const owner = Bun.serve({ hostname: '::', port: 0, fetch: (r) => (new URL(r.url).pathname === '/.well-known/viewstream-site.txt' ? new Response(token) : new Response('no', { status: 404 })) });
let siteId = '';
let pageId = '';
beforeAll(async () => {
  s = await startTestServer({ workers: false, env: { VS_SITES_VERIFY_PORT: String(owner.port), VS_PRIVATE_ALLOWLIST: '127.0.0.0/8,::1/128' } });
  siteId = ((await (await s.api('POST', '/v1/sites', { slug: 'web', name: 'Web' })).json()) as { id: string }).id;
  pageId = ((await (await s.api('POST', `/v1/sites/${siteId}/pages`, { path: '/', title: 'Home', sections: [{ type: 'rail', item_type: 'video' }, { type: 'epg' }, { type: 'live_player', channel: 'none' }] })).json()) as { id: string }).id;
  await s.api('POST', `/v1/sites/${siteId}/pages/${pageId}/publish`);
});
afterAll(async () => { await s.stop(); owner.stop(true); });

const ok = new Set([200, 304, 403, 404, 422]);
const check = async (path: string, headers: Record<string, string> = {}) => {
  const r = await fetch(`${s.url}${path}`, { headers });
  const body = await r.text();
  // A request target the server itself refuses (an encoded NUL, an empty segment) is 400 before any route: still a problem, no-store.
  if (r.status === 400 && r.headers.get('x-vs-sites-api') === null) { expect(r.headers.get('cache-control')).toBe('no-store'); return 400; }
  // Dot segments are resolved by the client: a path that left /s/v1 is not this API's (a plain 404).
  if (!new URL(s.url + path).pathname.startsWith('/s/v1/')) { expect(r.status).toBe(404); return 404; }
  expect(`${r.status} ${path}`).toBe(`${ok.has(r.status) ? r.status : 'bad'} ${path}`);
  expect(r.headers.get('x-vs-sites-api')).toBe('1');
  if (r.status >= 400) {
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect((JSON.parse(body) as { type: string }).type).toMatch(/\/[a-z]+(-[a-z]+)*$/);
  }
  return r.status;
};
const seg = fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('web', '..', '%2e%2e', '_host', 'WEB', 'web%00', '\u05d0', 'a'.repeat(300)));
const enc = (x: string) => encodeURIComponent(x);

test('generated: site slugs, entity types and slugs, ?path=, q, preview tokens, cursors and counts never give a 500', async () => {
  await fc.assert(fc.asyncProperty(seg, seg, seg, async (a, b, c) => {
    await check(`/s/v1/${enc(a)}/config`);
    await check(`/s/v1/web/entities/${enc(b)}/${enc(c)}`);
    await check(`/s/v1/web/route?path=${enc(b)}`);
    await check(`/s/v1/web/route?path=${enc(`/${b}/${c}`)}`);
    await check(`/s/v1/web/pages/${enc(b)}?preview=${enc(c)}`);
    await check(`/s/v1/web/pages/${pageId}?preview=${enc(c)}&sections=${enc(a)}&entity=${enc(`${b}:${c}`)}`);
    await check(`/s/v1/web/pages/${pageId}/sections?cursor=${enc(b)}&count=${enc(c)}`);
    await check(`/s/v1/web/search?q=${enc(b)}&type=${enc(c)}&cursor=${enc(a)}`);
    await check(`/s/v1/web/suggest?q=${enc(b)}`);
    await check(`/s/v1/web/epg?channel=${enc(b)}&day=${enc(c)}`);
    await check(`/s/v1/web/podcast/${enc(b)}/feed.xml`);
    await check(`/s/v1/web/images/${enc(b)}/${enc(c)}`);
    await check(`/s/v1/web/sitemap/${enc(b)}`);
    await check(`/s/v1/_host?hostname=${enc(b)}`);
  }), { numRuns: 60 });
  // Every entity type, known or not, with a slug that does not exist: 404.
  for (const t of ['show', 'video', 'clip', 'programme', 'channel', 'person', 'article', 'category']) expect(await check(`/s/v1/web/entities/${t}/nope`)).toBe(404);
  // The page answers (its sections resolve over an empty catalogue).
  expect(await check(`/s/v1/web/pages/${pageId}`)).toBe(200);
});

test('hostile management input: unknown fields 400, wrong types 422, another tenant 404', async () => {
  expect((await s.api('POST', `/v1/sites/${siteId}/pages`, { path: '/x', title: 'x', sections: [{ type: 'rail', bogus: 1 }] })).status).toBe(400);
  expect((await s.api('POST', `/v1/sites/${siteId}/pages`, { path: 'no-slash', title: 'x' })).status).toBe(422);
  expect((await s.api('POST', `/v1/sites/${siteId}/pages`, { path: '/x', title: 5 })).status).toBe(422);
  expect((await s.api('POST', `/v1/sites/${siteId}/routes`, { path: '/r', kind: 'redirect', location: 'javascript:alert(1)' })).status).toBe(422);
  expect((await s.api('POST', `/v1/sites/${siteId}/routes`, { path: '/r', kind: 'route', page_id: 'missing' })).status).toBe(422);
  expect((await s.api('POST', `/v1/sites/${siteId}/domains`, { hostname: 'Bad Host' })).status).toBe(422);
  const t2 = (await (await s.api('POST', '/v1/api-keys', { scopes: ['sites:read'] })).json()) as { key: string };
  expect(t2.key).toBeString();
  // A second tenant's owner sees none of this tenant's sites.
  const other = Bun.spawnSync(['bun', 'src/main.ts', 'tenant', 'create', '--name', 'Other', '--slug', 'other', '--json', '--data', s.dataDir]);
  expect(other.exitCode).toBe(0);
  {
    const k = Bun.spawnSync(['bun', 'src/main.ts', 'key', 'create', '--tenant', 'other', '--role', 'owner', '--json', '--data', s.dataDir]);
    const key = (JSON.parse(k.stdout.toString()) as { key: string }).key;
    expect((await s.api('GET', `/v1/sites/${siteId}`, undefined, { key })).status).toBe(404);
    expect((await s.api('POST', `/v1/sites/${siteId}/pages`, { path: '/y', title: 'y' }, { key })).status).toBe(404);
  }
});

test('custom domain: pending until the token is served over HTTP; then CORS allows it and /s/v1/_host maps it', async () => {
  const add = await s.api('POST', `/v1/sites/${siteId}/domains`, { hostname: 'localhost' });
  expect(add.status).toBe(201);
  const d = await add.json() as { verified: boolean; verification: { token: string; http: { url: string } } };
  expect(d.verified).toBe(false);
  expect(d.verification.http.url).toBe(`http://localhost:${owner.port}/.well-known/viewstream-site.txt`);
  const origin = `http://localhost:${owner.port}`;
  expect((await fetch(`${s.url}/s/v1/web/config`, { headers: { origin } })).headers.get('access-control-allow-origin')).toBeNull();
  expect((await fetch(`${s.url}/s/v1/_host?hostname=localhost`)).status).toBe(404);
  // Wrong token served: 422 saying so.
  token = 'wrong';
  const no = await s.api('POST', `/v1/sites/${siteId}/domains/localhost/verify`, {});
  expect(no.status).toBe(422);
  expect(((await no.json()) as { detail: string }).detail).toContain('without the token');
  token = d.verification.token;
  const yes = await s.api('POST', `/v1/sites/${siteId}/domains/localhost/verify`, {});
  expect(yes.status).toBe(200);
  expect(((await yes.json()) as { verified: boolean }).verified).toBe(true);
  const r = await fetch(`${s.url}/s/v1/web/config`, { headers: { origin } });
  expect(r.headers.get('access-control-allow-origin')).toBe(origin);
  expect(r.headers.get('vary')).toContain('Origin');
  const pre = await fetch(`${s.url}/s/v1/web/config`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' } });
  expect(pre.status).toBe(204);
  expect(pre.headers.get('access-control-allow-headers')).toContain('If-None-Match');
  expect(await (await fetch(`${s.url}/s/v1/_host?hostname=localhost`)).json()).toMatchObject({ hostname: 'localhost', site: 'web' });
  // Another site cannot take the host name; the other site's origin check does not accept it.
  const other = ((await (await s.api('POST', '/v1/sites', { slug: 'web2', name: 'Web 2' })).json()) as { id: string }).id;
  expect((await s.api('POST', `/v1/sites/${other}/domains`, { hostname: 'localhost' })).status).toBe(409);
  expect((await fetch(`${s.url}/s/v1/web2/config`, { headers: { origin } })).headers.get('access-control-allow-origin')).toBeNull();
  // Removing the domain ends both.
  expect((await s.api('DELETE', `/v1/sites/${siteId}/domains/localhost`)).status).toBe(204);
  expect((await fetch(`${s.url}/s/v1/_host?hostname=localhost`)).status).toBe(404);
});
