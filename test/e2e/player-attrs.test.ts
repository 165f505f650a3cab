import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { launch, pageServer, playsPast, serverWithAsset } from './player-helpers';

let s: TestServer;
let asset: string;
let browser: Browser;
let hls: string;
let thumbs: string;
let dash: string;
let mp4: string;
let site: ReturnType<typeof Bun.serve>;
beforeAll(async () => {
  ({ s, asset } = await serverWithAsset(12));
  const a = await (await s.api('GET', `/v1/assets/${asset}`)).json() as { playback: { hls: string; thumbs_vtt: string; dash: string; download: string } };
  hls = a.playback.hls;
  dash = a.playback.dash;
  mp4 = a.playback.download;
  thumbs = a.playback.thumbs_vtt;
  // A customer's page on another origin: one embed.js player configured by the attributes in ?a= (JSON).
  site = pageServer((u) => {
    const attrs = JSON.parse(u.searchParams.get('a') ?? '{}') as Record<string, string>;
    const html = Object.entries({ 'data-src': hls, ...attrs }).map(([k, v]) => `${k}="${String(v).replace(/"/g, '&quot;')}"`).join(' ');
    return `<!doctype html><html lang="${u.searchParams.get('lang') ?? 'en'}"><body style="margin:0;background:#222"><section id="slot" style="width:500px"></section><script>window.evts=[];for(const n of ['vs:ready','vs:cinema','vs:config','vs:error'])document.addEventListener(n,(e)=>window.evts.push([n,e.detail&&e.detail.engine||e.detail&&e.detail.on]));</script><div style="width:${u.searchParams.get('w') ?? '640px'}"><script src="${s.url}/embed.js" ${html}></script></div></body></html>`;
  });
  browser = await launch();
}, 180_000);
afterAll(async () => { await browser?.close(); site?.stop(true); await s?.stop(); }, 60_000);

async function open(attrs: Record<string, string>, o: { lang?: string; ctx?: BrowserContext } = {}): Promise<Page> {
  const tab = o.ctx ? await o.ctx.newPage() : await browser.newPage({ viewport: { width: 700, height: 420 } });
  await tab.goto(`http://127.0.0.1:${site.port}/?a=${encodeURIComponent(JSON.stringify(attrs))}${o.lang ? `&lang=${o.lang}` : ''}`);
  const errors: string[] = [];
  tab.on('pageerror', (e) => errors.push(String(e)));
  tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await tab.waitForSelector('.vs-box video');
  await waitFor('player ready', () => tab.evaluate(() => ((window as unknown as { evts: unknown[][] }).evts.some((e) => e[0] === 'vs:ready'))), 20_000, 50)
    .catch((e) => { throw new Error(`${e}; page errors: ${errors.join(' | ')}`); });
  return tab;
}
const vid = (tab: Page) => tab.evaluate(() => { const v = document.querySelector('video')!; return { t: v.currentTime, muted: v.muted, paused: v.paused, rate: v.playbackRate }; });

test('data-lang he: right-to-left box, Hebrew labels, mirrored controls (play button on the right)', async () => {
  const rtl = await open({ 'data-lang': 'he' });
  const r = await rtl.evaluate(() => {
    const box = document.querySelector('.vs-box') as HTMLElement, play = document.querySelector('.vs-bar [data-vs=play]') as HTMLElement;
    const b = box.getBoundingClientRect(), p = play.getBoundingClientRect();
    return { dir: box.dir, lang: box.lang, label: play.getAttribute('aria-label'), right: p.left > b.left + b.width / 2 };
  });
  expect(r).toEqual({ dir: 'rtl', lang: 'he', label: 'הפעלה', right: true });
  const ltr = await open({ 'data-lang': 'en' });
  const l = await ltr.evaluate(() => {
    const box = document.querySelector('.vs-box') as HTMLElement, play = document.querySelector('.vs-bar [data-vs=play]') as HTMLElement;
    return { dir: box.dir, right: play.getBoundingClientRect().left > box.getBoundingClientRect().left + box.getBoundingClientRect().width / 2 };
  });
  expect(l).toEqual({ dir: 'ltr', right: false });
  const ar = await open({ 'data-lang': 'ar' });
  expect(await ar.evaluate(() => document.querySelector('.vs-box')!.getAttribute('dir'))).toBe('rtl');
  const ru = await open({}, { lang: 'ru' }); // the page's language when no data-lang
  expect(await ru.evaluate(() => document.querySelector('.vs-bar [data-vs=play]')!.getAttribute('aria-label'))).toBe('Воспроизвести');
  for (const t of [rtl, ltr, ar, ru]) await t.close();
}, 60_000);

