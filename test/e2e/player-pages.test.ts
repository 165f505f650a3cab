import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { launch, pageServer, playsPast, serverWithAsset } from './player-helpers';

let s: TestServer;
let asset: string;
let browser: Browser;
beforeAll(async () => {
  ({ s, asset } = await serverWithAsset(20));
  browser = await launch();
}, 180_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

test('watch page: title, Open Graph and Twitter tags, VideoObject JSON-LD; lang and start reach the player', async () => {
  await s.api('PATCH', `/v1/assets/${asset}`, { title: 'Evening <news>', metadata: { description: 'All the news' } });
  const r = await fetch(`${s.url}/w/default/vod/${asset}?lang=he&start=3`);
  expect(r.status).toBe(200);
  const html = await r.text();
  expect(html).toContain('<title>\u2068Evening &lt;news&gt;\u2069</title>'); // user text isolated (security-misc.test.ts)
  expect(html).toContain('<meta property="og:title" content="Evening &lt;news&gt;">');
  expect(html).toContain(`<meta name="twitter:player" content="${s.url}/e/default/vod/${asset}">`);
  expect(html).toContain('<html lang="he" dir="rtl">');
  const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]);
  expect(ld).toMatchObject({ '@type': 'VideoObject', name: 'Evening <news>', description: 'All the news', embedUrl: `${s.url}/e/default/vod/${asset}` });
  expect(ld.duration).toMatch(/^PT\d+S$/);
  expect(ld.thumbnailUrl[0]).toStartWith('http');
  const tab = await browser.newPage();
  await tab.goto(`${s.url}/w/default/vod/${asset}?lang=he&start=3`);
  await tab.waitForSelector('.vs-box[dir=rtl] .vs-big');
  await tab.click('.vs-big');
  await playsPast(tab, 3.2);
  expect(await tab.evaluate(() => document.querySelector('.vs-bar [data-vs=pause]')!.getAttribute('aria-label'))).toBe('השהיה');
  expect((await fetch(`${s.url}/w/default/tv/${asset}`)).status).toBe(404);
  expect((await fetch(`${s.url}/w/nosuch/vod/${asset}`)).status).toBe(404);
  await tab.close();
}, 60_000);

test('token renewal across a short TTL: vstokenrefresh, later requests carry the new token and succeed', async () => {
  const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'short', require_token: true, default_ttl_s: 12 })).json() as { id: string };
  expect((await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: asset })).status).toBe(200);
  const tab = await browser.newPage();
  try {
  const seen: { url: string; status: number; at: number }[] = [];
  tab.on('response', (r) => { if (r.url().includes('/t/')) seen.push({ url: r.url(), status: r.status(), at: Date.now() }); });
  await tab.goto(`${s.url}/e/default/vod/${asset}?autoplay=1`);
  await tab.evaluate(() => { const w = window as unknown as { refreshes: string[]; VSEmbed: { players: EventTarget[] } }; w.refreshes = []; });
  await waitFor('player', () => tab.evaluate(() => (window as unknown as { VSEmbed?: { players: unknown[] } }).VSEmbed?.players.length === 1), 10_000, 50);
  await tab.evaluate(() => { const w = window as unknown as { refreshes: string[]; VSEmbed: { players: EventTarget[] } }; w.VSEmbed.players[0].addEventListener('vstokenrefresh', (e) => w.refreshes.push((e as CustomEvent).detail.expires_at)); });
  await playsPast(tab, 1);
  const firstToken = /\/t\/([^/]+)\//.exec(seen[0].url)![1];
  const firstExp = (JSON.parse(Buffer.from(firstToken.split('.')[1], 'base64url').toString()) as { e: number }).e * 1000;
  await waitFor('a renewal', () => tab.evaluate(() => (window as unknown as { refreshes: string[] }).refreshes.length > 0), 20_000, 200);
  const next = await tab.evaluate(() => (window as unknown as { VSEmbed: { players: { session: { token: string } }[] } }).VSEmbed.players[0].session.token);
  expect(next).not.toBe(firstToken);
  // After the first token expired, make the engine fetch again: every request goes out with the new token and succeeds.
  await waitFor('first token expired', async () => Date.now() > firstExp + 500, 20_000, 200);
  const mark = Date.now();
  await tab.evaluate(() => { const p = (window as unknown as { VSEmbed: { players: { engine: { raw: { stopLoad(): void; startLoad(n: number): void; url: string; loadSource(u: string): void } } }[] } }).VSEmbed.players[0]; p.engine.raw.loadSource(p.engine.raw.url); });
  const after = await waitFor('requests after expiry', async () => { const x = seen.filter((r) => r.at >= mark); return x.length >= 2 ? x : null; }, 15_000, 100);
  for (const r of after!) { expect(r.status).toBe(200); expect(r.url).not.toContain(firstToken); } // renewed again meanwhile: every ~2 s at a 12 s TTL
  } finally {
    await s.api('POST', `/v1/playback/policies/${pol.id}/detach`, { target_kind: 'asset', target_id: asset });
    await tab.close();
  }
}, 90_000);

