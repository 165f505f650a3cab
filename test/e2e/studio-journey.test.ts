import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { makeClip } from './transcode-helpers';
import { startReceiver, type Receiver } from './webhooks-receiver';
import { expectLtr, expectRtl, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
let rx: Receiver;
const clips: string[] = [];

beforeAll(async () => {
  ({ s, browser } = await startStudio());
  rx = startReceiver();
  for (const n of ['harbour-a', 'harbour-b']) clips.push(await makeClip(join(s.dataDir, `${n}.mp4`), { seconds: 2, size: '320x180' }));
}, 120_000);
afterAll(async () => { await browser?.close(); rx?.stop(); await s?.stop(); }, 60_000);

/** Checks the direction of the page against the language of the journey. */
const dirOk = (page: Page, lang: 'en' | 'he') => (lang === 'he' ? expectRtl(page) : expectLtr(page));

/** The whole journey in one language: upload two files → watch one → create a channel → add a webhook and see its delivery. */
async function journey(lang: 'en' | 'he'): Promise<void> {
  const page = await studioTab(browser, s, { lang });
  try {
    if (lang === 'he') {
      // The server picked Hebrew from Accept-Language; switching to English and back works in place.
      expect(await page.textContent('nav.side')).toContain('ספרייה');
      await page.click('#lang-switch');
      await page.waitForFunction(() => document.documentElement.dir === 'ltr');
      await page.click('#lang-switch');
      await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    }
    await dirOk(page, lang);
    await page.waitForSelector('#viewers-now'); // (the dashboard's screenshot, with data, comes from studio-ui.test.ts)

    // Library: two files at once, each with its own progress bar that reaches 100 % and links to its asset.
    await page.click('a[href="/studio/library"]');
    await page.waitForSelector('#drop');
    await page.setInputFiles('#file-input', clips);
    await page.waitForSelector('#uploads progress');
    expect(await page.locator('#uploads li').count()).toBe(2);
    await waitFor('both uploads done', async () => (await page.locator('#uploads li.up-done').count()) === 2, 60_000, 200);
    expect(await page.locator('#uploads progress').evaluateAll((ps) => ps.map((p) => (p as HTMLProgressElement).value))).toEqual([100, 100]);
    await waitFor('both assets listed', async () => (await page.locator('#asset-list .asset-row').count()) >= 2, 30_000, 200);
    await dirOk(page, lang);
    await shot(page, `library-${lang}`);

    // Asset page: processing, then our player plays it; the timeline and renditions fill in.
    await page.locator('#uploads li.up-done a').first().click();
    await page.waitForSelector('#timeline');
    await page.waitForSelector('#player video', { timeout: 120_000 });
    await page.evaluate(() => { const v = document.querySelector<HTMLVideoElement>('#player video')!; v.muted = true; void v.play(); });
    await waitFor('the asset plays', () => page.evaluate(() => (document.querySelector<HTMLVideoElement>('#player video')?.currentTime ?? 0) > 0.3), 60_000, 200);
    await page.waitForSelector('#renditions tbody tr');
    expect(await page.locator('#timeline li').count()).toBeGreaterThanOrEqual(3);
    await dirOk(page, lang);
    await shot(page, `asset-${lang}`);

    // Live: create a channel; its page shows ingest addresses with copy buttons and the health panel.
    await page.click('a[href="/studio/live"]');
    await page.fill('#channel-name', lang === 'he' ? 'ערוץ חדשות' : 'News channel');
    await page.fill('#channel-slug', `news-${lang}`);
    await page.click('#create-channel button[type=submit]');
    await page.waitForSelector('#ingest');
    // A new channel takes SRT: only its primary and backup SRT addresses are shown, no RTMP address it would refuse.
    expect(await page.locator('#ingest .copy').count()).toBe(2);
    expect(await page.textContent('#ingest')).not.toContain('rtmp://');
    // The SRT address is shown with its passphrase masked until asked for.
    const chId = page.url().split('/').pop()!;
    const ing = await (await s.api('GET', `/v1/channels/${chId}/ingest`)).json() as { srt: { primary: { passphrase: string } } };
    expect(await page.textContent('#ingest')).toContain('srt://');
    expect(await page.textContent('#ingest')).not.toContain(ing.srt.primary.passphrase);
    await page.locator('#ingest .copy').first().locator('button').first().click();
    expect(await page.textContent('#ingest')).toContain(ing.srt.primary.passphrase);
    await page.waitForSelector('#health');
    await dirOk(page, lang);
    await shot(page, `channel-${lang}`);
    await page.click('a[href="/studio/live"]');
    await page.waitForSelector(`#channels >> text=news-${lang}`);
    await shot(page, `live-${lang}`);

    // Integrations: add a webhook (secret shown once), send a test, see the delivery with the receiver's 200.
    await page.click('a[href="/studio/integrations"]');
    await page.fill('#webhook-url', `${rx.url}-${lang}`);
    await page.click('#webhook-form button[type=submit]');
    await page.waitForSelector('.once code');
    expect(await page.textContent('.once')).toContain('whsec_');
    const hook = page.locator('#webhooks li', { hasText: `hook-${lang}` });
    await hook.locator('button', { hasText: lang === 'he' ? 'שליחת בדיקה' : 'Send test' }).click();
    await waitFor('the ping reached the receiver', () => rx.received.some((r) => r.body.type === 'ping' && r.headers['x-vs-delivery']), 30_000);
    await waitFor('the delivery is shown as delivered', async () => {
      if (!(await hook.locator('.deliveries').count())) await hook.locator('button.link').click();
      else await hook.locator('.deliveries button', { hasText: lang === 'he' ? 'רענון' : 'Refresh' }).click();
      return (await hook.locator('.deliveries .b-delivered').count()) > 0;
    }, 30_000, 500);
    expect(await hook.locator('.deliveries td', { hasText: '200' }).count()).toBeGreaterThan(0);
    await dirOk(page, lang);
    await shot(page, `integrations-${lang}`);

    await page.click('a[href="/studio/team"]');
    await page.waitForSelector('#members');
    await shot(page, `team-${lang}`);
  } finally {
    await page.context().close();
  }
}

test('journey in English: sign in → upload two files → watch → create a channel → webhook delivery', () => journey('en'), 300_000);

test('journey in Hebrew (right-to-left): the same steps, mirrored layout', () => journey('he'), 300_000);
