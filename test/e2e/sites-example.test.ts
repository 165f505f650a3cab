import { afterAll, beforeAll, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled } from './transcode-helpers';
import { launch } from './player-helpers';

/**
 * examples/site (the reference website) against a real appliance: a site with a home page, a show and a ready,
 * published video, read from /s/v1 by the static site served from this test on a verified custom domain (localhost,
 * so CORS is the real rule), in Chromium: home → show → video (our player with the entity's playback src) → search,
 * in Hebrew (right to left) and English, desktop and phone.
 */
const SITE_DIR = join(import.meta.dir, '../../examples/site');
const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
let token = '';
/** The integrator's web server: the example's files and the domain's verification token. */
const web = Bun.serve({
  hostname: '::', port: 0,
  fetch: (r) => {
    const p = new URL(r.url).pathname;
    if (p === '/.well-known/viewstream-site.txt') return new Response(token);
    const file = normalize(join(SITE_DIR, p === '/' ? 'index.html' : p));
    if (!file.startsWith(SITE_DIR + '/')) return new Response('no', { status: 404 });
    const f = Bun.file(file);
    if (!existsSync(file)) return new Response('no', { status: 404 });
    return new Response(f, { headers: { 'content-type': TYPES[file.split('.').pop() ?? ''] ?? 'application/octet-stream' } });
  },
});
let s: TestServer;
let browser: Browser;
let asset = '';
let siteId = '';
let pageId = '';
let shots = '';
let channel = { id: '', slug: '' };
let prog = '';

/** The site's words per language: titles of the site, show, video and page, and the search word that finds the video. */
const L = {
  he: { name: 'כאן חדשות', show: 'חדשות הערב', showText: 'כל ערב בשמונה', video: 'מהדורת והחדשות', page: 'ראשי', rail: 'אחרונים', q: 'חדשות', prog: 'מבזק הבוקר', dir: 'rtl' },
  en: { name: 'Channel News', show: 'Evening News', showText: 'Every evening at eight', video: 'The late news bulletin', page: 'Home', rail: 'Latest', q: 'bulletin', prog: 'Morning update', dir: 'ltr' },
} as const;
const HOSTILE = '<img src=x onerror="window.pwned=1"> & <b>bold</b>';

beforeAll(async () => {
  s = await startTestServer({ env: { VS_SITES_VERIFY_PORT: String(web.port), VS_PRIVATE_ALLOWLIST: '127.0.0.0/8,::1/128' } });
  shots = mkdtempSync(join(tmpdir(), 'vs-site-example-'));
  asset = registerAsset(s.ctx, await makeClip(join(s.dataDir, 'src.mp4'), { seconds: 3, size: '640x360' }));
  expect((await settled(s.ctx, asset, 120_000)).status).toBe('ready');
  siteId = ((await (await s.api('POST', '/v1/sites', { slug: 'kan', name: L.he.name })).json()) as { id: string }).id;
  expect((await s.api('POST', `/v1/sites/${siteId}/shows`, { slug: 'evening', title: L.he.show, image_asset_id: asset, episodes: { assets: [asset] }, published: true })).status).toBe(201);
  // A channel with a guide: a programme airing now (the EPG section and the EPG day show it).
  channel = await (await s.api('POST', '/v1/channels', { name: 'Kan 11' })).json() as { id: string; slug: string };
  const now = Date.now();
  prog = ((await (await s.api('POST', `/v1/channels/${channel.id}/programmes`, { title: L.he.prog, start_at: new Date(now - 600_000).toISOString(), end_at: new Date(now + 1_800_000).toISOString() })).json()) as { id: string }).id;
  expect(prog).toBeString();
  pageId = ((await (await s.api('POST', `/v1/sites/${siteId}/pages`, { path: '/', title: L.he.page })).json()) as { id: string }).id;
  // The site's domain: the example is served from http://localhost:<port>, a verified host name of the site.
  const add = await (await s.api('POST', `/v1/sites/${siteId}/domains`, { hostname: 'localhost' })).json() as { verification: { token: string } };
  token = add.verification.token;
  expect((await s.api('POST', `/v1/sites/${siteId}/domains/localhost/verify`, {})).status).toBe(200);
  browser = await launch();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await s?.stop();
  web.stop(true);
  if (shots) rmSync(shots, { recursive: true, force: true });
});

