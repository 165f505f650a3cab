import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
const keys: Record<string, string> = {};
beforeAll(async () => {
  s = await startTestServer({ workers: false });
  for (const scopes of [['sites:read'], ['sites:read', 'sites:write'], ['sites:read', 'sites:write', 'sites:publish'], ['sites:read', 'sites:write', 'sites:publish', 'sites:admin']]) {
    const r = await s.api('POST', '/v1/api-keys', { scopes, name: scopes.at(-1) });
    expect(r.status).toBe(201);
    keys[scopes.at(-1)!.split(':')[1]!] = ((await r.json()) as { key: string }).key;
  }
});
afterAll(() => s.stop());

const call = async (key: string, method: string, path: string, body?: unknown) => {
  const r = await s.api(method, path, body, { key });
  return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? await r.json() as any : await r.text(), headers: r.headers };
};
const pub = (path: string, headers: Record<string, string> = {}) => fetch(`${s.url}/s/v1${path}`, { headers });

test('scopes: read reads, write edits drafts, publish publishes, admin creates sites, routes, domains and CSS', async () => {
  expect((await call(keys.write!, 'POST', '/v1/sites', { slug: 'news', name: 'News' })).status).toBe(403);
  const site = await call(keys.admin!, 'POST', '/v1/sites', { slug: 'news', name: 'חדשות', settings: { ai_crawler_mode: 'block_training' } });
  expect(site.status).toBe(201);
  expect(site.body.time_zone).toBe('Asia/Jerusalem');
  const id = site.body.id as string;
  expect((await call(keys.admin!, 'POST', '/v1/sites', { slug: 'news', name: 'again' })).status).toBe(409);
  expect((await call(keys.admin!, 'POST', '/v1/sites', { slug: 'x', name: 'y', extra: 1 })).status).toBe(400);
  expect((await call(keys.admin!, 'POST', '/v1/sites', { slug: 'Bad Slug', name: 'y' })).status).toBe(422);
  expect((await call(keys.admin!, 'POST', '/v1/sites', { slug: 'tz', name: 'y', time_zone: 'Mars/Base' })).status).toBe(422);
  expect((await call(keys.read!, 'GET', `/v1/sites/${id}`)).status).toBe(200);
  expect((await call(keys.read!, 'GET', '/v1/sites/00000000-0000-0000-0000-000000000000')).status).toBe(404);
  expect((await s.api('GET', `/v1/sites/${id}`, undefined, { key: null })).status).toBe(401);
  // Theme: tokens need sites:write, CSS sites:admin, publishing sites:publish.
  expect((await call(keys.read!, 'PUT', `/v1/sites/${id}/theme`, { tokens: { 'color.primary': '#c00' } })).status).toBe(403);
  expect((await call(keys.write!, 'PUT', `/v1/sites/${id}/theme`, { tokens: { 'color.primary': '#c00' } })).status).toBe(200);
  expect((await call(keys.write!, 'PUT', `/v1/sites/${id}/theme`, { css: 'body{}' })).status).toBe(403);
  expect((await call(keys.admin!, 'PUT', `/v1/sites/${id}/theme`, { css: 'body{color:red}' })).status).toBe(200);
  expect((await call(keys.write!, 'POST', `/v1/sites/${id}/theme/publish`)).status).toBe(403);
  expect((await call(keys.publish!, 'POST', `/v1/sites/${id}/theme/publish`)).status).toBe(200);
  // Pages: write creates drafts, publish publishes; path clash 409.
  const page = await call(keys.write!, 'POST', `/v1/sites/${id}/pages`, { path: '/', title: 'בית', sections: [{ type: 'text', text: 'שלום' }] });
  expect(page.status).toBe(201);
  expect((await call(keys.write!, 'POST', `/v1/sites/${id}/pages`, { path: '/', title: 'again' })).status).toBe(409);
  expect((await call(keys.write!, 'POST', `/v1/sites/${id}/pages`, { title: 'neither' })).status).toBe(422);
  expect((await call(keys.write!, 'POST', `/v1/sites/${id}/pages/${page.body.id}/publish`)).status).toBe(403);
  expect((await call(keys.publish!, 'POST', `/v1/sites/${id}/pages/${page.body.id}/publish`)).status).toBe(200);
  // Routes are sites:admin; a path a page has is 409.
  expect((await call(keys.publish!, 'POST', `/v1/sites/${id}/routes`, { path: '/old', kind: 'redirect', location: '/' })).status).toBe(403);
  expect((await call(keys.admin!, 'POST', `/v1/sites/${id}/routes`, { path: '/', kind: 'redirect', location: '/x' })).status).toBe(409);
  expect((await call(keys.admin!, 'POST', `/v1/sites/${id}/routes`, { path: '/old', kind: 'redirect', location: '/' })).status).toBe(201);
  // Shows: write creates, publishing needs sites:publish; slug clash 409.
  expect((await call(keys.write!, 'POST', `/v1/sites/${id}/shows`, { slug: 'ulpan', title: 'אולפן', published: true })).status).toBe(403);
  expect((await call(keys.write!, 'POST', `/v1/sites/${id}/shows`, { slug: 'ulpan', title: 'אולפן' })).status).toBe(201);
  expect((await call(keys.write!, 'POST', `/v1/sites/${id}/shows`, { slug: 'ulpan', title: 'אולפן' })).status).toBe(409);
  expect((await call(keys.publish!, 'PATCH', `/v1/sites/${id}/shows/ulpan`, { published: true })).status).toBe(200);
  // Another tenant's key sees none of it.
  const other = await s.api('POST', '/v1/api-keys', { role: 'owner', name: 'o' });
  expect(other.status).toBe(201);
});

