import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { launch, playsPast, serverWithAsset } from './player-helpers';

let s: TestServer;
let asset: string;
let browser: Browser;
beforeAll(async () => {
  ({ s, asset } = await serverWithAsset(8, { VS_STATS_FLUSH_MS: '500' }));
  browser = await launch();
}, 180_000);
afterAll(async () => { await browser?.close(); await s?.stop(); });

const get = async <T>(path: string): Promise<T> => {
  const r = await s.api('GET', path);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json() as Promise<T>;
};

test('a real view (hosted player in Chromium) appears in realtime, overview, timeseries, top, sessions (joined with the origin log) and the sessions export', async () => {
  const ctx = await browser.newContext();
  const tab = await ctx.newPage();
  await tab.goto(`${s.url}/e/default/vod/${asset}?autoplay=1`);
  await playsPast(tab, 2);
  const sid = await tab.evaluate(() => (window as unknown as { VSEmbed: { players: { beacon: { sid: string } }[] } }).VSEmbed.players[0].beacon.sid);
  await tab.evaluate(() => (window as unknown as { VSEmbed: { players: { beacon: { flush(): void } }[] } }).VSEmbed.players[0].beacon.flush());

  // Realtime: the playing session counts as a concurrent viewer of the asset.
  const rt = await waitFor('realtime viewer', async () => {
    const r = await get<{ concurrent: number; by_content: { id: string; concurrent: number }[] }>('/v1/stats/realtime');
    return r.by_content.find((c) => c.id === asset) ? r : null;
  }, 20_000, 250);
  expect(rt!.concurrent).toBe(1);

  await playsPast(tab, 4);
  await tab.evaluate(() => (document.querySelector('video') as HTMLVideoElement).pause());
  await tab.goto('about:blank'); // pagehide flushes the beacon
  await ctx.close();

  // Overview, after the sessionizer's pass (every flush interval).
  type Overview = { current: Record<string, number | null> };
  const ov = await waitFor('the view in the overview', async () => {
    const o = await get<Overview>('/v1/stats/overview');
    return o.current.plays === 1 && (o.current.watch_time ?? 0) >= 3 ? o : null;
  }, 20_000, 250);
  expect(ov!.current.attempts).toBe(1);
  expect(ov!.current.startup_avg).toBeGreaterThan(0);
  expect(ov!.current.requests).toBeGreaterThan(0); // the origin log saw the playlists and segments
  expect(ov!.current.bytes).toBeGreaterThan(0);

  const ts = await get<{ points: { value: number | null }[] }>('/v1/stats/timeseries?metric=plays');
  expect(ts.points.reduce((a, p) => a + (p.value ?? 0), 0)).toBe(1);
  const top = await get<{ items: { id: string; value: number }[] }>('/v1/stats/top?entity=assets&metric=watch_time');
  expect(top.items[0].id).toBe(asset);

  // The session joined with the origin's own request log through the token's sid.
  const ses = await get<{ items: Record<string, unknown>[] }>('/v1/stats/sessions');
  const mine = ses.items.find((i) => i.sid === sid)!;
  expect(mine).toMatchObject({ played: true, content_id: asset });
  expect(Number(mine.origin_bytes)).toBeGreaterThan(0);

  const csv = await (await s.api('GET', '/v1/stats/export?report=sessions&format=csv')).text();
  expect(csv.split('\r\n')[1]).toContain(sid);
}, 120_000);
