/**
 * Studio settings and notifications pages (issue 48) in Chromium, English and Hebrew: Settings → Packaging (segment
 * duration, DASH, AES-128 by default, I-frame playlists; the two excluding each other) saved through the API; the
 * lip-sync switch shown off and disabled with the platform rule; Notification rules created, edited and deleted from
 * the page; a real event (a playback policy created) routed by the rule to the person's inbox, the header's unread
 * count, mark read. The API state is checked after each step. Screenshots with VS_STUDIO_SHOTS=1
 * (docs/studio/settings-packaging-*.png, notification-rules-*.png, notifications-inbox-*.png).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from '../helpers/server';
import { expectLtr, expectRtl, layoutProblems, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;

beforeAll(async () => { ({ s, browser } = await startStudio()); }, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await s.api(method, path, body);
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

/** Reloads `url` until `selector` shows, within the deadline (the inbox is filled by a background consumer). */
async function reloadUntil(page: Page, url: string, selector: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    await page.goto(url);
    try { await page.waitForSelector(selector, { timeout: 2_000 }); return; } catch { if (Date.now() > end) throw new Error(`${selector} did not show at ${url}`); }
  }
}

test('settings: packaging saved from the form (AES-128 and I-frame exclude each other); lip-sync visible, off and disabled', async () => {
  const page = await studioTab(browser, s, { lang: 'en' });
  await page.click('nav.side a[href="/studio/settings"]');
  await page.waitForSelector('#packaging-form');
  await expectLtr(page);
  expect(await page.inputValue('#pk-segment')).toBe('');
  expect(await page.isChecked('#pk-dash')).toBe(true);
  expect(await page.isChecked('#pk-aes')).toBe(false);
  expect(await page.isChecked('#pk-iframe')).toBe(false);
  expect(await page.textContent('#pk-updated')).toContain('Never changed');
  // Lip-sync: the switch is there, off, and cannot be turned on; the platform rule is spelled out.
  expect(await page.isChecked('#lip-switch')).toBe(false);
  expect(await page.isDisabled('#lip-switch')).toBe(true);
  expect(await page.textContent('#lip-rule')).toBe('Lip-sync checks cannot be created while lip-sync is switched off on the platform (currently off).');
  expect(await page.textContent('#lip-state')).toBe('Off on the platform');
  // AES-128 on: I-frame playlists cannot be ticked, and the reason is shown.
  await page.selectOption('#pk-segment', '2');
  await page.check('#pk-aes');
  expect(await page.isDisabled('#pk-iframe')).toBe(true);
  expect(await page.textContent('#pk-both')).toContain('cannot both be on');
  expect(await page.textContent('#pk-dash-hint')).toContain('no DASH manifest');
  await page.click('#pk-save');
  await page.waitForSelector('#pk-msg.ok');
  expect(await json('GET', '/v1/packaging')).toMatchObject({ segment_s: 2, dash: true, aes128_default: true, iframe_playlists: false });
  expect(await page.textContent('#pk-updated')).toContain('Last changed');
  await shot(page, 'settings-packaging-en');
  // Swap: AES-128 off, I-frame playlists on.
  await page.uncheck('#pk-aes');
  await page.check('#pk-iframe');
  expect(await page.isDisabled('#pk-aes')).toBe(true);
  await page.selectOption('#pk-segment', '');
  await page.click('#pk-save');
  await page.waitForFunction(() => document.querySelector('#pk-msg')?.classList.contains('ok'));
  await expectApi({ segment_s: null, aes128_default: false, iframe_playlists: true });
  expect(await layoutProblems(page)).toEqual([]);
  await page.context().close();
}, 120_000);

async function expectApi(want: Record<string, unknown>): Promise<void> {
  const end = Date.now() + 10_000;
  for (;;) {
    const got = await json<Record<string, unknown>>('GET', '/v1/packaging');
    if (Object.entries(want).every(([k, v]) => got[k] === v)) return;
    if (Date.now() > end) { expect(got).toMatchObject(want); return; }
    await Bun.sleep(100);
  }
}

