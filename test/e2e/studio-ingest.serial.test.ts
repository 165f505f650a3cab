/**
 * The channel page as an editor uses it around the ingest rule (issue 42 items 1, 3, 5): only the addresses the channel
 * listens to, the last refused push, a protocol change with its confirmation that applies on air, stopping on air asks
 * first, a feed lost during a scheduled programme rings the bell, and the page fits its cards at 1280×800 and 390×844
 * in English and Hebrew. Real ffmpeg pushes, real Chromium.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, push, type Pusher } from './live-helpers';
import { expectRtl, layoutProblems, shot, startStudio, studioTab } from './studio-helpers';

type Json = Record<string, any>;
let s: TestServer;
let browser: Browser;
const pushers: Pusher[] = [];
beforeAll(async () => { ({ s, browser } = await startStudio({ env: { ...await liveEnv(), VS_MONITOR_EVAL_MS: '500' } })); }, 60_000);
afterAll(async () => { for (const p of pushers) p.kill(); await killPushers(); await browser?.close(); await s?.stop(); }, 60_000);

const json = async (r: Response) => await r.json() as Json;
const DESKTOP = { width: 1280, height: 800 };

/** Opens the channel page in a new tab (language, size), waits for the on-air figures, checks the layout and takes its picture. */
async function checkLayout(url: string, lang: 'en' | 'he', size: 'desktop' | 'phone'): Promise<void> {
  const page = await studioTab(browser, s, { lang, viewport: size === 'phone' ? { width: 390, height: 844 } : DESKTOP });
  try {
    await page.goto(url);
    await page.waitForSelector('#ingest');
    await page.waitForSelector('#health .b-live', { timeout: 30_000 });
    await waitFor('the primary input graph', async () => (await page.locator('#input-primary canvas').count()) >= 1, 60_000, 250);
    await waitFor('the history', async () => (await page.locator('#history-summary').count()) > 0, 30_000, 250);
    if (lang === 'he' && size === 'desktop') await expectRtl(page);
    if (lang === 'he') expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    if (lang === 'he' && size === 'desktop') {
      // The Hebrew words: SRT only, the refused RTMP push, and the stop-on-air question (cancelled: stays on air).
      expect(await page.textContent('#ingest-only')).toContain('הערוץ הזה מקבל SRT בלבד');
      expect(await page.textContent('#last-refused')).toContain('שידור ב-RTMP נדחה: הערוץ הזה מקבל SRT בלבד.');
      const ask = nextDialog(page, false);
      await page.click('#stop');
      expect(await ask).toContain('הערוץ משדר עכשיו');
      await page.waitForSelector('#stop');
    }
    expect(await layoutProblems(page)).toEqual([]);
    await shot(page, `channel-${size}-${lang}`);
    // The settings form and the ffmpeg logs open: still inside the window and their cards.
    await page.click('#edit');
    await page.waitForSelector('#edit-channel');
    await page.click('details summary');
    expect(await layoutProblems(page)).toEqual([]);
    await page.click('#edit-channel button[type=button]');
    if (size === 'desktop') {
      await page.locator('#last-refused').scrollIntoViewIfNeeded();
      await shot(page, `channel-ingest-refused-${lang}`);
    }
    if (size === 'phone') {
      await page.locator('#inputs-panel').scrollIntoViewIfNeeded();
      await shot(page, `channel-inputs-${size}-${lang}`);
      await page.locator('#ingest').scrollIntoViewIfNeeded();
      await shot(page, `channel-ingest-${size}-${lang}`);
    }
  } finally { await page.context().close(); }
}

/** Answers the next confirm() dialog (accept or dismiss) and gives its text. */
function nextDialog(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) => page.once('dialog', (d) => { const m = d.message(); void (accept ? d.accept() : d.dismiss()).then(() => resolve(m)); }));
}

