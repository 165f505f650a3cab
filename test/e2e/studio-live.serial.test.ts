import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, push, type Pusher } from './live-helpers';
import { expectRtl, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
let pusher: Pusher | null = null;
beforeAll(async () => { ({ s, browser } = await startStudio({ env: await liveEnv() })); }, 60_000);
afterAll(async () => { pusher?.kill(); await killPushers(); await browser?.close(); await s?.stop(); }, 60_000);

test('create a channel, start it, push SRT to the address copied from the page → live with a bitrate graph and the live player; Hebrew mirrors; stop', async () => {
  const page = await studioTab(browser, s);
  try {
    await page.click('a[href="/studio/live"]');
    await page.fill('#channel-name', 'Studio live');
    await page.fill('#channel-slug', 'studio-live');
    await page.click('#create-channel button[type=submit]');
    await page.waitForSelector('#ingest');
    await page.click('#start');
    await page.waitForSelector('#stop');
    // The person reveals the SRT address (passphrase included) and gives it to the encoder.
    const srt = page.locator('#ingest .copy').first();
    await srt.locator('button').first().click();
    const url = (await srt.locator('.copy-value').textContent())!;
    expect(url).toStartWith('srt://');
    pusher = push(url);
    await page.waitForSelector('#health .b-live', { timeout: 60_000 });
    // The bitrate graph samples the channel every 2 s (the API's input.bitrate_kbps, else the newest segment's bytes ÷ duration).
    await waitFor('a bitrate figure', async () => /\d/.test((await page.textContent('#bitrate')) ?? ''), 30_000, 250);
    await page.waitForSelector('#health-panel canvas', { timeout: 30_000 });
    await page.waitForSelector('#live-player video', { timeout: 30_000 });
    await waitFor('the live player plays', () => page.evaluate(() => {
      const v = document.querySelector<HTMLVideoElement>('#live-player video');
      if (v?.paused) void v.play().catch(() => {});
      return (v?.currentTime ?? 0) > 0.5;
    }), 60_000, 250);
    await waitFor('three bitrate samples on the graph', async () => Number(await page.getAttribute('#health-panel', 'data-samples')) >= 3, 30_000, 250);
    await shot(page, 'channel-live-en');

    const he = await studioTab(browser, s, { lang: 'he' });
    try {
      await he.goto(page.url());
      await he.waitForSelector('#health .b-live');
      await expectRtl(he);
      expect(await he.textContent('#health')).toContain('בשידור');
      await he.waitForSelector('#health-panel canvas', { timeout: 30_000 });
      await shot(he, 'channel-live-he');
    } finally { await he.context().close(); }

    // Clips: cut the last seconds of the recording (segment precision: ready at once) and watch it.
    await page.click('a[href="/studio/clips"]');
    await page.waitForSelector('#clip-form');
    const two = (n: number) => String(n).padStart(2, '0');
    const local = (t: number) => { const d = new Date(t); return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`; };
    await page.fill('#clip-title', 'First clip');
    await page.fill('#clip-start', local(Date.now() - 9_000));
    await page.fill('#clip-end', local(Date.now() - 3_000));
    await page.click('#clip-form button[type=submit]');
    await page.waitForSelector('#clips >> text=First clip');
    await page.waitForSelector('#clip-player video', { timeout: 30_000 });
    await waitFor('the clip plays', () => page.evaluate(() => {
      const v = document.querySelector<HTMLVideoElement>('#clip-player video');
      if (v?.paused) void v.play().catch(() => {});
      return (v?.currentTime ?? 0) > 0.3;
    }), 60_000, 250);
    // (the Clips page's screenshot comes from studio-clips.serial.test.ts, with its timeline)
    await page.goBack();
    await page.waitForSelector('#stop');
    // On air: stopping asks first (accepted here).
    const asked = new Promise<string>((r) => page.once('dialog', (d) => { const m = d.message(); void d.accept().then(() => r(m)); }));
    await page.click('#stop');
    expect(await asked).toContain('It is on air now');
    await page.waitForSelector('#start');
    pusher.kill();
    await waitFor('stopped', async () => (await page.locator('#health .b-stopped').count()) > 0, 30_000, 250);
  } finally { await page.context().close(); }
}, 240_000);
