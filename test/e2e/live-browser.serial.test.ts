import { afterAll, beforeAll, expect, test } from 'bun:test';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, parseMedia, push } from './live-helpers';

const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let s: TestServer;
let page: ReturnType<typeof Bun.serve> | null = null;
let browser: Browser | null = null;
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });
afterAll(async () => { await browser?.close(); page?.stop(true); await killPushers(); await s?.stop(); });

/** A test-local page that plays `src` with hls.js (served from node_modules), reporting fatal errors. */
function playerPage(src: string): string {
  return `<!doctype html><html><body><video id="v" muted playsinline></video><script src="/hls.min.js"></script><script>
    window.fatal = null; window.errors = [];
    const v = document.getElementById('v');
    if (!Hls.isSupported()) window.fatal = 'hls.js not supported';
    const hls = new Hls({ liveSyncDurationCount: 2 });
    hls.on(Hls.Events.ERROR, (_e, d) => { window.errors.push(d.details); if (d.fatal) window.fatal = d.type + ':' + d.details; });
    hls.on(Hls.Events.MANIFEST_PARSED, () => { v.play().catch((e) => { window.fatal = 'play: ' + e; }); });
    hls.loadSource(${JSON.stringify(src)});
    hls.attachMedia(v);
  </script></body></html>`;
}

test('an SRT-pushed channel plays in headless Chromium with hls.js: currentTime advances, no fatal error', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Browser', slug: 'browser' })).json();
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  push(ing.srt.primary.url, { seconds: 60 });
  await waitFor('3 segments listed', async () => parseMedia(await (await fetch(`${s.url}/live/default/browser/src/index.m3u8`)).text()).length >= 3, 30_000);

  const src = `${s.url}/live/default/browser/master.m3u8`;
  page = Bun.serve({
    hostname: '127.0.0.1', port: 0,
    fetch(req) {
      const p = new URL(req.url).pathname;
      if (p === '/hls.min.js') return new Response(Bun.file('node_modules/hls.js/dist/hls.min.js'), { headers: { 'content-type': 'text/javascript' } });
      if (p === '/') return new Response(playerPage(src), { headers: { 'content-type': 'text/html' } });
      return new Response('not found', { status: 404 });
    },
  });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, timeout: 30_000 });
  const tab = await browser.newPage();
  await tab.goto(`http://127.0.0.1:${page.port}/`);
  const state = () => tab.evaluate(() => {
    const w = window as unknown as { fatal: string | null; errors: string[] };
    const v = document.getElementById('v') as HTMLVideoElement;
    return { t: v.currentTime, fatal: w.fatal, errors: w.errors, paused: v.paused };
  });
  const first = (await waitFor('playback starts', async () => { const st = await state(); if (st.fatal) throw new Error(st.fatal); return st.t > 0.2 ? st : null; }, 30_000, 200))!;
  const later = (await waitFor('currentTime advances by 2 s', async () => { const st = await state(); if (st.fatal) throw new Error(st.fatal); return st.t > first.t + 2 ? st : null; }, 20_000, 200))!;
  expect(later.fatal).toBeNull();
  expect(later.paused).toBe(false);
}, 90_000);