test('notification rules from the page route a real event to my inbox; the header counts it; mark read; edit and delete the rule', async () => {
  const page = await studioTab(browser, s, { lang: 'en' });
  await page.goto(`${s.url}/studio/notifications/rules`);
  await page.waitForSelector('#rule-new');
  expect(await page.textContent('main')).toContain('No rules yet');
  await page.click('#rule-new');
  await page.fill('#rule-name', 'Policy changes');
  await page.check('.rule-family[value="policy.*"]');
  expect(await page.inputValue('#rule-severity')).toBe('info');
  expect(await page.isChecked('#rule-inbox')).toBe(true);
  // Nothing to deliver to: refused on the page before any call.
  await page.uncheck('#rule-inbox');
  await page.click('#rule-save');
  expect(await page.textContent('#rule-error')).toContain('Choose the inbox');
  await page.check('#rule-inbox');
  await page.click('#rule-save');
  await page.waitForSelector('#rules tbody tr');
  const rules = await page.evaluate(async () => (await (await fetch('/v1/notification-rules')).json()) as { items: { id: string; name: string; event_types: string[]; channels: string[]; min_severity: string; deliver: string[]; enabled: boolean }[] });
  expect(rules.items).toHaveLength(1);
  expect(rules.items[0]).toMatchObject({ name: 'Policy changes', event_types: ['policy.*'], channels: [], min_severity: 'info', deliver: ['inbox'], enabled: true });
  expect(await page.textContent('#rules tbody tr')).toContain('Policy changes');
  // A real event: a playback policy created through the API (policy.changed) reaches this person's inbox.
  await json('POST', '/v1/playback/policies', { name: 'late-night' });
  await reloadUntil(page, `${s.url}/studio/notifications`, '#nt-items li.i-new');
  expect(await page.getAttribute('#nt-items li', 'data-type')).toBe('policy.changed');
  await page.waitForFunction(() => document.querySelector('#inbox-unread-n')?.textContent === '1');
  expect(await page.textContent('#nt-unread')).toBe('1 unread');
  await shot(page, 'notifications-inbox-en');
  await page.click('.nt-mark');
  await page.waitForFunction(() => document.querySelector('#inbox-unread-n')?.textContent === '0');
  expect(await page.locator('#nt-items li.i-new').count()).toBe(0);
  const unread = await page.evaluate(async () => (await (await fetch('/v1/inbox/unread')).json()) as { unread: number });
  expect(unread.unread).toBe(0);
  // Edit: the name and the lowest severity; then delete.
  await page.click('#rules-link');
  await page.waitForSelector('#rules tbody tr');
  await page.click('.rule-edit');
  expect(await page.inputValue('#rule-name')).toBe('Policy changes');
  expect(await page.isChecked('.rule-family[value="policy.*"]')).toBe(true);
  await page.fill('#rule-name', 'Policy watch');
  await page.selectOption('#rule-severity', 'warning');
  await page.click('#rule-save');
  await page.waitForFunction(() => document.querySelector('#rules tbody tr')?.textContent?.includes('Policy watch'));
  const edited = await page.evaluate(async () => (await (await fetch('/v1/notification-rules')).json()) as { items: { name: string; min_severity: string }[] });
  expect(edited.items[0]).toMatchObject({ name: 'Policy watch', min_severity: 'warning' });
  await shot(page, 'notification-rules-en');
  page.once('dialog', (d) => void d.accept());
  await page.click('.rule-delete');
  await page.waitForSelector('#rules', { state: 'detached' });
  const gone = await page.evaluate(async () => (await (await fetch('/v1/notification-rules')).json()) as { items: unknown[] });
  expect(gone.items).toHaveLength(0);
  await page.context().close();
}, 120_000);

test('Hebrew: the settings and notifications pages read right to left in Hebrew and fit on desktop and phone', async () => {
  await json('PATCH', '/v1/packaging', { aes128_default: false, iframe_playlists: true });
  for (const phone of [false, true]) {
    const page = await studioTab(browser, s, { lang: 'he', phone });
    await page.goto(`${s.url}/studio/settings`);
    await page.waitForSelector('#packaging-form');
    if (!phone) await expectRtl(page);
    else expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.textContent('#lip-rule')).toBe('אי אפשר ליצור בדיקות סנכרון שפתיים כל עוד סנכרון השפתיים כבוי בפלטפורמה (כרגע כבוי).');
    expect(await page.textContent('#pk-h')).toBe('אריזה');
    expect(await page.isChecked('#pk-iframe')).toBe(true);
    expect(await layoutProblems(page)).toEqual([]);
    if (!phone) await shot(page, 'settings-packaging-he');
    await page.goto(`${s.url}/studio/notifications/rules`);
    await page.waitForSelector('#rule-new');
    await page.click('#rule-new');
    await page.waitForSelector('#rule-form');
    expect(await page.textContent('#rule-form legend')).toBe('אירועים');
    expect(await layoutProblems(page)).toEqual([]);
    if (!phone) await shot(page, 'notification-rules-he');
    await page.goto(`${s.url}/studio/notifications`);
    await page.waitForSelector('#nt-inbox-h');
    expect(await page.textContent('#nt-inbox-h')).toContain('תיבת ההודעות שלי');
    expect(await layoutProblems(page)).toEqual([]);
    if (!phone) await shot(page, 'notifications-inbox-he');
    await page.context().close();
  }
}, 120_000);
