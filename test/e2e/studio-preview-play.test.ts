import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { makeClip } from './transcode-helpers';
import { startStudio, studioTab } from './studio-helpers';

// Issue 42 item 4: the studio plays an upload's preview as soon as the appliance has one (asset.preview_ready on the
// event stream), in the upload's row, without navigating; library rows follow the event stream to ready without a
// reload. Times are printed (upload completion → API preview → first frame in the studio), not asserted.
let s: TestServer;
let browser: Browser;
let clip: string;
beforeAll(async () => {
  ({ s, browser } = await startStudio({ env: { VS_TRANSCODE_ENCODER: 'libx264' } }));
  // A browser-ready H.264/AAC MP4 with 1 s GOPs: the appliance remuxes it into a preview while it encodes the ladder.
  clip = await makeClip(join(s.dataDir, 'newsroom-preview.mp4'), { size: '640x360', seconds: 6, extra: ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p'] });
}, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

const eventAt = (type: string, asset: string) => s.ctx.db.query<{ at: number }, [string, string]>(`SELECT at FROM events WHERE type = ? AND json_extract(data, '$.asset') = ?`).get(type, asset)?.at ?? null;

test('an upload plays its preview in its row as soon as the API has one, and its library row turns ready without a reload', async () => {
  const page = await studioTab(browser, s);
  try {
    await page.goto(`${s.url}/studio/library`);
    await page.waitForSelector('#drop');
    // A reload or a navigation would lose this mark.
    await page.evaluate(() => { (window as unknown as { __same: number }).__same = 1; });
    const picked = Date.now();
    await page.setInputFiles('#file-input', clip);
    const link = await page.waitForSelector('#uploads li.up-done .phase a', { timeout: 60_000 });
    const assetId = decodeURIComponent((await link.getAttribute('href'))!.split('/').pop()!);
    const completed = s.ctx.db.query<{ created_at: number }, [string]>('SELECT created_at FROM assets WHERE id = ?').get(assetId)!.created_at;
    // The row's player shows a frame moving: the video's clock advances while it plays.
    const firstFrame = (await waitFor('a frame plays in the upload row', async () => {
      const v = await page.evaluate(() => {
        const el = document.querySelector('#upload-player video') as HTMLVideoElement | null;
        return el ? { t: el.currentTime, ready: el.readyState, paused: el.paused } : null;
      });
      return v && v.t > 0 && v.ready >= 2 && !v.paused ? Date.now() : null;
    }, 90_000, 25))!;
    expect(await page.getAttribute('#upload-player', 'data-asset')).toBe(assetId);
    const previewReady = eventAt('asset.preview_ready', assetId);
    expect(previewReady).not.toBeNull(); // the preview the row plays is the one the API announced
    // The library row of the new asset turns ready in place, with no reload or navigation.
    const row = page.locator(`#asset-list a.asset-row[href="/studio/library/${encodeURIComponent(assetId)}"] .badge`).first();
    await waitFor('row is ready', async () => (await row.getAttribute('class'))?.includes('b-ready') ?? false, 120_000, 100);
    const readyAt = eventAt('asset.ready', assetId);
    const rowReady = Date.now();
    expect(new URL(page.url()).pathname).toBe('/studio/library');
    expect(await page.evaluate(() => (window as unknown as { __same?: number }).__same)).toBe(1);
    console.log(`studio preview: chosen→upload complete ${completed - picked} ms; complete→API preview ${previewReady! - completed} ms; complete→first frame in the row ${firstFrame - completed} ms (≤ ${firstFrame - previewReady!} ms after the preview event, polled every 25 ms); asset.ready→row ready ${rowReady - readyAt!} ms (≤, polled)`);
  } finally { await page.context().close(); }
}, 240_000);
