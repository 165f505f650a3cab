import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, push, type Pusher } from './live-helpers';
import { expectRtl, shot, startStudio, studioTab } from './studio-helpers';

type Json = Record<string, any>;
let s: TestServer;
let browser: Browser;
const pushers: Pusher[] = [];
beforeAll(async () => { ({ s, browser } = await startStudio({ env: { ...await liveEnv(), VS_MONITOR_EVAL_MS: '500' } })); }, 60_000);
afterAll(async () => { for (const p of pushers) p.kill(); await killPushers(); await browser?.close(); await s?.stop(); }, 60_000);

const json = async (r: Response) => await r.json() as Json;
const samples = async (page: Page, input: string, what: 'bitrate' | 'fps') => Number(await page.getAttribute(`#input-${input}`, `data-${what}-samples`));
/** The SRT caller address of the nth ingest row (0 primary, 1 backup), revealed with Show as a person does. */
async function srtAddress(page: Page, n: number): Promise<string> {
  const row = page.locator('#ingest .copy').nth(n);
  await row.locator('button').first().click();
  const url = (await row.locator('.copy-value').textContent())!;
  expect(url).toStartWith('srt://');
  return url;
}

test('edit a channel (error kept, then saved), push SRT to primary and backup → per-input bitrate and fps graphs; stop the primary → failover and a gap in the history; the bell shows the firing alert and acknowledges it; Hebrew mirrors', async () => {
  const ch = await json(await s.api('POST', '/v1/channels', { name: 'Studio failover', slug: 'studio-failover' }));
  const mon = await json(await s.api('POST', '/v1/monitors', { name: 'Failover watch', target_kind: 'channel', target_id: ch.id, checks: [{ type: 'failover', threshold: 0, window_s: 600 }] }));
  expect(mon.id).toBeTruthy();
  const page = await studioTab(browser, s);
  try {
    await page.click('a[href="/studio/live"]');
    await page.click(`a[href="/studio/live/${ch.id}"]`);
    await page.waitForSelector('#ingest');
    // No alert fires yet: the bell shows zero.
    await waitFor('the bell', async () => (await page.textContent('#bell-count'))?.trim() === '0', 15_000, 100);

    // Edit: a wrong time zone is refused in words beside its field, and everything typed stays.
    await page.click('#edit');
    await page.fill('#edit-name', 'Studio failover desk');
    await page.fill('#edit-failover', '2');
    await page.fill('#edit-timezone', 'Mars/Olympus_Mons');
    await page.click('#edit-channel button[type=submit]');
    await page.waitForSelector('#edit-channel .field-error');
    expect(await page.textContent('#edit-channel .field-error')).toContain('time zone');
    expect(await page.textContent('#edit-channel [role=alert].problem')).toContain('Guide time zone: unknown IANA time zone');
    expect(await page.inputValue('#edit-name')).toBe('Studio failover desk');
    expect(await page.inputValue('#edit-failover')).toBe('2');
    expect(await page.getAttribute('#edit-timezone', 'aria-invalid')).toBe('true');
    await shot(page, 'channel-edit-error-en');
    await page.fill('#edit-timezone', 'Asia/Jerusalem');
    await page.click('#edit-channel button[type=submit]');
    await page.waitForSelector('#edit-saved');
    await waitFor('the new name in the title', async () => (await page.textContent('#page-title')) === 'Studio failover desk', 10_000, 100);
    const saved = await json(await s.api('GET', `/v1/channels/${ch.id}`));
    expect(saved).toMatchObject({ name: 'Studio failover desk', timezone: 'Asia/Jerusalem', ingest: { failover_s: 2 } });
    await page.click('#edit-channel button[type=button]');
    await page.waitForSelector('#edit-channel', { state: 'detached' });

    // Start, push to the primary and to the backup as two encoders would.
    await page.click('#start');
    await page.waitForSelector('#stop');
    const primaryUrl = await srtAddress(page, 0);
    const backupUrl = await srtAddress(page, 1);
    pushers.push(push(primaryUrl));
    await page.waitForSelector('#health .b-live', { timeout: 60_000 });
    const backup = push(backupUrl);
    pushers.push(backup);
    // Both inputs measured while the primary is on air: bitrate and frame rate graphs draw for each.
    for (const input of ['primary', 'backup']) {
      await waitFor(`${input} bitrate and fps samples`, async () => (await samples(page, input, 'bitrate')) >= 3 && (await samples(page, input, 'fps')) >= 3, 60_000, 250);
      await page.waitForSelector(`#input-${input} canvas`, { timeout: 30_000 });
      expect(await page.textContent(`#input-${input} .input-kbps`)).toMatch(/\d+ kb\/s/);
      expect(await page.textContent(`#input-${input} .input-fps`)).toMatch(/\d/);
    }
    const api = await json(await s.api('GET', `/v1/channels/${ch.id}`));
    expect(api.input.bitrate_kbps).toBeGreaterThan(0); // measured by the server now, not only by the page
    expect(api.inputs.primary).toMatchObject({ connected: true });
    expect(api.inputs.backup).toMatchObject({ connected: true });
    expect(api.inputs.primary.fps).toBeGreaterThan(10);
    await page.locator('#inputs-panel').scrollIntoViewIfNeeded();
    await shot(page, 'channel-inputs-en');

    // The primary's encoder stops: the backup takes over within failover_s; the history lists the switch with its time.
    pushers[0].kill();
    await page.waitForSelector('#history li.hist-failover', { timeout: 60_000 });
    expect(await page.textContent('#history li.hist-failover')).toContain('Failover: primary → backup');
    await waitFor('the primary shown as silent', async () => (await page.textContent('#input-primary .input-state')) === 'nothing arriving', 30_000, 250);

    // The failover monitor fires: the bell counts it (from the event stream) and lists it with acknowledge.
    await waitFor('the bell counts the firing alert', async () => (await page.textContent('#bell-count'))?.trim() === '1', 30_000, 200);
    await page.click('#bell');
    await page.waitForSelector('#bell-list li.bell-alert');
    expect(await page.textContent('#bell-list')).toContain('Failover watch');
    await shot(page, 'channel-bell-en');
    await page.click('#bell-list button.ack');
    await page.waitForSelector('#bell-list .acked');
    const alerts = await json(await s.api('GET', '/v1/alerts?state=firing'));
    expect(alerts.items[0].acked_at).toBeTruthy();
    await page.keyboard.press('Escape');
    await page.waitForSelector('#bell-list', { state: 'detached' });

    // The backup stops too: a recording gap opens; the primary comes back: the gap closes and is listed with its length.
    // (The failover to the receiving backup itself leaves no gap: its held segments are spliced in, see live-failover-seamless.)
    backup.kill();
    await page.waitForSelector('#history li.hist-gap:has-text("still open")', { timeout: 60_000 });
    const open = (await json(await s.api('GET', `/v1/channels/${ch.id}/history`))).gaps.find((g: Json) => g.open);
    expect(open).toBeTruthy();
    pushers.push(push(primaryUrl));
    const closed = await waitFor('the gap closed', async () => (await json(await s.api('GET', `/v1/channels/${ch.id}/history`))).gaps.find((g: Json) => g.from === open.from && !g.open), 90_000, 500);
    expect(closed.duration_s).toBeGreaterThanOrEqual(1);
    await waitFor('the page lists it closed', async () => (await page.locator('#history li.hist-gap:has-text("still open")').count()) === 0
      && (await page.locator('#history li.hist-gap').count()) >= 1 && /Recording gap of \d/.test((await page.textContent('#history')) ?? ''), 60_000, 500);
    await page.waitForSelector('#health .b-live', { timeout: 60_000 });
    const h = await json(await s.api('GET', `/v1/channels/${ch.id}/history`));
    expect(h.failovers.length).toBeGreaterThanOrEqual(1);
    await page.locator('#history-panel').scrollIntoViewIfNeeded();
    await shot(page, 'channel-history-en');

    // Hebrew: the same page reads right to left, the history and inputs in Hebrew, the bell still counting.
    const he = await studioTab(browser, s, { lang: 'he' });
    try {
      await he.goto(page.url());
      await he.waitForSelector('#history li.hist-failover', { timeout: 30_000 });
      await expectRtl(he);
      expect(await he.textContent('#history li.hist-failover')).toContain('מעבר: ראשי ← גיבוי');
      expect(await he.textContent('#history-panel h2')).toBe('מעברים והקלטה');
      await waitFor('the Hebrew bell', async () => (await he.textContent('#bell-count'))?.trim() === '1', 15_000, 200);
      await waitFor('per-input graphs in Hebrew', async () => (await he.locator('#input-primary canvas').count()) > 0, 60_000, 250);
      expect(await he.textContent('#inputs-panel')).toContain('קצב פריימים');
      await he.locator('#history-panel').scrollIntoViewIfNeeded();
      await shot(he, 'channel-history-he');
      await he.locator('#inputs-panel').scrollIntoViewIfNeeded();
      await shot(he, 'channel-inputs-he');
      // The bell's list sits inside the window on the inline-end side (the left in Hebrew).
      await he.click('#bell');
      const list = (await he.locator('#bell-list').boundingBox())!;
      expect(list.x).toBeGreaterThanOrEqual(0);
      expect(list.x).toBeLessThan(640); // the inline end is the left in Hebrew
      expect(await he.textContent('#bell-list')).toContain('אושרה');
      await shot(he, 'channel-bell-he');
      await he.keyboard.press('Escape');
      await he.click('#edit');
      await he.waitForSelector('#edit-channel');
      expect(await he.textContent('#channel-settings h2')).toBe('הגדרות הערוץ');
      await shot(he, 'channel-edit-he');
    } finally { await he.context().close(); }

    // On a phone the bell's list stays inside the screen.
    const phone = await studioTab(browser, s, { phone: true });
    try {
      await phone.goto(page.url());
      await waitFor('the phone bell', async () => (await phone.textContent('#bell-count'))?.trim() === '1', 15_000, 200);
      await phone.click('#bell');
      const box = (await phone.locator('#bell-list').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await shot(phone, 'channel-bell-phone-en');
    } finally { await phone.context().close(); }

    // The channel is on air again: stopping asks first (accepted here).
    page.once('dialog', (d) => void d.accept());
    await page.click('#stop');
    await page.waitForSelector('#start');
  } finally {
    for (const p of pushers) p.kill();
    await page.context().close();
  }
}, 420_000);