test('SRT channel: only SRT addresses, an RTMP push refused and shown, the layout fits (en/he, desktop/phone); switching to RTMP asks and applies on air; stopping on air asks; a feed lost during a programme rings the bell', async () => {
  const ch = await json(await s.api('POST', '/v1/channels', { name: 'Evening desk', slug: 'evening-desk', ingest: { failover_s: 2 } }));
  const now = Date.now();
  const prog = await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Evening news', start_at: new Date(now - 60_000).toISOString(), end_at: new Date(now + 3_600_000).toISOString() });
  expect(prog.status).toBe(201);
  const ing = await json(await s.api('GET', `/v1/channels/${ch.id}/ingest`));
  const page = await studioTab(browser, s, { viewport: DESKTOP });
  try {
    await page.goto(`${s.url}/studio/live/${ch.id}`);
    await page.waitForSelector('#ingest');
    // Only what works now: SRT addresses, no RTMP server or key, and a line saying RTMP is refused.
    expect(await page.locator('#ingest h3').allTextContents()).toEqual(['SRT']);
    expect(await page.textContent('#ingest')).not.toContain('rtmp://');
    expect(await page.locator('#ingest .copy').count()).toBe(2);
    expect(await page.textContent('#ingest-only')).toContain('listens to SRT only');

    await page.click('#start');
    await page.waitForSelector('#stop');
    const srt = page.locator('#ingest .copy').first();
    await srt.locator('button').first().click();
    const srtUrl = (await srt.locator('.copy-value').textContent())!;
    expect(srtUrl).toStartWith('srt://');
    pushers.push(push(srtUrl));
    await page.waitForSelector('#health .b-live', { timeout: 60_000 });

    // An engineer pushes RTMP by mistake: ffmpeg is refused with the reason, and the page shows the refusal.
    const wrong = push(`${ing.rtmp.primary.url}/${ing.rtmp.primary.stream_key}`, { seconds: 30 });
    expect(await Promise.race([wrong.exited, Bun.sleep(8000).then(() => 'running')])).not.toBe(0);
    expect(wrong.stderr()).toContain('takes SRT, not RTMP');
    await page.waitForSelector('#last-refused', { timeout: 10_000 });
    expect(await page.textContent('#last-refused')).toContain('A push over RTMP was refused: this channel listens to SRT only.');

    // The page fits its cards, values inside, at both sizes and in both languages.
    for (const lang of ['en', 'he'] as const) for (const size of ['desktop', 'phone'] as const) await checkLayout(page.url(), lang, size);

    // Stopping on air asks first; cancelling leaves it on air.
    const stopAsk = nextDialog(page, false);
    await page.click('#stop');
    expect(await stopAsk).toContain('It is on air now');
    expect((await json(await s.api('GET', `/v1/channels/${ch.id}`))).status).toBe('live');

    // Switch to RTMP: the confirmation says the channel drops for a few seconds; cancel keeps SRT, OK applies it.
    await page.click('#edit');
    await page.selectOption('#edit-protocol', 'rtmp');
    const cancelAsk = nextDialog(page, false);
    await page.click('#edit-channel button[type=submit]');
    expect(await cancelAsk).toContain('drops off air for a few seconds');
    expect((await json(await s.api('GET', `/v1/channels/${ch.id}`))).ingest.protocol).toBe('srt');
    const okAsk = nextDialog(page, true);
    await page.click('#edit-channel button[type=submit]');
    await okAsk;
    await page.waitForSelector('#edit-saved');
    expect((await json(await s.api('GET', `/v1/channels/${ch.id}`))).ingest.protocol).toBe('rtmp');
    await page.click('#edit-channel button[type=button]');
    // Now only the RTMP server and keys are shown, and the RTMP push with the right key goes on air.
    await waitFor('RTMP addresses', async () => JSON.stringify(await page.locator('#ingest h3').allTextContents()) === '["RTMP"]', 10_000, 100);
    expect(await page.textContent('#ingest')).not.toContain('srt://');
    expect(await page.textContent('#ingest-only')).toContain('listens to RTMP only');
    // The refused RTMP push no longer applies: the channel takes RTMP now.
    await page.waitForSelector('#last-refused', { state: 'detached', timeout: 10_000 });
    await page.locator('#ingest').scrollIntoViewIfNeeded();
    await shot(page, 'channel-ingest-rtmp-en');
    for (const p of pushers.splice(0)) p.kill();
    const rtmp = push(`${ing.rtmp.primary.url}/${ing.rtmp.primary.stream_key}`, { seconds: 120 });
    pushers.push(rtmp);
    await waitFor('on air over RTMP', async () => (await json(await s.api('GET', `/v1/channels/${ch.id}`))).status === 'live', 30_000, 200);
    await page.waitForSelector('#health .b-live', { timeout: 30_000 });

    // The encoder drops during the scheduled programme: the channel's default watch fires and the bell counts it.
    const mons = (await json(await s.api('GET', '/v1/monitors?limit=200'))).items.filter((m: Json) => m.target_id === ch.id);
    expect(mons).toHaveLength(1);
    expect(mons[0].checks[0]).toMatchObject({ type: 'feed_down', severity: 'critical', params: { during_programme: true } });
    expect(await page.textContent('#bell-count')).toBe('0');
    rtmp.kill();
    await waitFor('the bell rings', async () => (await page.textContent('#bell-count'))?.trim() === '1', 45_000, 200);
    await page.click('#bell');
    await page.waitForSelector('#bell-list li.bell-alert');
    const bell = (await page.textContent('#bell-list'))!;
    expect(bell).toContain('Evening desk');
    expect(bell).toContain('Evening news');
    expect(bell.replace(/[\u2068\u2069]/g, '')).toContain('No feed on air on "Evening desk" during "Evening news".');
    await shot(page, 'channel-feed-lost-bell-en');
    await page.keyboard.press('Escape');
    // The same alert in Hebrew words.
    const he = await studioTab(browser, s, { lang: 'he', viewport: DESKTOP });
    try {
      await he.goto(page.url());
      await waitFor('the Hebrew bell', async () => (await he.textContent('#bell-count'))?.trim() === '1', 15_000, 200);
      await he.click('#bell');
      await he.waitForSelector('#bell-list li.bell-alert');
      expect((await he.textContent('#bell-list'))!.replace(/[\u2068\u2069]/g, '')).toContain('אין אות בשידור בערוץ „Evening desk” בזמן „Evening news”.');
      await shot(he, 'channel-feed-lost-bell-he');
    } finally { await he.context().close(); }

    // Off air now: stopping does not ask.
    await page.click('#stop');
    await page.waitForSelector('#start');
  } finally {
    await page.context().close();
  }
}, 300_000);