test('pages: draft stays private until published; versions, rollback, preview tokens, scheduled publish', async () => {
  const site = (await call(keys.admin!, 'POST', '/v1/sites', { slug: 'tv', name: 'TV' })).body;
  const p = (await call(keys.write!, 'POST', `/v1/sites/${site.id}/pages`, { path: '/about', title: 'v1', sections: [{ type: 'text', text: 'one' }] })).body;
  expect((await pub(`/tv/pages/${p.id}`)).status).toBe(404);
  expect((await (await pub('/tv/route?path=/about')).json() as any).kind).toBe('not_found');
  await call(keys.publish!, 'POST', `/v1/sites/${site.id}/pages/${p.id}/publish`);
  expect(await (await pub('/tv/route?path=/about')).json()).toEqual({ kind: 'page', page_id: p.id });
  await call(keys.write!, 'PATCH', `/v1/sites/${site.id}/pages/${p.id}`, { title: 'v2' });
  let live = await pub(`/tv/pages/${p.id}`);
  expect((await live.json() as any).title).toBe('v1');
  // Preview: a token opens the draft, private and uncached; a wrong token is refused.
  const tok = (await call(keys.write!, 'POST', `/v1/sites/${site.id}/preview-tokens`, { page_id: p.id })).body;
  const pv = await pub(`/tv/pages/${p.id}?preview=${tok.token}`);
  expect(pv.status).toBe(200);
  expect(pv.headers.get('cache-control')).toBe('private, no-store');
  expect((await pv.json() as any).title).toBe('v2');
  const bad = await pub(`/tv/pages/${p.id}?preview=vsp_${'A'.repeat(32)}`);
  expect(bad.status).toBe(403);
  expect(bad.headers.get('cache-control')).toBe('no-store');
  await call(keys.write!, 'DELETE', `/v1/sites/${site.id}/preview-tokens/${tok.id}`);
  expect((await pub(`/tv/pages/${p.id}?preview=${tok.token}`)).status).toBe(403);
  // Publish v2, roll back to v1 (a new version 3).
  await call(keys.publish!, 'POST', `/v1/sites/${site.id}/pages/${p.id}/publish`);
  const rb = await call(keys.publish!, 'POST', `/v1/sites/${site.id}/pages/${p.id}/rollback`, { version: 1 });
  expect(rb.body.live_version).toBe(3);
  expect(rb.body.live.title).toBe('v1');
  const hist = (await call(keys.read!, 'GET', `/v1/sites/${site.id}/pages/${p.id}/versions`)).body;
  expect(hist.items.map((v: any) => v.version)).toEqual([3, 2, 1]);
  expect((await call(keys.publish!, 'POST', `/v1/sites/${site.id}/pages/${p.id}/rollback`, { version: 9 })).status).toBe(404);
  // A scheduled publish 20 s ahead: s-maxage ends at that moment (not 30).
  await call(keys.write!, 'PATCH', `/v1/sites/${site.id}/pages/${p.id}`, { title: 'v4' });
  const at = new Date(Date.now() + 20_000).toISOString();
  const sc = await call(keys.publish!, 'POST', `/v1/sites/${site.id}/pages/${p.id}/publish`, { at });
  expect(sc.body.schedule.action).toBe('publish');
  live = await pub(`/tv/pages/${p.id}`);
  const age = Number(/s-maxage=(\d+)/.exec(live.headers.get('cache-control')!)![1]);
  expect(age).toBeGreaterThan(0);
  expect(age).toBeLessThanOrEqual(20);
  expect((await live.json() as any).title).toBe('v1');
});

