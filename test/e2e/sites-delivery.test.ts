import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SaxesParser } from 'saxes';
import { parseSitemap, parseSitemapIndex } from 'sitemap';
import fc from 'fast-check';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled } from './transcode-helpers';
import { uuidV5, PODCAST_NS } from '../../src/features/sites/feeds';

/** A real appliance with one encoded, published video on a site: availability, images, podcast, sitemaps, search. */
let s: TestServer;
let asset: string;
let siteId: string;
let tmp: string;
const XSD = join(import.meta.dir, '../fixtures/xsd/all.xsd');

beforeAll(async () => {
  s = await startTestServer();
  tmp = mkdtempSync(join(tmpdir(), 'vs-sites-'));
  asset = registerAsset(s.ctx, await makeClip(join(s.dataDir, 'src.mp4'), { seconds: 3, size: '640x360' }));
  const a = await settled(s.ctx, asset, 120_000);
  expect(a.status).toBe('ready');
  expect((await s.api('PATCH', `/v1/assets/${asset}`, { title: 'מהדורת והחדשות', publish: true, metadata: { description: 'תקציר', tags: ['חדשות'] } })).status).toBe(200);
  siteId = ((await (await s.api('POST', '/v1/sites', { slug: 'kan', name: 'כאן' })).json()) as { id: string }).id;
  const show = await s.api('POST', `/v1/sites/${siteId}/shows`, {
    slug: 'evening', title: 'חדשות הערב', description: 'כל ערב', image_asset_id: asset, episodes: { assets: [asset] }, published: true,
    podcast: { enabled: true, author: 'כאן', owner_email: 'pod@example.com', category: 'News', explicit: false, language: 'he' },
  });
  expect(show.status).toBe(201);
  const page = ((await (await s.api('POST', `/v1/sites/${siteId}/pages`, {
    path: '/', title: 'בית', sections: [
      { type: 'hero', items: [{ type: 'show', slug: 'evening' }] },
      { type: 'rail', title: 'אחרונים', item_type: 'video', query: { limit: 1 } },
      { type: 'rail', title: 'תוכניות', item_type: 'show' },
      { type: 'text', text: 'ברוכים הבאים' },
    ],
  })).json()) as { id: string });
  expect((await s.api('POST', `/v1/sites/${siteId}/pages/${page.id}/publish`)).status).toBe(200);
}, 180_000);
afterAll(async () => { await s.stop(); rmSync(tmp, { recursive: true, force: true }); });

const pub = (p: string, h: Record<string, string> = {}) => fetch(`${s.url}/s/v1/kan${p}`, { headers: h });
const probe = (file: string) => {
  const r = Bun.spawnSync(['ffprobe', '-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', file]);
  return (JSON.parse(r.stdout.toString()) as { streams: { codec_name: string; width: number; height: number }[] }).streams[0]!;
};

test('a page resolves its sections with public items, images in WebP of the seed sizes (made once), and the video plays', async () => {
  const route = await (await pub('/route?path=/')).json() as { kind: string; page_id: string };
  expect(route.kind).toBe('page');
  const r = await pub(`/pages/${route.page_id}?sections=3`);
  expect(r.status).toBe(200);
  expect(r.headers.get('cache-tag')).toContain(`page-${route.page_id}`);
  const p = await r.json() as any;
  expect(p.sections).toHaveLength(3);
  expect(p.next_cursor).toBeString();
  expect(p.sections[0].items[0]).toMatchObject({ type: 'show', slug: 'evening', title: 'חדשות הערב' });
  const rail = p.sections[1];
  expect(rail.items).toHaveLength(1);
  expect(rail.items[0]).toMatchObject({ type: 'video', slug: asset, url: `/v/${asset}` });
  const more = await (await pub(`/pages/${route.page_id}/sections?cursor=${p.next_cursor}`)).json() as any;
  expect(more.sections.map((x: any) => x.type)).toEqual(['text']);
  expect(more.next_cursor).toBeNull();
  expect((await pub(`/pages/${route.page_id}/sections?cursor=forged`)).status).toBe(422);
  // Images: every size is WebP of its dimensions; the second ask is the same bytes (made once, cached on disk).
  for (const [key, w, h] of [['tile_16x9', 640, 360], ['tile_16x9_320', 320, 180], ['poster', 1280, 720], ['hero_16x9', 1920, 1080]] as const) {
    const url = rail.items[0].images[key] as string;
    const img = await fetch(url);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
    const bytes = new Uint8Array(await img.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(8, 12))).toBe('WEBP');
    const f = join(tmp, `${key}.webp`);
    writeFileSync(f, bytes);
    expect(probe(f)).toMatchObject({ codec_name: 'webp', width: w, height: h });
    const again = await fetch(url, { headers: { 'if-none-match': img.headers.get('etag')! } });
    expect(again.status).toBe(304);
  }
  // The entity: playback block; the HLS answers.
  const e = await (await pub(`/entities/video/${asset}`)).json() as any;
  expect(e.playback).toMatchObject({ mode: 'vod', tenant: 'default', kind: 'vod' });
  expect(e.series.map((x: any) => x.slug)).toEqual(['evening']);
  const m3u8 = await fetch(e.playback.src);
  expect(m3u8.status).toBe(200);
  expect(await m3u8.text()).toStartWith('#EXTM3U');
});

