/**
 * Library imports (issue 47) against a local website: a sitemap index naming a Google video sitemap (two real mp4s
 * made by ffmpeg, one player-only entry, a page without video), a page sitemap and a broken child; review, deselect,
 * start, assets ready, a second import of the same index skips them. Hostile: private URL without allowlist,
 * malformed XML, a file over the size limit, non-sitemap XML, bad bodies, other tenant, scopes.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { identityService } from '../../src/features/identity/service';
import { defaultTenant, makeClip } from './transcode-helpers';
import { resumeImports } from '../../src/features/imports/service';
import { ImportStore } from '../../src/features/imports/store';

const dir = mkdtempSync(join(tmpdir(), 'vs-imports-'));
let s: TestServer;
let site: ReturnType<typeof Bun.serve>;
const clips: Record<string, Uint8Array> = {};
const j = (r: Response): Promise<any> => r.json();
const base = () => `http://127.0.0.1:${site.port}`;
/** A gate the site's /slow.xml waits on (the reading in flight across a restart). */
let slowGate = Promise.withResolvers<void>();
let slowHits = 0;

/** Creates an import (202, `fetching`) and waits until its reading is over: the import in review (with its first page of items) or failed. */
async function createRead(srv: TestServer, url: string, key?: string): Promise<any> {
  const r = await srv.api('POST', '/v1/library/imports', { url }, key ? { key } : undefined);
  expect(r.status).toBe(202);
  const created = await j(r);
  expect(created.status).toBe('fetching');
  const imp = await waitFor('import read', async () => { const v = await j(await srv.api('GET', `/v1/library/imports/${created.id}`, undefined, key ? { key } : undefined)); return v.status !== 'fetching' && v; }, 30_000);
  if (imp.status !== 'review') return imp;
  return { ...imp, ...(await j(await srv.api('GET', `/v1/library/imports/${created.id}/items`, undefined, key ? { key } : undefined))) };
}

const videoSitemap = () => `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
  <url><loc>${base()}/watch/one?list=a&amp;x=1#top</loc>
    <video:video><video:thumbnail_loc>${base()}/t/one.jpg</video:thumbnail_loc><video:title>First &amp; שלום</video:title>
      <video:description>one</video:description><video:content_loc>${base()}/media/one.mp4</video:content_loc><video:duration>2</video:duration></video:video></url>
  <url><loc>${base()}/watch/two</loc>
    <video:video><video:thumbnail_loc>${base()}/t/two.jpg</video:thumbnail_loc><video:title>Second</video:title>
      <video:description>two</video:description><video:content_loc>${base()}/media/two.mp4</video:content_loc></video:video></url>
  <url><loc>${base()}/watch/embed</loc>
    <video:video><video:thumbnail_loc>${base()}/t/e.jpg</video:thumbnail_loc><video:title>Embedded only</video:title>
      <video:description>e</video:description><video:player_loc>${base()}/player/e</video:player_loc></video:video></url>
  <url><loc>${base()}/about</loc></url>
</urlset>`;
const index = () => `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>${base()}/sitemap-videos.xml</loc></sitemap>
  <sitemap><loc>${base()}/sitemap-pages.xml</loc></sitemap>
  <sitemap><loc>${base()}/broken.xml</loc></sitemap>
</sitemapindex>`;
const pages = () => `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base()}/contact</loc></url></urlset>`;

