#!/usr/bin/env bun
/**
 * Player benchmark: time to first frame in headless Chromium for the hosted iframe page (/e/…?autoplay=1: HTML →
 * embed.js → playback session → lazy hls.js → first frame) against a bare page that plays the same asset with
 * hls.js and a URL signed in advance, alternating in the same run, each load in a fresh browser context (cold cache).
 * First frame = the first requestVideoFrameCallback after `playing`, in ms from navigation start. Prints medians,
 * the ratio (target ≤ 1.1) and the gzipped sizes of the loader and each lazy chunk.
 * Usage: bun scripts/bench/player.ts [--runs 10]
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startTestServer } from '../../test/helpers/server';
import { makeClip, registerAsset, settled } from '../../test/e2e/transcode-helpers';
import { ARGS } from '../../test/e2e/player-helpers';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const runs = Number(values.runs);
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const gz = async (url: string) => Bun.gzipSync(new Uint8Array(await (await fetch(url)).arrayBuffer())).length;

const s = await startTestServer({ env: { VS_LOG_LEVEL: 'error' } });
try {
  const asset = registerAsset(s.ctx, await makeClip(join(s.dataDir, 'bench.mp4'), { seconds: 10, size: '1280x720' }));
  const a = await settled(s.ctx, asset, 300_000);
  if (a.status !== 'ready') throw new Error(`asset ${a.status}`);
  const bare = Bun.serve({
    hostname: '127.0.0.1', port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      if (u.pathname === '/hls.min.js') return new Response(Bun.file('node_modules/hls.js/dist/hls.min.js'), { headers: { 'content-type': 'text/javascript' } });
      // A customer page that signs the URL on its server (like the session the iframe page opens in the browser).
      const src = ((await (await s.api('POST', '/v1/playback/tokens', { asset })).json()) as { src: string }).src;
      return new Response(`<!doctype html><body style="margin:0"><video id="v" muted autoplay playsinline style="width:640px"></video><script src="/hls.min.js"></script><script>
        const v = document.getElementById('v'); const hls = new Hls(); hls.loadSource(${JSON.stringify(src)}); hls.attachMedia(v); v.play().catch(() => {});</script>`, { headers: { 'content-type': 'text/html' } });
    },
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  const ttff = async (url: string): Promise<number> => {
    const ctx = await browser.newContext({ viewport: { width: 660, height: 400 } });
    await ctx.addInitScript(() => {
      document.addEventListener('playing', (e) => {
        const v = e.target as HTMLVideoElement & { requestVideoFrameCallback(cb: () => void): void };
        const w = window as unknown as { __ttff?: number };
        if (w.__ttff === undefined) v.requestVideoFrameCallback(() => { w.__ttff ??= performance.now(); });
      }, true);
    });
    const tab = await ctx.newPage();
    await tab.goto(url);
    const h = await tab.waitForFunction(() => (window as unknown as { __ttff?: number }).__ttff, undefined, { timeout: 30_000, polling: 20 });
    const v = Number(await h.jsonValue());
    await ctx.close();
    return v;
  };
  const iframeUrl = `${s.url}/e/default/vod/${asset}?autoplay=1`;
  const bareUrl = `http://127.0.0.1:${bare.port}/`;
  await ttff(iframeUrl); await ttff(bareUrl); // warm the server side (first bundle build, file cache) before timing
  const ours: number[] = [], base: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2) { base.push(await ttff(bareUrl)); ours.push(await ttff(iframeUrl)); } else { ours.push(await ttff(iframeUrl)); base.push(await ttff(bareUrl)); }
  }
  const mo = median(ours), mb = median(base);
  console.log(`time to first frame, median of ${runs} (cold browser cache each load):`);
  console.log(`  iframe page /e/ (embed.js + session + lazy hls.js): ${mo.toFixed(0)} ms   [${ours.map((x) => x.toFixed(0)).join(', ')}]`);
  console.log(`  bare hls.js page (pre-signed URL):                  ${mb.toFixed(0)} ms   [${base.map((x) => x.toFixed(0)).join(', ')}]`);
  console.log(`  ratio: ${(mo / mb).toFixed(3)} (target <= 1.1)`);
  console.log('gzipped sizes:');
  console.log(`  loader /embed.js:         ${((await gz(`${s.url}/embed.js`)) / 1024).toFixed(1)} KB (limit 30 KB)`);
  console.log(`  lazy hls.js (hls.mjs):    ${((await gz(`${s.url}/embed/1.3.0/hls.mjs`)) / 1024).toFixed(1)} KB (only without native HLS)`);
  console.log(`  lazy DASH (dash.mjs):     ${((await gz(`${s.url}/embed/1.3.0/dash.mjs`)) / 1024).toFixed(1)} KB (only for .mpd)`);
  console.log(`  lazy VAST (vast.mjs):     ${((await gz(`${s.url}/embed/1.3.0/vast.mjs`)) / 1024).toFixed(1)} KB (only when an ad is due)`);
  await browser.close();
  bare.stop(true);
} finally {
  await s.stop();
}