test('delivery caching: headers, strong ETag and 304, Cache-Tag, CORS only for verified hosts and the studio, problems', async () => {
  const site = (await call(keys.admin!, 'POST', '/v1/sites', { slug: 'radio', name: 'Radio' })).body;
  const r = await pub('/radio/config');
  expect(r.status).toBe(200);
  expect(r.headers.get('cache-control')).toBe('public, s-maxage=30, stale-while-revalidate=300, stale-if-error=86400');
  expect(r.headers.get('x-vs-sites-api')).toBe('1');
  const etag = r.headers.get('etag')!;
  expect(etag).toMatch(/^"[^"]+"$/);
  expect(r.headers.get('cache-tag')).toContain('site-radio');
  const cfg = await r.json() as any;
  expect(cfg.player.tenant).toBe('default');
  expect(cfg.time_zone).toBe('Asia/Jerusalem');
  const nm = await pub('/radio/config', { 'if-none-match': etag });
  expect(nm.status).toBe(304);
  expect(await nm.text()).toBe('');
  expect(nm.headers.get('etag')).toBe(etag);
  // A change gives a new ETag.
  await call(keys.admin!, 'PATCH', `/v1/sites/${site.id}`, { name: 'Radio 2' });
  const r2 = await pub('/radio/config', { 'if-none-match': etag });
  expect(r2.status).toBe(200);
  expect(r2.headers.get('etag')).not.toBe(etag);
  // CORS: the studio origin yes, an unknown origin no.
  const studio = new URL(s.url).origin;
  expect((await pub('/radio/config', { origin: studio })).headers.get('access-control-allow-origin')).toBe(studio);
  expect((await pub('/radio/config', { origin: 'https://evil.example' })).headers.get('access-control-allow-origin')).toBeNull();
  // robots and sitemaps have their own lifetimes.
  expect((await pub('/radio/robots')).headers.get('cache-control')).toContain('s-maxage=3600');
  expect((await pub('/radio/sitemap/index.xml')).headers.get('cache-control')).toContain('s-maxage=600');
  // Problems: hyphenated type, no-store.
  const nf = await pub('/nope/config');
  expect(nf.status).toBe(404);
  expect(nf.headers.get('cache-control')).toBe('no-store');
  expect(nf.headers.get('content-type')).toBe('application/problem+json');
  expect(((await nf.json()) as any).type).toEndWith('/not-found');
  const bad = await pub('/radio/route?path=nope');
  expect(bad.status).toBe(422);
  expect(((await bad.json()) as any).type).toEndWith('/unprocessable-content');
  // Suspended: 404.
  await call(keys.admin!, 'PATCH', `/v1/sites/${site.id}`, { status: 'suspended' });
  expect((await pub('/radio/config')).status).toBe(404);
});