test('data-skin: named skin tokens and a library skin fetched from the player folder; vs:config fired', async () => {
  const neon = await open({ 'data-skin': 'neon' });
  expect(await neon.evaluate(() => getComputedStyle(document.querySelector('.vs-box')!).getPropertyValue('--vs-accent').trim())).toBe('#39ff14');
  const lib = await open({ 'data-skin': 'ocean-pill' });
  await waitFor('library skin', async () => (await lib.evaluate(() => getComputedStyle(document.querySelector('.vs-box')!).getPropertyValue('--vs-accent').trim())) === '#0ea5e9', 5000, 50);
  expect(await lib.evaluate(() => (window as unknown as { evts: unknown[][] }).evts.some((e) => e[0] === 'vs:config'))).toBe(true);
  await neon.close(); await lib.close();
}, 30_000);

test('data-autoplay + data-muted play muted at once; data-start starts there; data-end stops there', async () => {
  const tab = await open({ 'data-autoplay': '1', 'data-muted': '1', 'data-start': '4', 'data-end': '6' });
  await playsPast(tab, 4.2);
  expect((await vid(tab)).muted).toBe(true);
  await waitFor('paused at end', async () => { const v = await vid(tab); return v.paused && v.t >= 5.9 && v.t < 7 ? v : null; }, 15_000, 100);
  await tab.close();
}, 40_000);

test('the resume question on a phone (390×844) sits above the control bar: the controls stay visible and usable', async () => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const first = await ctx.newPage();
  const url = (resume: string) => `http://127.0.0.1:${site.port}/?w=100%25&a=${encodeURIComponent(JSON.stringify({ 'data-autoplay': '1', 'data-muted': '1', 'data-resume': resume }))}`;
  await first.goto(`${url('ask').replace(encodeURIComponent('"data-resume":"ask"'), encodeURIComponent('"data-start":"6"'))}`);
  await playsPast(first, 6.2);
  await first.evaluate(() => document.querySelector('video')!.pause()); // stores the position
  const tab = await ctx.newPage();
  await tab.goto(url('ask'));
  await tab.waitForSelector('.vs-overlay[role=dialog] button');
  const geo = await tab.evaluate(() => {
    const r = (s: string) => document.querySelector(s)!.getBoundingClientRect();
    const ask = r('.vs-overlay[role=dialog]'), bar = r('.vs-bar'), box = r('.vs-box');
    const btn = document.querySelector('.vs-bar .vs-btn')!.getBoundingClientRect();
    const hit = document.elementFromPoint(btn.x + btn.width / 2, btn.y + btn.height / 2);
    return { askBottom: ask.bottom, barTop: bar.top, askTop: ask.top, boxTop: box.top, boxWidth: box.width, hitInBar: !!hit?.closest('.vs-bar') };
  });
  // Before: the question covered the whole player, control bar included (inset: 0).
  expect(geo.boxWidth).toBeLessThanOrEqual(390);
  expect(geo.askTop).toBeGreaterThanOrEqual(geo.boxTop);
  expect(geo.askBottom).toBeLessThanOrEqual(geo.barTop);
  expect(geo.hitInBar).toBe(true);
  // Both answers are there and fit.
  expect(await tab.locator('.vs-overlay[role=dialog] button').count()).toBe(2);
  for (const b of await tab.locator('.vs-overlay[role=dialog] button').all()) expect(await b.isVisible()).toBe(true);
  if (process.env.VS_PLAYER_SHOTS === '1') await tab.screenshot({ path: 'docs/player/resume-phone.png' });
  await ctx.close();
}, 60_000);

