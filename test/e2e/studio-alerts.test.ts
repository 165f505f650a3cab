/**
 * The alerts page (issue 42 item 5): an administrator sets up an alert destination, creates a monitor on a channel with
 * checks, destinations and quiet hours, edits it, snoozes and lifts the snooze, and deletes it, in English at 1280×800;
 * the same page in Hebrew on a 390×844 phone reads right to left, in Hebrew, inside the window.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { layoutProblems, OWNER, shot, startStudio, studioTab } from './studio-helpers';

type Json = Record<string, any>;
let s: TestServer;
let browser: Browser;
beforeAll(async () => { ({ s, browser } = await startStudio()); }, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

const json = async (r: Response) => await r.json() as Json;
const monitors = async () => (await json(await s.api('GET', '/v1/monitors?limit=200'))).items as Json[];
function nextDialog(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) => page.once('dialog', (d) => { const m = d.message(); void (accept ? d.accept() : d.dismiss()).then(() => resolve(m)); }));
}

test('alerts page: destination, create a monitor (checks, destination, quiet hours), edit, snooze and lift, delete; Hebrew phone fits', async () => {
  const ch = await json(await s.api('POST', '/v1/channels', { name: 'Morning desk', slug: 'morning-desk' }));
  const page = await studioTab(browser, s, { viewport: { width: 1280, height: 800 } });
  try {
    await page.click('a[href="/studio/alerts"]');
    await page.waitForSelector('#monitors-panel .empty');
    expect(await page.textContent('#page-title')).toBe('Alerts and monitors');

    // A destination: the owner's own address is active at once (no mail server needed).
    await page.fill('#dest-email', OWNER.email);
    await page.click('#dest-email-form button[type=submit]');
    await page.waitForSelector('#destinations li');
    expect(await page.textContent('#destinations')).toContain(OWNER.email);
    expect(await page.textContent('#destinations')).toContain('active');
    const dest = (await json(await s.api('GET', '/v1/alert-destinations'))).items[0];

    // A monitor: the channel's feed during programmes (preset in the form), plus a recorder gap check, the destination, quiet hours.
    await page.click('#new-monitor');
    await page.waitForSelector('#monitor-form');
    await page.fill('#mon-name', 'Desk watch');
    expect(await page.inputValue('#mon-channel')).toBe(ch.id);
    expect(await page.isChecked('.check-row .ck-during')).toBe(true);
    await page.click('#mon-add-check');
    await page.locator('.check-row').nth(1).locator('.ck-type').selectOption('recorder_gap');
    await page.locator('.check-row').nth(1).locator('.ck-threshold').fill('8');
    await page.locator('.check-row').nth(1).locator('.ck-severity').selectOption('warning');
    await page.check(`.mon-dest[value="${dest.id}"]`);
    await page.check('#mon-quiet');
    await page.fill('#mon-quiet-from', '23:00');
    await page.fill('#mon-quiet-to', '06:30');
    await page.fill('#mon-quiet-tz', 'Asia/Jerusalem');
    await shot(page, 'alerts-form-en');
    await page.click('#monitor-form button[type=submit]');
    await page.waitForSelector('#monitors li.monitor');
    const [m] = await monitors();
    expect(m).toMatchObject({ name: 'Desk watch', target_kind: 'channel', target_id: ch.id, destinations: [dest.id], quiet_hours: { from: '23:00', to: '06:30', tz: 'Asia/Jerusalem', allow_critical: true } });
    expect(m.checks.map((c: Json) => [c.type, c.severity, c.threshold])).toEqual([['feed_down', 'critical', 1], ['recorder_gap', 'warning', 8]]);
    expect(m.checks[0].params).toEqual({ during_programme: true });
    const row = page.locator('#monitors li.monitor').first();
    expect(await row.textContent()).toContain('Channel: Morning desk');
    expect(await row.textContent()).toContain('Feed down');
    expect(await row.textContent()).toContain('Only during scheduled programmes');

    // A wrong time zone is refused in words, the form kept.
    await row.locator('.edit-monitor').click();
    await page.waitForSelector('#monitor-form');
    expect(await page.inputValue('#mon-name')).toBe('Desk watch');
    await page.fill('#mon-quiet-tz', 'Mars/Olympus');
    await page.click('#monitor-form button[type=submit]');
    await page.waitForSelector('#monitor-form .problem');
    expect(await page.textContent('#monitor-form .problem')).toContain('time zone');
    await page.fill('#mon-quiet-tz', 'UTC');
    await page.fill('#mon-name', 'Desk watch (night)');
    await page.click('#monitor-form button[type=submit]');
    await page.waitForSelector('#monitor-form', { state: 'detached' });
    await waitFor('renamed', async () => (await page.textContent('#monitors'))?.includes('Desk watch (night)'), 10_000, 100);
    expect((await monitors())[0]).toMatchObject({ name: 'Desk watch (night)', quiet_hours: { tz: 'UTC' } });

    // Snooze for an hour, then lift it.
    await row.locator('.snooze-select').selectOption('60');
    await page.waitForSelector('#monitors .snoozed');
    const snoozed = (await monitors())[0].snooze;
    expect(Date.parse(snoozed.until) - Date.now()).toBeGreaterThan(55 * 60_000);
    await shot(page, 'alerts-en');
    await row.locator('.unsnooze').click();
    await page.waitForSelector('#monitors .snoozed', { state: 'detached' });
    expect((await monitors())[0].snooze).toBeNull();

    // Hebrew on a phone: the same page in Hebrew, right to left, inside the window.
    const he = await studioTab(browser, s, { lang: 'he', phone: true });
    try {
      await he.goto(`${s.url}/studio/alerts`);
      await he.waitForSelector('#monitors li.monitor');
      expect(await he.evaluate(() => document.documentElement.dir)).toBe('rtl');
      expect(await he.textContent('#page-title')).toBe('התראות וניטור');
      const text = (await he.textContent('#monitors'))!;
      expect(text).toContain('אין אות');
      expect(text).toContain('פער בהקלטה');
      expect(text).toContain('רק בזמן תוכניות מתוכננות');
      expect(await he.textContent('#destinations')).toContain('פעיל');
      expect(await layoutProblems(he)).toEqual([]);
      await shot(he, 'alerts-phone-he');
      await he.click('.edit-monitor');
      await he.waitForSelector('#monitor-form');
      expect(await layoutProblems(he)).toEqual([]);
      await shot(he, 'alerts-form-phone-he');
    } finally { await he.context().close(); }

    // Delete asks first; the monitor goes.
    const ask = nextDialog(page, true);
    await row.locator('.delete-monitor').click();
    expect(await ask).toContain('Desk watch (night)');
    await page.waitForSelector('#monitors-panel .empty');
    expect(await monitors()).toHaveLength(0);
    expect(await layoutProblems(page)).toEqual([]);
  } finally { await page.context().close(); }
}, 120_000);
