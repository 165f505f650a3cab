import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled } from './transcode-helpers';
import { playsPast } from './player-helpers';
import { startStudio, studioTab } from './studio-helpers';

// Issue 42 item 2: studio playback is not audience. An editor's preview in the studio plays through a studio
// session whose beacons are counted apart; the dashboard's plays, watching now and top list count the public
// watch page only, and the top list agrees with the totals.
let s: TestServer;
let browser: Browser;
let asset: string;
beforeAll(async () => {
  ({ s, browser } = await startStudio({ env: { VS_STATS_FLUSH_MS: '300', VS_TRANSCODE_ENCODER: 'libx264' } }));
  asset = registerAsset(s.ctx, await makeClip(join(s.dataDir, 'studio-audience.mp4'), { seconds: 8, size: '640x360' }));
  const a = await settled(s.ctx, asset, 120_000);
  if (a.status !== 'ready') throw new Error(`asset ${a.status}: ${a.error}`);
  await s.api('PATCH', `/v1/assets/${asset}`, { title: 'Morning bulletin', publish: true });
}, 180_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

type Json = Record<string, any>;
const get = async (path: string) => (await (await s.api('GET', path)).json()) as Json;
/** Sends what the page's player has queued (the player also does on pagehide and every 10 s). */
const flush = (tab: Page) => tab.evaluate(() => (window as unknown as { VSEmbed: { players: { beacon: { flush(): void } | null }[] } }).VSEmbed.players.forEach((p) => p.beacon?.flush()));
const statText = (tab: Page, label: string) => tab.locator('.stat', { hasText: label }).locator('strong').first().textContent();

test('an editor previewing in the studio is no audience: dashboard 0 plays and 0 watching; a public view then counts as 1 and tops the list', async () => {
  const editor = await studioTab(browser, s);
  const dash = await studioTab(browser, s);
  const viewer = await browser.newContext();
  try {
    // The editor plays the video on its studio page and keeps it playing.
    await editor.goto(`${s.url}/studio/library/${asset}`);
    await editor.waitForSelector('#player[data-studio="1"] video');
    await editor.click('#player .vs-big'); // the player's own play button, as the editor would
    await playsPast(editor, 1.5);
    await flush(editor);
    // The appliance took the studio beacons as studio playback: one preview playing now, none of it audience.
    const intake = await waitFor('studio beacons received', async () => { const b = await get('/v1/stats/beacons'); return b.studio_concurrent === 1 ? b : null; }, 15_000, 100);
    expect(intake).toMatchObject({ audience: 0, dropped: { unbound: 0, tenant: 0, content: 0, viewer: 0 } });
    expect(intake!.studio).toBeGreaterThan(0);
    expect((await get('/v1/stats/realtime')).concurrent).toBe(0);
    await dash.goto(`${s.url}/studio`);
    await dash.waitForSelector('#studio-now');
    expect(await dash.textContent('#viewers-now')).toBe('0');
    expect(await statText(dash, 'Plays')).toBe('0');
    expect(await dash.textContent('#studio-now')).toContain('1');

    // A viewer on the public watch page: exactly one play and one watching now, while the editor still plays.
    const tab = await viewer.newPage();
    await tab.goto(`${s.url}/w/default/vod/${asset}`);
    await tab.click('.vs-big');
    await playsPast(tab, 1.5);
    await flush(tab);
    await flush(editor);
    await waitFor('one viewer now', async () => (await get('/v1/stats/realtime')).concurrent === 1, 15_000, 100);
    await waitFor('one play counted', async () => (await get('/v1/stats/overview')).current.plays === 1, 20_000, 200);
    await dash.reload();
    await dash.waitForSelector('#top-content li');
    expect(await dash.textContent('#viewers-now')).toBe('1');
    expect(await statText(dash, 'Plays')).toBe('1');
    // The top list agrees with the totals: the one play is the one item, named by its title.
    const items = await dash.locator('#top-content li').allTextContents();
    expect(items).toEqual(['Morning bulletin1']);
    const rt = await get('/v1/stats/realtime');
    expect(rt.by_content).toEqual([{ kind: 'vod', id: asset, concurrent: 1 }]);
  } finally { await editor.context().close(); await dash.context().close(); await viewer.close(); }
}, 180_000);