test('data-resume: auto seeks to the saved position, ask offers it, off ignores it', async () => {
  const ctx = await browser.newContext();
  const tab = await open({ 'data-autoplay': '1', 'data-muted': '1', 'data-start': '7' }, { ctx });
  await playsPast(tab, 7.2);
  await tab.evaluate(() => document.querySelector('video')!.pause()); // pause stores the position
  const pos = (await vid(tab)).t;
  const auto = await ctx.newPage();
  await auto.goto(tab.url().replace(encodeURIComponent('"data-start":"7"'), encodeURIComponent('"data-resume":"auto"')));
  await waitFor('resumed', async () => { const t = await auto.evaluate(() => document.querySelector('video')?.currentTime ?? 0); return Math.abs(t - Math.floor(pos)) < 1.5; }, 15_000, 100);
  const ask = await ctx.newPage();
  await ask.goto(tab.url().replace(encodeURIComponent('"data-start":"7"'), encodeURIComponent('"data-resume":"ask"')));
  await ask.waitForSelector('.vs-overlay[role=dialog] button');
  await ask.click('.vs-overlay[role=dialog] button >> nth=0');
  await playsPast(ask, Math.floor(pos) - 0.5);
  const off = await ctx.newPage();
  await off.goto(tab.url().replace(encodeURIComponent('"data-start":"7"'), encodeURIComponent('"data-resume":"off"')));
  await off.waitForSelector('.vs-box video');
  expect(await off.locator('.vs-overlay[role=dialog]').count()).toBe(0);
  await ctx.close();
}, 60_000);

test('keyboard only: Tab to the controls, Space plays, arrows seek, M mutes, the settings menu changes speed', async () => {
  const tab = await open({ 'data-resume': 'off' });
  await tab.keyboard.press('Tab'); // the big play button comes first
  expect(await tab.evaluate(() => document.activeElement?.className)).toBe('vs-big');
  await tab.keyboard.press('Enter');
  await playsPast(tab, 0.5);
  expect(await tab.evaluate(() => document.activeElement?.getAttribute('data-vs'))).toBe('pause'); // focus moves to the bar's play/pause
  await tab.keyboard.press('Shift+Tab');
  const focused = await tab.evaluate(() => document.activeElement?.className ?? '');
  expect(focused).toContain('vs-seek');
  const before = (await vid(tab)).t;
  await tab.keyboard.press('ArrowRight');
  expect((await vid(tab)).t).toBeGreaterThan(before + 3);
  await tab.keyboard.press('m');
  expect((await vid(tab)).muted).toBe(true);
  await tab.keyboard.press(' ');
  expect((await vid(tab)).paused).toBe(true);
  await tab.focus('.vs-bar [data-vs=gear]');
  await tab.keyboard.press('Enter');
  await tab.waitForSelector('.vs-menu[role=menu]');
  const items = await tab.$$eval('.vs-menu [role=menuitemradio]', (es) => es.map((e) => e.textContent));
  const target = items.indexOf('1.5×');
  const cur = await tab.evaluate(() => Array.from(document.querySelectorAll('.vs-menu [role=menuitemradio]')).indexOf(document.activeElement!));
  for (let i = cur; i < target; i++) await tab.keyboard.press('ArrowDown');
  await tab.keyboard.press('Enter');
  expect((await vid(tab)).rate).toBe(1.5);
  expect(await tab.locator('.vs-menu').count()).toBe(0);
  const labels = await tab.$$eval('.vs-bar button:not([hidden]), .vs-seek, .vs-vol', (es) => es.filter((e) => !(e as HTMLElement).closest('.vs-hidden')).map((e) => e.getAttribute('aria-label')));
  expect(labels.every((l) => l && l.length > 0)).toBe(true);
  await tab.close();
}, 40_000);

