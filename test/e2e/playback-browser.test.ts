import { afterAll, beforeAll, expect, test } from 'bun:test';
import { chromium, type Browser } from 'playwright-core';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled } from './transcode-helpers';

const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let s: TestServer;
let browser: Browser | null = null;
let page: ReturnType<typeof Bun.serve> | null = null;
let asset: string;
beforeAll(async () => {
  s = await startTestServer({});
  asset = registerAsset(s.ctx, await makeClip(join(s.dataDir, 'src.mp4'), { seconds: 6 }));
  expect((await settled(s.ctx, asset, 120_000))!.status).toBe('ready');
  page = Bun.serve({
    hostname: '127.0.0.1', port: 0,
    fetch(req) {
      const u = new URL(req.url);
      if (u.pathname === '/hls.min.js') return new Response(Bun.file('node_modules/hls.js/dist/hls.min.js'), { headers: { 'content-type': 'text/javascript' } });
      const src = u.searchParams.get('src')!;
      // The page a customer would build: hls.js plays the tokenised URL; errors are recorded for the test.
      return new Response(`<!doctype html><video id="v" muted playsinline></video><script src="/hls.min.js"></script><script>
        window.fatal = null; window.level = null;
        const v = document.getElementById('v'); const hls = new Hls();
        hls.on(Hls.Events.ERROR, (_e, d) => { if (d.fatal) window.fatal = d.type + ':' + d.details; });
        hls.on(Hls.Events.MANIFEST_PARSED, (_e, d) => { window.levels = d.levels.length; v.play().catch((e) => { window.fatal = 'play: ' + e; }); });
        hls.loadSource(${JSON.stringify(src)}); hls.attachMedia(v);</script>`, { headers: { 'content-type': 'text/html' } });
    },
  });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, timeout: 30_000 });
}, 180_000);
afterAll(async () => { await browser?.close(); page?.stop(true); await s?.stop(); });

async function plays(src: string): Promise<{ t: number; levels: number }> {
  const tab = await browser!.newPage();
  try {
    await tab.goto(`http://127.0.0.1:${page!.port}/?src=${encodeURIComponent(src)}`);
    const st = () => tab.evaluate(() => { const w = window as unknown as { fatal: string | null; levels: number }; return { t: (document.getElementById('v') as HTMLVideoElement).currentTime, fatal: w.fatal, levels: w.levels }; });
    return (await waitFor('currentTime passes 1.5 s', async () => { const x = await st(); if (x.fatal) throw new Error(x.fatal); return x.t > 1.5 ? x : null; }, 30_000, 200))!;
  } finally { await tab.close(); }
}

test('a ready asset plays in Chromium with hls.js through a token, clear and AES-128', async () => {
  const clear = await (await s.api('POST', '/v1/playback/tokens', { asset })).json() as { src: string };
  const a = await plays(clear.src);
  expect(a.levels).toBeGreaterThanOrEqual(1);
  const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'aes', require_encryption: true, require_token: true })).json() as { id: string };
  await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: asset });
  const enc = await (await s.api('POST', '/v1/playback/tokens', { asset })).json() as { src: string };
  expect(enc.src).toContain('/aes/');
  expect((await plays(enc.src)).t).toBeGreaterThan(1.5);
}, 120_000);