test('search and suggest over the catalogue (Hebrew forms), hostile q never a 500', async () => {
  const r = await (await pub(`/search?q=${encodeURIComponent('חדשות')}`)).json() as any;
  // The show is "חדשות הערב" (exact word) and the video "מהדורת והחדשות" (prefixed form): exact first.
  expect(r.items.map((x: any) => x.type)).toEqual(['show', 'video']);
  const v = await (await pub(`/search?q=${encodeURIComponent('חדשות')}&type=video`)).json() as any;
  expect(v.items.map((x: any) => x.slug)).toEqual([asset]);
  const sg = await (await pub(`/suggest?q=${encodeURIComponent('חד')}`)).json() as any;
  expect(sg.items.length).toBeGreaterThan(0);
  expect(sg.items.length).toBeLessThanOrEqual(8);
  expect((await pub('/search?q=')).status).toBe(422);
  expect((await pub('/search?q=x&type=nope')).status).toBe(422);
  await fc.assert(fc.asyncProperty(fc.string({ maxLength: 150 }), async (q) => {
    const res = await pub(`/search?q=${encodeURIComponent(q)}`);
    expect([200, 422]).toContain(res.status);
    expect(res.headers.get('x-vs-sites-api')).toBe('1');
  }), { numRuns: 40 });
});