test('data-aspect, data-width, data-cinema (vs:cinema), data-mode tile (vs:ready engine tile, muted, no bar)', async () => {
  const a = await open({ 'data-aspect': '4:3', 'data-width': '400' });
  const box = await a.evaluate(() => { const r = document.querySelector('.vs-box')!.getBoundingClientRect(); return { w: r.width, h: r.height }; });
  expect(box.w).toBe(400);
  expect(Math.round(box.h)).toBe(300);
  const c = await open({ 'data-cinema': '1' });
  expect(await c.evaluate(() => document.querySelector('.vs-box')!.classList.contains('vs-cinema'))).toBe(true);
  expect(await c.evaluate(() => (window as unknown as { evts: unknown[][] }).evts.find((e) => e[0] === 'vs:cinema')?.[1])).toBe(true);
  const t = await open({ 'data-mode': 'tile' });
  expect(await t.evaluate(() => (window as unknown as { evts: unknown[][] }).evts.find((e) => e[0] === 'vs:ready')?.[1])).toBe('tile');
  expect(await t.evaluate(() => ({ muted: document.querySelector('video')!.muted, bar: getComputedStyle(document.querySelector('.vs-bar')!).display }))).toEqual({ muted: true, bar: 'none' });
  for (const p of [a, c, t]) await p.close();
}, 40_000);

test('data-options: caption tracks (captions menu), chapters and ad cues on the seek bar, sprite thumbnails on hover; drm → vsdrmunavailable', async () => {
  const vtt = `data:text/vtt;base64,${Buffer.from('WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nשלום\n').toString('base64')}`;
  const tab = await open({ 'data-options': JSON.stringify({ tracks: [{ src: vtt, srclang: 'he', label: 'עברית' }], chapters: [{ start: 0, title: 'Intro' }, { start: 6, title: 'Part 2' }], thumbnails: thumbs, ads: { cues: [3] } }) });
  await tab.evaluate(() => document.querySelector('video')!.play());
  await playsPast(tab, 0.3);
  await tab.waitForSelector('.vs-bar [data-vs=cc]:not([hidden])');
  await tab.click('.vs-bar [data-vs=cc]');
  await tab.click('.vs-menu [role=menuitemradio] >> text=עברית');
  // The chosen track is kept hidden and the player draws its cue itself, right to left for Hebrew (captions.ts).
  expect(await tab.evaluate(() => document.querySelector('video')!.textTracks[0].mode)).toBe('hidden');
  await tab.waitForSelector('.vs-cues .vs-cue');
  expect(await tab.evaluate(() => { const e = document.querySelector('.vs-cue') as HTMLElement; return [e.textContent, e.dir, e.lang]; })).toEqual(['שלום', 'rtl', 'he']);
  expect(await tab.locator('.vs-mark.vs-chap').count()).toBe(2);
  expect(await tab.locator('.vs-mark.vs-adcue').count()).toBe(1);
  const seek = (await tab.locator('.vs-seek').boundingBox())!;
  await waitFor('thumbnails loaded', () => tab.evaluate(() => (window as unknown as { VSEmbed: { players: { thumbs: unknown[] }[] } }).VSEmbed.players[0].thumbs.length > 0), 10_000, 100);
  await tab.mouse.move(seek.x + seek.width * 0.7, seek.y + seek.height / 2);
  const bg = await tab.evaluate(() => (document.querySelector('.vs-preview .vs-thumb') as HTMLElement | null)?.style.backgroundImage ?? '');
  expect(bg).toContain('url(');
  expect(await tab.evaluate(() => document.querySelector('.vs-preview span')!.textContent)).toContain('Part 2');
  const drm = await browser.newPage();
  await drm.goto(`http://127.0.0.1:${site.port}/?a=${encodeURIComponent(JSON.stringify({ 'data-options': JSON.stringify({ drm: { widevine: 'x' } }) }))}`);
  await drm.waitForSelector('.vs-overlay[role=alert]');
  await tab.close(); await drm.close();
}, 40_000);

