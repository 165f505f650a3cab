import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv } from './live-helpers';
import { at, recordChannel, type Seg } from './catchup-helpers';
import { launch, pageServer, playsPast } from './player-helpers';

let s: TestServer;
let browser: Browser;
let ch: { id: string; slug: string };
let segs: () => Seg[];
let site: ReturnType<typeof Bun.serve>;
beforeAll(async () => {
  s = await startTestServer({ env: await liveEnv() });
  ({ ch, segs } = await recordChannel(s, 'Player Live', 240, 12)); // ≥ 24 s of DVR before the tests start
  site = pageServer((u) => {
    const attrs = JSON.parse(u.searchParams.get('a') ?? '{}') as Record<string, string>;
    return `<!doctype html><body style="margin:0"><div style="width:640px"><script src="${s.url}/embed.js" ${Object.entries(attrs).map(([k, v]) => `${k}="${v.replace(/"/g, '&quot;')}"`).join(' ')}></script></div></body>`;
  });
  browser = await launch();
}, 120_000);
afterAll(async () => { await browser?.close(); site?.stop(true); await killPushers(); await s?.stop(); }, 60_000);

const state = (tab: Page) => tab.evaluate(() => {
  const p = (window as unknown as { VSEmbed: { players: { isLive(): boolean; range(): [number, number]; video: HTMLVideoElement }[] } }).VSEmbed.players[0];
  const [a, b] = p.range();
  const hidden = (sel: string) => { const e = document.querySelector(sel) as HTMLElement | null; return !e || e.classList.contains('vs-hidden') || e.hidden; };
  return { live: p.isLive(), min: a, edge: b, t: p.video.currentTime, toLiveHidden: hidden('[data-vs=tolive]'), seekHidden: hidden('.vs-seek'), badge: !hidden('.vs-live') };
});

test('live through the iframe page: DVR window, seek back, back-to-live returns to the edge; start is ignored for live', async () => {
  const tab = await browser.newPage();
  await tab.goto(`${s.url}/e/default/live/${ch.slug}?autoplay=1&start=3`);
  await playsPast(tab, 1, 40_000);
  const st = await waitFor('live window', async () => { const x = await state(tab); return x.live && x.edge - x.min > 15 ? x : null; }, 20_000, 200);
  expect(st!.badge).toBe(true);
  expect(st!.edge - st!.t).toBeLessThan(12); // started near the edge, not at start=3
  await tab.focus('.vs-seek');
  await tab.keyboard.press('Home'); // start of the DVR window
  const back = await waitFor('behind live', async () => { const x = await state(tab); return x.edge - x.t > 10 && !x.toLiveHidden ? x : null; }, 15_000, 100);
  expect(back!.t - back!.min).toBeLessThan(5);
  await tab.click('[data-vs=tolive]');
  await waitFor('at the edge again', async () => { const x = await state(tab); return x.edge - x.t < 8 && x.toLiveHidden ? x : null; }, 15_000, 100);
  await tab.close();
}, 90_000);

test('data-back-to-live=0 hides the button; data-max-seek-back limits the window (0 = live only, no seek bar)', async () => {
  const src = `${s.url}/live/default/${ch.slug}/master.m3u8`;
  const open = async (a: Record<string, string>) => {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${site.port}/?a=${encodeURIComponent(JSON.stringify({ 'data-src': src, 'data-autoplay': '1', 'data-muted': '1', ...a }))}`);
    await playsPast(tab, 0.5, 40_000);
    await waitFor('live', async () => (await state(tab)).live, 15_000, 100);
    return tab;
  };
  const hide = await open({ 'data-back-to-live': '0' });
  await hide.evaluate(() => { const p = (window as unknown as { VSEmbed: { players: { range(): [number, number]; video: HTMLVideoElement }[] } }).VSEmbed.players[0]; p.video.currentTime = p.range()[0] + 1; });
  await waitFor('behind', async () => { const x = await state(hide); return x.edge - x.t > 10 ? x : null; }, 15_000, 100);
  expect((await state(hide)).toLiveHidden).toBe(true);
  const six = await open({ 'data-max-seek-back': '6' });
  const w = await waitFor('window', async () => { const x = await state(six); return x.edge > 0 ? x : null; }, 10_000, 100);
  expect(w!.edge - w!.min).toBeLessThanOrEqual(6.01);
  const zero = await open({ 'data-max-seek-back': '0' });
  expect((await state(zero)).seekHidden).toBe(true);
  for (const t of [hide, six, zero]) await t.close();
}, 90_000);

test('clip (iframe page) and catch-up (data-src) sources play', async () => {
  const all = segs();
  const first = all[1].start_ms, last = all[all.length - 2].start_ms;
  const clip = await (await s.api('POST', '/v1/clips', { channel_id: ch.id, start_at: at(first), end_at: at(last), title: 'Goal' })).json() as { id: string };
  const tab = await browser.newPage();
  await tab.goto(`${s.url}/e/default/clip/${clip.id}?autoplay=1`);
  await playsPast(tab, 1.5, 40_000);
  const cu = await browser.newPage();
  const src = `${s.url}/m/catchup/${ch.slug}/${first}/${last}/master.m3u8?c=default`;
  await cu.goto(`http://127.0.0.1:${site.port}/?a=${encodeURIComponent(JSON.stringify({ 'data-src': src, 'data-autoplay': '1', 'data-muted': '1' }))}`);
  await playsPast(cu, 1.5, 40_000);
  await tab.close(); await cu.close();
}, 90_000);

test('live guide overlay (configuration live_guide): now and next from the channel guide, in Hebrew, right to left', async () => {
  const now = Date.now();
  const hour = 3_600_000;
  const slot = Math.floor(now / hour) * hour;
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'מבזק חדשות', start_at: at(slot), end_at: at(slot + hour) })).status).toBeLessThan(300);
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Weather', start_at: at(slot + hour), end_at: at(slot + 2 * hour) })).status).toBeLessThan(300);
  await s.api('POST', '/v1/player-configs', { name: 'guide', live_guide: { enabled: true, show_next: true } });
  const resolved = await (await fetch(`${s.url}/player/config/default/resolve.json?kind=live&id=${ch.slug}`)).json() as { title: { guide: { now: { title: string }; next: { title: string } } } };
  expect(resolved.title.guide.now.title).toBe('מבזק חדשות');
  const tab = await browser.newPage();
  await tab.goto(`${s.url}/e/default/live/${ch.slug}?autoplay=1&lang=he&config=guide`);
  await tab.waitForSelector('.vs-guide');
  const text = await tab.evaluate(() => Array.from(document.querySelectorAll('.vs-guide span')).map((e) => e.textContent));
  expect(text[0]).toContain('עכשיו');
  expect(text[0]).toContain('מבזק חדשות');
  expect(text[1]).toContain('הבא');
  expect(text[1]).toContain('Weather');
  await tab.close();
}, 60_000);
