import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/server';
import { waitFor } from '../helpers/server';
import { launch, playsPast, serverWithAsset } from './player-helpers';

let s: TestServer;
let asset: string;
let browser: Browser;
beforeAll(async () => {
  ({ s, asset } = await serverWithAsset(8));
  browser = await launch();
}, 180_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

test('the iframe page plays an asset (autoplay muted), engine loaded lazily, vs:ready fired', async () => {
  const tab = await browser.newPage();
  const errors: string[] = [];
  tab.on('pageerror', (e) => errors.push(String(e)));
  tab.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await tab.goto(`${s.url}/e/default/vod/${asset}?autoplay=1`);
  const t = await playsPast(tab, 1.5).catch((e) => { throw new Error(`${e}; page errors: ${errors.join(' | ')}`); });
  expect(t).toBeGreaterThan(1.5);
  const st = await tab.evaluate(() => {
    const w = window as unknown as { VSEmbed: { version: string; players: { engine: { name: string }; video: HTMLVideoElement }[] } };
    return { version: w.VSEmbed.version, engine: w.VSEmbed.players[0].engine.name, muted: w.VSEmbed.players[0].video.muted };
  });
  expect(st.version).toBe('1.3.0');
  expect(st.muted).toBe(true);
  console.log('engine', st.engine);
  await tab.close();
}, 60_000);