/** Puts the site in one language: its settings, the show, the video and the home page (published). */
async function language(lang: 'he' | 'en') {
  const w = L[lang];
  expect((await s.api('PATCH', `/v1/sites/${siteId}`, { name: w.name, settings: { language: lang } })).status).toBe(200);
  expect((await s.api('PATCH', `/v1/sites/${siteId}/shows/evening`, { title: w.show, description: w.showText })).status).toBe(200);
  expect((await s.api('PATCH', `/v1/channels/${channel.id}/programmes/${prog}`, { title: w.prog })).status).toBe(200);
  expect((await s.api('PATCH', `/v1/assets/${asset}`, { title: w.video, publish: true })).status).toBe(200);
  expect((await s.api('PATCH', `/v1/sites/${siteId}/pages/${pageId}`, {
    title: w.page, sections: [
      { type: 'hero', items: [{ type: 'show', slug: 'evening' }] },
      { type: 'rail', title: w.rail, item_type: 'video', query: { limit: 4 } },
      { type: 'epg', channel: channel.slug },
      { type: 'text', text: HOSTILE },
    ],
  })).status).toBe(200);
  expect((await s.api('POST', `/v1/sites/${siteId}/pages/${pageId}/publish`)).status).toBe(200);
}

/** Waits until the example has rendered the view `view` (data-view on <main>). */
async function view(tab: Page, v: string) {
  await tab.waitForFunction((x) => { const m = document.querySelector('main'); return !!m && m.dataset.state === 'ready' && m.dataset.view === x; }, v, { timeout: 20_000 });
}
async function snap(tab: Page, name: string) {
  const file = join(shots, `${name}.png`);
  await tab.screenshot({ path: file });
  if (process.env.VS_STUDIO_SHOTS === '1') copyFileSync(file, join(import.meta.dir, '../../docs', `${name}.png`));
}
const overflow = (tab: Page) => tab.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const lang of ['he', 'en'] as const) {
  test(`${lang}: home → show → video with our player → search, desktop and phone`, async () => {
    await language(lang);
    const w = L[lang];
    const entity = await (await fetch(`${s.url}/s/v1/kan/entities/video/${asset}`)).json() as { playback: { src: string } };
    expect(entity.playback.src).toStartWith('http');
    for (const phone of [false, true]) {
      const device = phone ? 'phone' : 'desktop';
      const ctx = await browser.newContext({ viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 800 }, isMobile: phone, locale: lang === 'he' ? 'he-IL' : 'en-GB' });
      const tab = await ctx.newPage();
      tab.setDefaultTimeout(30_000);
      const requests: string[] = [];
      tab.on('request', (r) => { requests.push(r.url()); });
      try {
        await tab.goto(`http://localhost:${web.port}/index.html?api=${encodeURIComponent(s.url)}&site=kan#/`);
        // Home: the page's sections from /pages/{id}; direction and language from the site's config.
        await view(tab, 'page');
        expect(await tab.evaluate(() => [document.documentElement.dir, document.documentElement.lang])).toEqual([w.dir, lang]);
        expect(await tab.textContent('#brand')).toBe(w.name);
        expect(await tab.textContent('.hero .hero-title')).toBe(w.show);
        expect(await tab.textContent(`.rail a.tile[data-type="video"][data-slug="${asset}"] .tile-title`)).toBe(w.video);
        expect(await tab.getAttribute('.rail a.tile[data-type="video"] img', 'src')).toBe(`${s.url}/s/v1/kan/images/${asset}/tile_16x9.webp`);
        await tab.waitForFunction(() => { const i = document.querySelector<HTMLImageElement>('.hero img'); return !!i && i.complete && i.naturalWidth === 1920; });
        // API text is text: the hostile text section shows its characters and injects nothing.
        expect(await tab.textContent('.epg-section li.airing .epg-title')).toBe(w.prog);
        expect(await tab.textContent('section.text p')).toBe(HOSTILE);
        expect(await tab.evaluate(() => [document.querySelectorAll('section.text *').length, (window as unknown as { pwned?: number }).pwned ?? 0])).toEqual([1, 0]);
        expect(await overflow(tab)).toBeLessThanOrEqual(0);
        await snap(tab, `sites-example-${lang}-${device}-home`);
        // Show: /route?path=/show/evening → the show entity with its episodes.
        await tab.click('.hero a.button');
        await view(tab, 'show');
        expect(await tab.evaluate(() => location.hash)).toBe('#/show/evening');
        expect(await tab.textContent('.entity-show h1')).toBe(w.show);
        expect(await tab.textContent('.entity-show .description')).toBe(w.showText);
        // Video: /v/<asset> → the entity's playback block in our player.
        await tab.click(`.rail a.tile[data-slug="${asset}"]`);
        await view(tab, 'video');
        expect(await tab.textContent('.entity-video h1')).toBe(w.video);
        expect(await tab.getAttribute('.player-box script', 'data-src')).toBe(entity.playback.src);
        expect(await tab.getAttribute('.player-box script', 'src')).toBe(`${s.url}/embed.js`);
        await tab.waitForSelector('.player-box video', { state: 'attached' });
        await waitFor('the player loads the playback src', () => requests.includes(entity.playback.src) || null, 20_000);
        expect(await tab.textContent('.entity-video .series a')).toBe(w.show);
        expect(await overflow(tab)).toBeLessThanOrEqual(0);
        await tab.waitForFunction(() => { const v = document.querySelector('video'); return !!v && v.readyState >= 2; });
        if (!phone) await snap(tab, `sites-example-${lang}-${device}-video`);
        // Suggest (typing) and search through the header form: the video is found.
        await tab.fill('#search-q', w.q);
        await tab.waitForFunction((t) => Array.from(document.querySelectorAll('#suggest option')).some((o) => (o as HTMLOptionElement).value === t), w.video);
        await tab.press('#search-q', 'Enter');
        await view(tab, 'search');
        expect(await tab.$$eval('.results a.tile', (as) => as.map((a) => `${(a as HTMLElement).dataset.type}:${(a as HTMLElement).dataset.slug}`))).toContain(`video:${asset}`);
        // The guide: /epg (today in the site's time zone) through the header menu; unknown paths say not found.
        await tab.click('#menu a[href="#/epg"]');
        await view(tab, 'epg');
        expect(await tab.textContent('.epg li.airing .epg-title')).toBe(w.prog);
        expect(await tab.getAttribute('.epg li.airing a.epg-title', 'href')).toBe(`#/p/${prog}`);
        expect(await tab.$$eval('.days a', (as) => as.length)).toBe(2);
        if (!phone) await snap(tab, `sites-example-${lang}-${device}-epg`);
        await tab.evaluate(() => { location.hash = '#/nowhere'; });
        await view(tab, 'not_found');
      } finally {
        await ctx.close();
      }
    }
  }, 180_000);
}

test('a page draft shows through a preview token (?preview=), the live page without it', async () => {
  expect((await s.api('PATCH', `/v1/sites/${siteId}/pages/${pageId}`, { title: 'Draft home' })).status).toBe(200);
  const tok = await (await s.api('POST', `/v1/sites/${siteId}/preview-tokens`, { page_id: pageId })).json() as { token: string };
  expect(tok.token).toStartWith('vsp_');
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const tab = await ctx.newPage();
    const open = async (extra: string) => {
      await tab.goto(`http://localhost:${web.port}/index.html?api=${encodeURIComponent(s.url)}&site=kan${extra}#/`);
      await view(tab, 'page');
      return [await tab.textContent('h1.page-title'), await tab.$$eval('.preview-banner', (x) => x.length)];
    };
    expect(await open(`&preview=${tok.token}`)).toEqual(['Draft home', 1]);
    expect(await open('')).toEqual([L.en.page, 0]);
  } finally {
    await ctx.close();
  }
}, 60_000);