test('route order: redirects, page paths, the route table, built-in paths', async () => {
  const site = (await call(keys.admin!, 'POST', '/v1/sites', { slug: 'order', name: 'Order' })).body;
  const pg = (await call(keys.write!, 'POST', `/v1/sites/${site.id}/pages`, { path: '/show/special', title: 'special' })).body;
  await call(keys.publish!, 'POST', `/v1/sites/${site.id}/pages/${pg.id}/publish`);
  const art = (await call(keys.write!, 'POST', `/v1/sites/${site.id}/pages`, { path: '/articles', title: 'articles' })).body;
  await call(keys.publish!, 'POST', `/v1/sites/${site.id}/pages/${art.id}/publish`);
  await call(keys.admin!, 'POST', `/v1/sites/${site.id}/routes`, { path: '/news/:slug', kind: 'route', page_id: art.id });
  await call(keys.admin!, 'POST', `/v1/sites/${site.id}/routes`, { path: '/show/gone', kind: 'redirect', location: '/', status: 308 });
  await call(keys.write!, 'POST', `/v1/sites/${site.id}/shows`, { slug: 'gone', title: 'Gone' });
  await call(keys.publish!, 'PATCH', `/v1/sites/${site.id}/shows/gone`, { published: true });
  await call(keys.write!, 'POST', `/v1/sites/${site.id}/shows`, { slug: 'daily', title: 'Daily' });
  await call(keys.publish!, 'PATCH', `/v1/sites/${site.id}/shows/daily`, { published: true });
  const route = async (p: string) => (await pub(`/order/route?path=${encodeURIComponent(p)}`)).json() as Promise<any>;
  expect(await route('/show/gone')).toEqual({ kind: 'redirect', redirect: { location: '/', status: 308 } });
  expect(await route('/show/special')).toEqual({ kind: 'page', page_id: pg.id });
  expect(await route('/news/x1')).toEqual({ kind: 'page', page_id: art.id, params: { slug: 'x1' } });
  expect(await route('/show/daily')).toEqual({ kind: 'template', template_for: 'show', entity: { type: 'show', slug: 'daily' } });
  expect((await route('/show/unknown')).kind).toBe('not_found');
  expect((await route('/search')).template_for).toBe('search');
  expect((await route('/epg')).template_for).toBe('epg');
  const show = await (await pub('/order/entities/show/daily')).json() as any;
  expect(show.title).toBe('Daily');
  expect(show.url).toBe('/show/daily');
});

test('sites switched off on the deployment: every /s/v1 route answers 503', async () => {
  const off = await startTestServer({ workers: false, env: { VS_SITES: 'off' } });
  try {
    for (const p of ['/s/v1/any/config', '/s/v1/_host?hostname=a.example', '/s/v1/any/unknown/path']) {
      const r = await fetch(off.url + p);
      expect(r.status).toBe(503);
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
  } finally { await off.stop(); }
});

test('the native delivery front passes /s/v1 through: same body, caching headers, 304', async () => {
  const f = await startTestServer({ workers: false, env: { VS_DELIVERY_FRONT_PORT: '0' } });
  try {
    expect((await f.api('POST', '/v1/sites', { slug: 'front', name: 'Front' })).status).toBe(201);
    const direct = await fetch(`${f.url}/s/v1/front/config`);
    const via = await fetch(`http://127.0.0.1:${f.front!.port}/s/v1/front/config`);
    expect(via.status).toBe(200);
    expect(via.headers.get('x-vs-sites-api')).toBe('1');
    expect(via.headers.get('cache-control')).toBe('public, s-maxage=30, stale-while-revalidate=300, stale-if-error=86400');
    expect(await via.text()).toBe(await direct.text());
    const etag = via.headers.get('etag')!;
    expect(etag).toBe(direct.headers.get('etag')!);
    expect((await fetch(`http://127.0.0.1:${f.front!.port}/s/v1/front/config`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(`http://127.0.0.1:${f.front!.port}/s/v1/nope/config`)).status).toBe(404);
  } finally { await f.stop(); }
});

test('a scheduled publish goes live at its moment (applied on the next read)', async () => {
  const site = (await call(keys.admin!, 'POST', '/v1/sites', { slug: 'sched', name: 'Sched' })).body;
  const p = (await call(keys.write!, 'POST', `/v1/sites/${site.id}/pages`, { path: '/', title: 'later' })).body;
  const at = Date.now() + 2000;
  await call(keys.publish!, 'POST', `/v1/sites/${site.id}/pages/${p.id}/publish`, { at: new Date(at).toISOString() });
  expect((await pub(`/sched/pages/${p.id}`)).status).toBe(404);
  const { waitFor } = await import('../helpers/server');
  const live = await waitFor('scheduled publish', async () => { const r = await pub(`/sched/pages/${p.id}`); return r.status === 200 ? r.json() as Promise<any> : null; }, 10_000, 100);
  expect(Date.now()).toBeGreaterThanOrEqual(at);
  expect(live.title).toBe('later');
  expect(live.version).toBe(1);
  // A scheduled unpublish takes it down the same way.
  await call(keys.publish!, 'POST', `/v1/sites/${site.id}/pages/${p.id}/unpublish`, { at: new Date(Date.now() + 1500).toISOString() });
  await waitFor('scheduled unpublish', async () => (await pub(`/sched/pages/${p.id}`)).status === 404, 10_000, 100);
});
