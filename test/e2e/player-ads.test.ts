import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { join } from 'node:path';
import { waitFor, type TestServer } from '../helpers/server';
import { makeClip } from './transcode-helpers';
import { launch, playsPast, serverWithAsset } from './player-helpers';

let s: TestServer;
let asset: string;
let browser: Browser;
let hls: string;
let site: ReturnType<typeof Bun.serve>;
const pixels: string[] = [];
beforeAll(async () => {
  ({ s, asset } = await serverWithAsset(12));
  hls = ((await (await s.api('GET', `/v1/assets/${asset}`)).json()) as { playback: { hls: string } }).playback.hls;
  const adFile = await makeClip(join(s.dataDir, 'ad.mp4'), { seconds: 3, extra: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'] });
  // An ad server and a customer page on one origin: VAST 3 with one linear creative and tracking pixels.
  site = Bun.serve({
    hostname: '127.0.0.1', port: 0,
    fetch(req) {
      const u = new URL(req.url);
      const base = `http://127.0.0.1:${site.port}`;
      if (u.pathname === '/px') { pixels.push(u.searchParams.get('e')!); return new Response(new Uint8Array([71, 73, 70]), { headers: { 'content-type': 'image/gif' } }); }
      if (u.pathname === '/ad.mp4') return new Response(Bun.file(adFile), { headers: { 'content-type': 'video/mp4' } });
      if (u.pathname === '/vast.xml') {
        const skip = u.searchParams.get('skip');
        const ev = (e: string) => `<Tracking event="${e}"><![CDATA[${base}/px?e=${e}]]></Tracking>`;
        return new Response(`<?xml version="1.0"?><VAST version="3.0"><Ad id="ad-1"><InLine><AdSystem>test</AdSystem><AdTitle>Test ad</AdTitle>
          <Impression><![CDATA[${base}/px?e=impression]]></Impression><Creatives><Creative><Linear${skip ? ` skipoffset="${skip}"` : ''}><Duration>00:00:03</Duration>
          <TrackingEvents>${['start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete', 'skip'].map(ev).join('')}</TrackingEvents>
          <VideoClicks><ClickThrough><![CDATA[${base}/landing]]></ClickThrough></VideoClicks>
          <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[${base}/ad.mp4]]></MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>`,
        { headers: { 'content-type': 'application/xml', 'access-control-allow-origin': '*' } });
      }
      const opts = u.searchParams.get('o')!;
      return new Response(`<!doctype html><body style="margin:0"><script>window.ev=[];document.addEventListener('vs:ready',(e)=>{for(const n of ['adstart','adend','adskip','adclick','quartile'])e.detail.player.addEventListener(n,(x)=>window.ev.push(n+(x.detail&&x.detail.quartile?':'+x.detail.quartile:'')));});</script>
        <div style="width:640px"><script src="${s.url}/embed.js" data-src="${hls}" data-autoplay="1" data-muted="1" data-options='${opts}'></script></div></body>`, { headers: { 'content-type': 'text/html' } });
    },
  });
  browser = await launch();
}, 180_000);
afterAll(async () => { await browser?.close(); site?.stop(true); await s?.stop(); }, 60_000);

const open = async (ads: Record<string, unknown>): Promise<Page> => {
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${site.port}/?o=${encodeURIComponent(JSON.stringify({ ads }))}`);
  return tab;
};
const events = (tab: Page) => tab.evaluate(() => (window as unknown as { ev: string[] }).ev);

test('VAST pre-roll: ad plays first with tracking (impression, quartiles, complete), then the content', async () => {
  pixels.length = 0;
  const tab = await open({ vast: `http://127.0.0.1:${site.port}/vast.xml` });
  await waitFor('adend', async () => (await events(tab)).includes('adend'), 30_000, 100);
  expect(await events(tab)).toEqual(['adstart', 'quartile:1', 'quartile:2', 'quartile:3', 'adend']);
  await playsPast(tab, 1);
  await waitFor('pixels', async () => ['impression', 'start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete'].every((e) => pixels.includes(e)), 10_000, 100);
  await tab.close();
}, 60_000);

test('skippable ad: the skip button appears after the offset; adskip, skip pixel, content resumes', async () => {
  pixels.length = 0;
  const tab = await open({ vast: `http://127.0.0.1:${site.port}/vast.xml?skip=00:00:01` });
  await tab.waitForSelector('.vs-skip:not([hidden])', { timeout: 20_000 });
  await tab.click('.vs-skip');
  await waitFor('adend', async () => (await events(tab)).includes('adend'), 10_000, 100);
  expect(await events(tab)).toContain('adskip');
  await playsPast(tab, 1);
  await waitFor('skip pixel', async () => pixels.includes('skip'), 10_000, 100);
  await tab.close();
}, 60_000);

test('mid-roll at a cue (no pre-roll when the configuration says so); metadata.ads.disabled turns ads off on the hosted page', async () => {
  const c = await (await s.api('POST', '/v1/player-configs', { name: 'midonly', ads: { enabled: true, vast_url: `http://127.0.0.1:${site.port}/vast.xml`, preroll: false } })).json() as { id: string };
  expect(c.id).toBeTruthy();
  await s.api('PATCH', `/v1/assets/${asset}`, { metadata: { ads: { cues: [2] } } });
  const tab = await browser.newPage();
  await tab.addInitScript(() => { (window as unknown as { ev: string[] }).ev = []; document.addEventListener('vs:ready', (e) => { const p = (e as CustomEvent).detail.player as EventTarget; for (const n of ['adstart', 'adend']) p.addEventListener(n, () => (window as unknown as { ev: string[] }).ev.push(n)); }); });
  await tab.goto(`${s.url}/e/default/vod/${asset}?autoplay=1&config=midonly`);
  await playsPast(tab, 1);
  expect(await events(tab)).toEqual([]);
  await waitFor('mid-roll', async () => (await events(tab)).includes('adend'), 30_000, 100);
  const at = await tab.evaluate(() => (document.querySelector('.vs-box > video') as HTMLVideoElement).currentTime);
  expect(at).toBeGreaterThanOrEqual(2);
  expect(await tab.locator('.vs-mark.vs-adcue').count()).toBe(1);
  await s.api('PATCH', `/v1/assets/${asset}`, { metadata: { ads: { cues: [2], disabled: true } } });
  const off = await browser.newPage();
  await off.addInitScript(() => { (window as unknown as { ev: string[] }).ev = []; document.addEventListener('vs:ready', (e) => { ((e as CustomEvent).detail.player as EventTarget).addEventListener('adstart', () => (window as unknown as { ev: string[] }).ev.push('adstart')); }); });
  await off.goto(`${s.url}/e/default/vod/${asset}?autoplay=1&config=midonly`);
  await playsPast(off, 3.5);
  expect(await events(off)).toEqual([]);
  await tab.close(); await off.close();
}, 90_000);