test('podcast feed: Apple required tags, podcast:guid, 1400 px JPEG artwork, enclosure with its byte length', async () => {
  const r = await pub('/podcast/evening/feed.xml');
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toContain('application/rss+xml');
  const xml = await r.text();
  // Parsed by a real XML parser (saxes): the element tree, namespaces resolved.
  const found: { name: string; attrs: Record<string, string>; text: string; path: string }[] = [];
  const stack: typeof found = [];
  const sx = new SaxesParser({ xmlns: true });
  sx.on('opentag', (t) => { const n = { name: `${t.uri}|${t.local}`, attrs: Object.fromEntries(Object.values(t.attributes).map((a: any) => [a.local, a.value])), text: '', path: stack.map((x) => x.name.split('|')[1]).join('/') }; stack.push(n); found.push(n); });
  sx.on('text', (x) => { if (stack.length) stack[stack.length - 1]!.text += x; });
  sx.on('closetag', () => { stack.pop(); });
  sx.write(xml).close();
  const IT = 'http://www.itunes.com/dtds/podcast-1.0.dtd', PC = 'https://podcastindex.org/namespace/1.0';
  const one = (name: string, path = 'rss/channel') => { const l = found.filter((f) => f.name === name && f.path === path); expect(l.length === 1 ? name : `${name}: ${l.length}`).toBe(name); return l[0]!; };
  expect(one('|title').text).toBe('חדשות הערב');
  expect(one('|description').text).toBe('כל ערב');
  expect(one('|language').text).toBe('he');
  expect(['true', 'false']).toContain(one(`${IT}|explicit`).text);
  expect(one(`${IT}|category`).attrs.text).toBe('News');
  const feedUrl = `${s.url}/s/v1/kan/podcast/evening/feed.xml`;
  expect(one(`${PC}|guid`).text).toBe(uuidV5(PODCAST_NS, feedUrl.replace(/^https?:\/\//, '')));
  const art = one(`${IT}|image`).attrs.href!;
  const jpg = await fetch(art);
  expect(jpg.headers.get('content-type')).toBe('image/jpeg');
  const jf = join(tmp, 'art.jpg');
  writeFileSync(jf, new Uint8Array(await jpg.arrayBuffer()));
  const st = probe(jf);
  expect(st.codec_name).toBe('mjpeg');
  expect(st.width).toBe(st.height);
  expect(st.width).toBeGreaterThanOrEqual(1400);
  expect(st.width).toBeLessThanOrEqual(3000);
  const enc = one('|enclosure', 'rss/channel/item');
  expect(enc.attrs.type).toBe('video/mp4');
  expect(Number(enc.attrs.length)).toBeGreaterThan(0);
  const file = await fetch(enc.attrs.url!);
  expect(file.status).toBe(200);
  expect((await file.arrayBuffer()).byteLength).toBe(Number(enc.attrs.length));
  expect((await pub('/podcast/nope/feed.xml')).status).toBe(404);
});

test('sitemaps validate against the sitemap and video-sitemap XSDs (xmllint); the index parses and lists them', async () => {
  const idx = await pub('/sitemap/index.xml');
  expect(idx.headers.get('cache-control')).toContain('s-maxage=600');
  const listed = await parseSitemapIndex(Readable.from([await idx.text()]));
  // Only sitemaps with URLs are listed (no catch-up programme here); an empty one is an empty urlset.
  expect(listed.map((x) => x.url.split('/').pop())).toEqual(['pages.xml', 'shows.xml', 'videos.xml']);
  expect(await parseSitemap(Readable.from([await (await pub('/sitemap/programmes.xml')).text()]))).toEqual([]);
  for (const name of ['pages', 'shows', 'videos']) {
    const xml = await (await pub(`/sitemap/${name}.xml`)).text();
    const f = join(tmp, `${name}.xml`);
    writeFileSync(f, xml);
    const lint = Bun.spawnSync(['xmllint', '--noout', '--schema', XSD, f]);
    expect(`${name}: ${lint.stderr.toString().trim()}`).toBe(`${name}: ${f} validates`);
    const urls = await parseSitemap(Readable.from([xml]));
    if (name === 'videos') {
      expect(urls).toHaveLength(1);
      expect(urls[0]!.video[0]!.title).toBe('מהדורת והחדשות');
      expect(urls[0]!.video[0]!.thumbnail_loc).toContain('/tile_16x9.webp');
    }
    if (name === 'shows') expect(urls.map((u) => u.url)).toEqual([`${s.url}/show/evening`]);
  }
  expect((await pub('/sitemap/other.xml')).status).toBe(404);
});

test('robots follows the AI crawler mode', async () => {
  const text = async () => (await pub('/robots')).text();
  expect(await text()).not.toContain('GPTBot');
  await s.api('PATCH', `/v1/sites/${siteId}`, { settings: { ai_crawler_mode: 'block_training' } });
  await waitFor('robots block_training', async () => (await text()).includes('User-agent: GPTBot\nDisallow: /'));
  expect(await text()).not.toContain('ChatGPT-User');
  await s.api('PATCH', `/v1/sites/${siteId}`, { settings: { ai_crawler_mode: 'block' } });
  await waitFor('robots block', async () => (await text()).includes('User-agent: ChatGPT-User\nDisallow: /'));
  expect(await text()).toContain('Sitemap: ');
});

test('availability: an unpublished video leaves the rail, the entity, search and the sitemap', async () => {
  expect((await s.api('PATCH', `/v1/assets/${asset}`, { publish: false })).status).toBe(200);
  await waitFor('video gone', async () => (await pub(`/entities/video/${asset}`)).status === 404);
  const route = await (await pub('/route?path=/')).json() as { page_id: string };
  const p = await (await pub(`/pages/${route.page_id}`)).json() as any;
  expect(p.sections[1].items).toEqual([]);
  const r = await (await pub(`/search?q=${encodeURIComponent('חדשות')}&type=video`)).json() as any;
  expect(r.items).toEqual([]);
  expect(await (await pub('/sitemap/videos.xml')).text()).not.toContain(asset);
  expect((await pub(`/route?path=/v/${asset}`).then((x) => x.json()) as any).kind).toBe('not_found');
});