test('data-src: a DASH manifest plays through the lazily loaded DASH engine; a progressive file plays natively', async () => {
  expect(dash).toContain('.mpd');
  const d = await open({ 'data-src': dash, 'data-autoplay': '1', 'data-muted': '1' });
  await playsPast(d, 1);
  expect(await d.evaluate(() => (window as unknown as { VSEmbed: { players: { engine: { name: string } }[] } }).VSEmbed.players[0].engine.name)).toBe('dash');
  const m = await open({ 'data-src': mp4, 'data-autoplay': '1', 'data-muted': '1' });
  await playsPast(m, 1);
  expect(await m.evaluate(() => (window as unknown as { VSEmbed: { players: { engine: { name: string } }[] } }).VSEmbed.players[0].engine.name)).toBe('mp4');
  await d.close(); await m.close();
}, 40_000);

test('data-tenant + data-config: the configuration document applies, attributes win over it; data-target; data-restart', async () => {
  await s.api('POST', '/v1/player-configs', { name: 'brand', skin: 'retro', language: 'he', controls: { pip: false } });
  const doc = await open({ 'data-tenant': 'default', 'data-config': 'brand' });
  const d = await doc.evaluate(() => { const b = document.querySelector('.vs-box') as HTMLElement; return { skin: b.dataset.skin, dir: b.dir, pip: (document.querySelector('[data-vs=pip]') as HTMLButtonElement).hidden }; });
  expect(d).toEqual({ skin: 'retro', dir: 'rtl', pip: true });
  const over = await open({ 'data-tenant': 'default', 'data-config': 'brand', 'data-skin': 'neon', 'data-lang': 'en' });
  expect(await over.evaluate(() => { const b = document.querySelector('.vs-box') as HTMLElement; return [b.dataset.skin, b.dir]; })).toEqual(['neon', 'ltr']);
  const tab = await open({ 'data-target': '#slot', 'data-autoplay': '1', 'data-muted': '1', 'data-restart': '1', 'data-resume': 'off' });
  expect(await tab.evaluate(() => document.querySelector('#slot > .vs-box') !== null)).toBe(true);
  await playsPast(tab, 2.5);
  await tab.waitForSelector('[data-vs=restart]:not([hidden])');
  await tab.click('[data-vs=restart]');
  await waitFor('restarted', async () => (await vid(tab)).t < 1.5, 10_000, 50);
  for (const p of [doc, over, tab]) await p.close();
}, 40_000);

test('tile mode loops its preview (configuration tile.preview_s) and plays without hover when tile.on_hover is false', async () => {
  const tab = await open({ 'data-mode': 'tile', 'data-options': JSON.stringify({ configDoc: { tile: { preview_s: 2, on_hover: false } } }) });
  await tab.evaluate(() => { const w = window as unknown as { wrapped: boolean; max: number }; w.wrapped = false; w.max = 0; const v = document.querySelector('video')!; v.addEventListener('timeupdate', () => { if (v.currentTime < w.max - 1) w.wrapped = true; w.max = Math.max(w.max, v.currentTime); }); });
  await waitFor('preview looped', () => tab.evaluate(() => (window as unknown as { wrapped: boolean }).wrapped), 20_000, 100);
  expect(await tab.evaluate(() => (window as unknown as { max: number }).max)).toBeLessThan(3);
  await tab.close();
}, 30_000);