test('embed.allowed_domains: CSP frame-ancestors, Referer refusal 403, and Chromium shows the refusal inside a foreign iframe', async () => {
  const c = await (await s.api('POST', '/v1/player-configs', { name: 'locked', embed: { allowed_domains: ['example.com', '*.partner.co.il'] } })).json() as { id: string };
  expect(c.id).toBeTruthy();
  const url = `${s.url}/e/default/vod/${asset}?config=locked`;
  const ok = await fetch(url, { headers: { referer: 'https://news.partner.co.il/story' } });
  expect(ok.status).toBe(200);
  expect(ok.headers.get('content-security-policy')).toBe("frame-ancestors 'self' example.com *.partner.co.il");
  expect((await fetch(url, { headers: { referer: 'https://evil.test/' } })).status).toBe(403);
  expect((await fetch(url)).status).toBe(200); // no Referer: CSP still keeps foreign frames out
  const site = pageServer(() => `<!doctype html><iframe id="f" src="${url}" width="640" height="360"></iframe>`);
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${site.port}/`);
  const frame = await waitFor('frame', async () => tab.frames().find((f) => f !== tab.mainFrame()) ?? null, 10_000, 50);
  await frame!.waitForSelector('[role=alert]');
  expect(await frame!.locator('.vs-box').count()).toBe(0);
  await tab.close();
  site.stop(true);
}, 40_000);

test('version_pin: the page loads the pinned version, served immutable; unknown versions 404 and are refused in documents', async () => {
  await s.api('POST', '/v1/player-configs', { name: 'pinned', version_pin: '1.3.0' });
  const html = await (await fetch(`${s.url}/e/default/vod/${asset}?config=pinned`)).text();
  expect(html).toContain(`src="${s.url}/embed/1.3.0/embed.js"`);
  const pub = await (await fetch(`${s.url}/player/config/default/pinned.json`)).json() as { player: { version: string; script: string } };
  expect(pub.player).toEqual({ version: '1.3.0', script: `${s.url}/embed/1.3.0/embed.js` });
  const js = await fetch(`${s.url}/embed/1.3.0/embed.js`);
  expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect((await fetch(`${s.url}/embed/1.3.0/hls.mjs`)).headers.get('cache-control')).toContain('immutable');
  expect((await fetch(`${s.url}/embed/9.9.9/embed.js`)).status).toBe(404);
  expect((await fetch(`${s.url}/embed.js`)).headers.get('cache-control')).toBe('public, max-age=300');
  expect((await s.api('POST', '/v1/player-configs', { name: 'pin2', version_pin: '0.9.0' })).status).toBe(422);
});

test('AES-128 protected asset plays through the iframe page; the quality menu switches level (vsqualitychange)', async () => {
  const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'aes', require_token: true, require_encryption: true })).json() as { id: string };
  await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: asset });
  const tab = await browser.newPage();
  await tab.addInitScript(() => { const w = window as unknown as { q: unknown[] }; w.q = []; document.addEventListener('vs:ready', (e) => ((e as CustomEvent).detail.player as EventTarget).addEventListener('vsqualitychange', (x) => w.q.push((x as CustomEvent).detail))); });
  await tab.goto(`${s.url}/e/default/vod/${asset}?autoplay=1`);
  await playsPast(tab, 1.5);
  const src = await tab.evaluate(() => (window as unknown as { VSEmbed: { players: { session: { src: string } }[] } }).VSEmbed.players[0].session.src);
  expect(src).toContain('/aes/');
  const levels = await tab.evaluate(() => (window as unknown as { VSEmbed: { players: { engine: { levels(): { id: number; height: number }[] } }[] } }).VSEmbed.players[0].engine.levels());
  expect(levels.length).toBeGreaterThanOrEqual(1);
  await tab.click('.vs-bar [data-vs=gear]');
  const items = await tab.$$eval('.vs-menu [role=menuitemradio]', (es) => es.map((e) => e.textContent));
  expect(items[0]).toBe('Auto');
  const pick = `${Math.min(...levels.map((l) => l.height))}p`;
  await tab.click(`.vs-menu [role=menuitemradio] >> text=${pick}`);
  const lvl = levels.find((l) => `${l.height}p` === pick)!.id;
  expect(await tab.evaluate(() => (window as unknown as { VSEmbed: { players: { engine: { level(): number } }[] } }).VSEmbed.players[0].engine.level())).toBe(lvl);
  expect(await tab.evaluate(() => (window as unknown as { q: { to: number }[] }).q.some((d) => d.to >= 0))).toBe(true);
  await s.api('POST', `/v1/playback/policies/${pol.id}/detach`, { target_kind: 'asset', target_id: asset });
  await tab.close();
}, 60_000);