beforeAll(async () => {
  s = await startTestServer({ env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  for (const n of ['one', 'two']) clips[n] = readFileSync(await makeClip(join(dir, `${n}.mp4`), { seconds: 2, size: '160x90' }));
  site = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    fetch(req) {
      const p = new URL(req.url).pathname;
      const xml = (body: string) => new Response(body, { headers: { 'content-type': 'application/xml' } });
      if (p === '/sitemap.xml') return xml(index());
      if (p === '/slow.xml') { slowHits++; return slowGate.promise.then(() => xml(videoSitemap())); }
      if (p === '/sitemap-videos.xml') return xml(videoSitemap());
      if (p === '/sitemap-pages.xml') return xml(pages());
      if (p === '/broken.xml' || p === '/bad.xml') return xml('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>x</loc></urlset>');
      if (p === '/feed.rss') return xml(`<?xml version="1.0"?><rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>Feed</title>
        <item><title><![CDATA[Feed <one>]]></title><link>${base()}/watch/feed-one</link><media:content url="${base()}/media/one.mp4" type="video/mp4" duration="2"/><media:thumbnail url="${base()}/t/f.jpg"/></item>
        <item><title>Audio only</title><link>${base()}/watch/audio</link><enclosure url="${base()}/a.mp3" type="audio/mpeg" length="1"/></item>
        <item><title>Enclosed</title><link>${base()}/watch/two</link><enclosure url="${base()}/media/two.mp4" type="video/mp4" length="1"/></item>
      </channel></rss>`);
      if (p === '/many.xml') return xml(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${'<url><loc>https://example.com/p</loc></url>'.repeat(50_001)}</urlset>`);
      if (p === '/html.xml') return xml('<html><body>not a sitemap</body></html>');
      if (p === '/huge.xml') {
        // 51 MB streamed without a length: the fetcher stops at 50 MB.
        let sent = 0;
        const chunk = new Uint8Array(1024 * 1024).fill(0x20);
        return new Response(new ReadableStream({ pull(c) { if (sent++ < 51) c.enqueue(chunk); else c.close(); } }), { headers: { 'content-type': 'application/xml' } });
      }
      const m = p.match(/^\/media\/(one|two)\.mp4$/);
      if (m) return new Response(clips[m[1]!] as BodyInit, { headers: { 'content-type': 'video/mp4' } });
      return new Response('no', { status: 404 });
    },
  });
}, 60_000);
afterAll(async () => { site.stop(true); await s.stop(); rmSync(dir, { recursive: true, force: true }); });

test('sitemap index → review → deselect → start → assets ready; a second import skips them', async () => {
  const imp = await createRead(s, `${base()}/sitemap.xml`);
  expect(imp.format).toBe('sitemap_index');
  expect(imp.progress).toEqual({ documents_read: 4, documents_total: 4, videos: 3 });
  expect(imp.error).toBeNull();
  expect(imp.status).toBe('review');
  expect(imp.counts).toMatchObject({ items: 3, new: 3, skipped: 0, selected: 3, registered: 0, failed: 0 });
  expect(imp.sources.map((x: any) => [x.url.slice(base().length), x.videos, x.pages_without_video, !!x.error])).toEqual([
    ['/sitemap.xml', 0, 0, false], ['/sitemap-videos.xml', 3, 1, false], ['/sitemap-pages.xml', 0, 1, false], ['/broken.xml', 0, 0, true],
  ]);
  expect(imp.sources[3].error).toContain('not well-formed XML');
  const [one, two, embed] = imp.items;
  expect(one).toMatchObject({ title: 'First & שלום', page_url: `${base()}/watch/one?list=a&x=1`, video_url: `${base()}/media/one.mp4`, video_kind: 'content', duration_s: 2, thumbnail_url: `${base()}/t/one.jpg`, status: 'new', selected: true });
  expect(one.external_id).toMatch(/^sitemap:[0-9a-f]{40}$/);
  expect(two).toMatchObject({ title: 'Second', duration_s: null, status: 'new' });
  expect(embed).toMatchObject({ video_url: `${base()}/player/e`, video_kind: 'player' });

  // Cursor paging over the items.
  const p1 = await j(await s.api('GET', `/v1/library/imports/${imp.id}/items?limit=2`));
  expect(p1.items.map((i: any) => i.id)).toEqual([one.id, two.id]);
  const p2 = await j(await s.api('GET', `/v1/library/imports/${imp.id}/items?limit=2&cursor=${encodeURIComponent(p1.next_cursor)}`));
  expect(p2).toEqual({ items: [expect.objectContaining({ id: embed.id })], next_cursor: null });

  // Deselect the player-only entry, start twice (idempotent).
  const sel = await s.api('PATCH', `/v1/library/imports/${imp.id}/items`, { selected: false, item_ids: [embed.id] });
  expect(sel.status).toBe(200);
  expect((await j(sel)).counts.selected).toBe(2);
  const st = await s.api('POST', `/v1/library/imports/${imp.id}/start`);
  expect(st.status).toBe(202);
  expect((await s.api('POST', `/v1/library/imports/${imp.id}/start`)).status).toBe(202);
  const done = await waitFor('import done', async () => { const v = await j(await s.api('GET', `/v1/library/imports/${imp.id}`)); return v.status === 'done' && v; });
  expect(done.counts).toMatchObject({ selected: 2, pending: 0, registered: 2, failed: 0 });
  expect((await s.api('PATCH', `/v1/library/imports/${imp.id}/items`, { selected: true, all: true })).status).toBe(409);
  const items = (await j(await s.api('GET', `/v1/library/imports/${imp.id}/items`))).items;
  expect(items.map((i: any) => i.result)).toEqual(['registered', 'registered', null]);
  for (const it of items.slice(0, 2)) {
    const a = await waitFor('asset ready', async () => { const v = await j(await s.api('GET', `/v1/assets/${it.asset_id}`)); return (v.status === 'ready' || v.status === 'failed') && v; }, 90_000);
    expect(a.status).toBe('ready');
    expect(a.external_id).toBe(it.external_id);
    expect(a.title).toBe(it.title);
    expect(a.metadata.import).toMatchObject({ id: imp.id, page_url: it.page_url });
  }
  const tenant = defaultTenant(s.ctx);
  expect(s.ctx.db.query<{ n: number }, [string]>(`SELECT COUNT(*) AS n FROM assets WHERE tenant_id = ? AND external_id LIKE 'sitemap:%'`).get(tenant)!.n).toBe(2);

  // The same sitemap again: the two imported videos are skipped, the deselected one is new.
  const again = await createRead(s, `${base()}/sitemap-videos.xml`);
  expect(again.format).toBe('sitemap');
  expect(again.counts).toMatchObject({ items: 3, new: 1, skipped: 2, selected: 1 });
  expect(again.items.map((i: any) => [i.status, i.selected])).toEqual([['skipped', false], ['skipped', false], ['new', true]]);
  const skippedOnly = await j(await s.api('GET', `/v1/library/imports/${again.id}/items?status=skipped`));
  expect(skippedOnly.items).toHaveLength(2);
  // A media RSS feed: the page already imported from the sitemap (/watch/two) is skipped; audio is not a video.
  const rss = await createRead(s, `${base()}/feed.rss`);
  expect(rss.format).toBe('media_rss');
  expect(rss.items.map((i: any) => [i.title, i.video_url.slice(base().length), i.duration_s, i.status])).toEqual([
    ['Feed <one>', '/media/one.mp4', 2, 'skipped'], ['Enclosed', '/media/two.mp4', null, 'skipped'],
  ]);
  expect(rss.sources[0]).toMatchObject({ videos: 2, pages_without_video: 1 });
  // Selecting all never selects skipped items.
  expect((await j(await s.api('PATCH', `/v1/library/imports/${again.id}/items`, { selected: true, all: true }))).counts.selected).toBe(1);
}, 180_000);

test('hostile: private address, malformed XML, too large, not a sitemap, bad bodies, other tenant, scopes', async () => {
  const create = (body: unknown, key?: string | null) => s.api('POST', '/v1/library/imports', body, key === undefined ? undefined : { key });
  // Private addresses outside the allowlist.
  for (const url of ['http://10.0.0.1/sitemap.xml', `http://127.0.0.2:${site.port}/sitemap.xml`, 'http://169.254.169.254/latest/', 'file:///etc/passwd']) {
    const r = await create({ url });
    expect(r.status).toBe(422);
  }
  // What the reading finds wrong ends the import failed, with the problem it would have answered.
  const failed = async (path: string) => {
    const f = await createRead(s, `${base()}${path}`);
    expect(f).toMatchObject({ status: 'failed', format: null, counts: { items: 0 } });
    expect((await j(await s.api('POST', `/v1/library/imports/${f.id}/start`))).status).toBe(409);
    return f.error;
  };
  const bad = await failed('/bad.xml');
  expect(bad).toMatchObject({ status: 422, code: 'validation_error' });
  expect(bad.errors[0].detail).toMatch(/not well-formed XML \(.*1:\d+/);
  expect((await failed('/html.xml')).errors[0].detail).toContain('root element <html>');
  expect((await failed('/missing.xml')).status).toBe(422);
  expect((await failed('/huge.xml')).status).toBe(413);
  const many = await failed('/many.xml');
  expect(many.status).toBe(422);
  expect(many.errors[0].detail).toContain('more than 50000 URLs in one file');
  expect((await create({ url: `${base()}/sitemap.xml`, extra: 1 })).status).toBe(400);
  expect((await create({ url: 42 })).status).toBe(422);
  expect((await create({ url: `${base()}/sitemap.xml` }, null)).status).toBe(401);
  const tenant = defaultTenant(s.ctx);
  const viewer = identityService(s.ctx).createKey(tenant, { role: 'viewer' }).key;
  expect((await create({ url: `${base()}/sitemap.xml` }, viewer)).status).toBe(403);
  // Nothing was stored by the refusals at the door.
  const before = s.ctx.db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM library_imports').get()!.n;
  const mine = await createRead(s, `${base()}/sitemap-videos.xml`);
  expect(s.ctx.db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM library_imports').get()!.n).toBe(before + 1);
  const other = identityService(s.ctx).createTenant({ name: 'Imports other' });
  const otherKey = identityService(s.ctx).createKey(other.id, { role: 'owner' }).key;
  for (const [m, p, b] of [['GET', `/v1/library/imports/${mine.id}`], ['GET', `/v1/library/imports/${mine.id}/items`], ['POST', `/v1/library/imports/${mine.id}/start`],
    ['PATCH', `/v1/library/imports/${mine.id}/items`, { selected: false, all: true }]] as const) {
    expect((await s.api(m, p, b, { key: otherKey })).status).toBe(404);
  }
  expect((await j(await s.api('GET', '/v1/library/imports', undefined, { key: otherKey }))).items).toEqual([]);
  // Selection: unknown ids, both or neither of item_ids and all, wrong types.
  const sel = (b: unknown) => s.api('PATCH', `/v1/library/imports/${mine.id}/items`, b);
  expect((await sel({ selected: true, item_ids: ['nope'] })).status).toBe(422);
  expect((await sel({ selected: true })).status).toBe(422);
  expect((await sel({ selected: true, all: true, item_ids: [mine.items[0].id] })).status).toBe(422);
  expect((await sel({ selected: 'yes', all: true })).status).toBe(422);
  expect((await s.api('GET', `/v1/library/imports/${mine.id}/items?cursor=forged`)).status).toBe(422);
}, 60_000);

test('a running import left by a crash resumes at boot without registering anything twice', async () => {
  const store = new ImportStore(s.ctx.db);
  const imp = await createRead(s, `${base()}/feed.rss`);
  const tenant = defaultTenant(s.ctx);
  const item = imp.items[0];
  // A crash after the asset was inserted but before the item's outcome was written: the asset carries this import's id.
  const a = await j(await s.api('POST', '/v1/assets', { source: { kind: 'url', url: `${base()}/media/one.mp4` }, external_id: 'sitemap:' + 'c'.repeat(40), metadata: { import: { id: imp.id, page_url: 'x' } } }));
  s.ctx.db.query(`UPDATE library_import_items SET status = 'new', selected = 1, external_id = ? WHERE id = ?`).run('sitemap:' + 'c'.repeat(40), item.id);
  store.start(imp.id, Date.now());
  expect(store.counts(imp.id)).toMatchObject({ pending: 1, registered: 0 });
  resumeImports(s.ctx);
  await waitFor('resumed import done', () => store.get(tenant, imp.id)!.status === 'done');
  expect(store.counts(imp.id)).toMatchObject({ pending: 0, registered: 1, failed: 0 });
  expect(store.items(imp.id, null, 10).find((i) => i.id === item.id)).toMatchObject({ result: 'registered', asset_id: a.id });
  expect(s.ctx.db.query<{ n: number }, [string]>(`SELECT COUNT(*) AS n FROM assets WHERE external_id = ?`).get('sitemap:' + 'c'.repeat(40))!.n).toBe(1);
}, 60_000);

test('creation answers 202 while the website is still answering; the reading is a durable job that survives a restart', async () => {
  // Before: POST held the request until the sitemap was fetched and parsed (here: for ever, the site never answers).
  const data = mkdtempSync(join(tmpdir(), 'vs-imports-restart-'));
  slowGate = Promise.withResolvers<void>();
  slowHits = 0;
  let a: TestServer | null = await startTestServer({ dataDir: data, env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  const key = a.key;
  let b: TestServer | null = null;
  try {
    const r = await Promise.race([a.api('POST', '/v1/library/imports', { url: `${base()}/slow.xml` }), Bun.sleep(10_000).then(() => null)]);
    expect(r?.status).toBe(202);
    const created = await j(r!);
    expect(created).toMatchObject({ status: 'fetching', format: null, progress: { documents_read: 0, documents_total: 1, videos: 0 }, error: null });
    await waitFor('the site asked', () => slowHits >= 1);
    expect((await j(await a.api('GET', `/v1/library/imports/${created.id}/items`))).items).toEqual([]);
    expect((await a.api('PATCH', `/v1/library/imports/${created.id}/items`, { selected: true, all: true })).status).toBe(409);
    expect((await a.api('POST', `/v1/library/imports/${created.id}/start`)).status).toBe(409);
    // Restart while the job waits on the site: it is handed back to the queue and read again by the next process.
    await a.stop();
    a = null;
    b = await startTestServer({ dataDir: data, ownerKey: key, env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
    slowGate.resolve();
    const done = await waitFor('read after the restart', async () => { const v = await j(await b!.api('GET', `/v1/library/imports/${created.id}`, undefined, { key })); return v.status === 'review' && v; }, 30_000);
    expect(slowHits).toBeGreaterThanOrEqual(2);
    expect(done).toMatchObject({ format: 'sitemap', counts: { items: 3 }, progress: { documents_read: 1, documents_total: 1, videos: 3 } });
    const jobs = b.ctx.db.query<{ status: string; attempts: number }, [string]>(`SELECT status, attempts FROM jobs WHERE type = 'imports.read' AND subject_id = ?`).all(created.id);
    expect(jobs).toEqual([{ status: 'succeeded', attempts: 2 }]);
  } finally {
    slowGate.resolve();
    await a?.stop();
    await b?.stop();
    rmSync(data, { recursive: true, force: true });
  }
}, 120_000);
