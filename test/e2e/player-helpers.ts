import { chromium, type Browser, type Page } from 'playwright-core';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled } from './transcode-helpers';

/** Chromium flags for headless player tests. */
export const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Launches Debian's Chromium. */
export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, timeout: 30_000 });
}

/** A test server with one ready asset (`seconds` long, default 8). */
export async function serverWithAsset(seconds = 8, env: Record<string, string> = {}): Promise<{ s: TestServer; asset: string }> {
  const s = await startTestServer({ env });
  const asset = registerAsset(s.ctx, await makeClip(join(s.dataDir, 'src.mp4'), { seconds, size: '640x360' }));
  const a = await settled(s.ctx, asset, 120_000);
  if (a.status !== 'ready') throw new Error(`asset ${a.status}: ${a.error}`);
  return { s, asset };
}

/** Waits until the first player's video time passes `t` seconds; returns it. */
export async function playsPast(tab: Page, t: number, timeoutMs = 30_000): Promise<number> {
  return (await waitFor(`currentTime > ${t}`, async () => {
    const x = await tab.evaluate(() => { const v = document.querySelector('video'); return v ? v.currentTime : -1; });
    return x > t ? x : null;
  }, timeoutMs, 100))!;
}

/** A plain page server (another origin) that returns `html(url)` for every path. */
export function pageServer(html: (u: URL) => string): ReturnType<typeof Bun.serve> {
  return Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => new Response(html(new URL(req.url)), { headers: { 'content-type': 'text/html; charset=utf-8' } }) });
}
