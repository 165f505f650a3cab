/**
 * Issue 42 "also looked for": the studio items the API already supports. Library bulk actions (select rows → publish,
 * unpublish, move to section, trash after a confirmation), description and tags on the asset page, per-video
 * statistics and the dashboard's CSV export, the MP4 download. Real server, real Chromium, English and Hebrew,
 * 1280×800 and a phone at 390×844.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { addReadyAsset } from '../helpers/ready-asset';
import { identityService } from '../../src/features/identity/service';
import { layoutProblems, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
let tenant: string;
const DESK = { width: 1280, height: 800 };
const json = async (method: string, path: string, body?: unknown) => { const r = await s.api(method, path, body); expect(r.status).toBeLessThan(300); return r.status === 204 ? null : r.json() as Promise<any>; };
/** A ready asset with a title (written straight into the data dir and database). */
const ready = async (title: string) => { const id = addReadyAsset(s, tenant, new Uint8Array(188)); await json('PATCH', `/v1/assets/${id}`, { title }); return id; };

beforeAll(async () => {
  ({ s, browser } = await startStudio());
  tenant = identityService(s.ctx).tenant('default').id;
}, 120_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

const WORDS = {
  en: { selected: '3 assets selected', changed: '3 assets changed.', confirm: 'Move 3 assets to the trash?' },
  he: { selected: 'נבחרו 3 נכסים', changed: '3 נכסים עודכנו.', confirm: 'להעביר 3 נכסים לאשפה?' },
} as const;

for (const lang of ['en', 'he'] as const) {
  test(`library bulk actions (${lang}): select three rows → publish, unpublish, move to a section, trash after a confirmation`, async () => {
    const titles = [1, 2, 3].map((i) => `${lang} bulk ${i}`);
    const ids: string[] = [];
    for (const x of titles) ids.push(await ready(x));
    const section = await json('POST', '/v1/library/sections', { name: lang === 'he' ? 'מבזקים' : 'Bulletins' });
    const page = await studioTab(browser, s, { lang, viewport: DESK });
    await page.goto(`${s.url}/studio/library`);
    // Before: rows had no checkbox (no "Select …" control) and there was no bulk bar.
    for (const x of titles) await page.getByRole('checkbox', { name: lang === 'he' ? `בחירת ${x}` : `Select ${x}` }).check();
    await page.waitForSelector('#bulk-bar');
    expect((await page.textContent('#bulk-count'))!.trim()).toBe(WORDS[lang].selected);
    const state = async () => Promise.all(ids.map((id) => json('GET', `/v1/assets/${id}`)));

    await page.click('#bulk-publish');
    await page.waitForSelector('#bulk-result');
    expect((await page.textContent('#bulk-result'))!.trim()).toBe(WORDS[lang].changed);
    expect((await state()).map((a) => a.published)).toEqual([true, true, true]);
    await shot(page, `library-bulk-${lang}`);

    // The selection stays for the next action.
    await page.click('#bulk-unpublish');
    await waitFor('unpublished', async () => (await state()).every((a) => !a.published) || null);
    await page.selectOption('#bulk-section', section.id);
    await page.click('#bulk-move');
    await waitFor('moved', async () => (await Promise.all(ids.map((id) => json('GET', `/v1/assets/${id}/section`)))).every((x) => x.section_id === section.id) || null);
    await page.waitForSelector('#bulk-move:not([disabled])');
    // The confirmation names how many; dismissing it trashes nothing.
    let asked = '';
    page.once('dialog', (d) => { asked = d.message(); void d.dismiss(); });
    await page.click('#bulk-trash');
    await waitFor('the confirmation', () => asked || null);
    expect(asked).toContain(WORDS[lang].confirm);
    expect((await state()).every((a) => !a.deleted_at)).toBe(true);
    page.once('dialog', (d) => void d.accept());
    await page.click('#bulk-trash');
    await page.waitForSelector('#bulk-bar', { state: 'detached' });
    const trashed = (await json('GET', '/v1/assets/trash?limit=200')).items.map((a: { id: string }) => a.id);
    for (const id of ids) expect(trashed).toContain(id);
    for (const x of titles) expect(await page.getByText(x, { exact: true }).count()).toBe(0);
    await page.context().close();
  }, 120_000);
}

test('library bulk bar on a phone (390×844, he): fits the window', async () => {
  const ids = [await ready('phone bulk 1'), await ready('phone bulk 2')];
  const page = await studioTab(browser, s, { lang: 'he', phone: true });
  await page.goto(`${s.url}/studio/library`);
  await page.check('#pick-all');
  await page.waitForSelector('#bulk-bar');
  expect(await page.locator('.row-pick:checked').count()).toBeGreaterThanOrEqual(ids.length);
  expect(await layoutProblems(page)).toEqual([]);
  const bar = await page.locator('#bulk-bar').boundingBox();
  expect(bar!.x).toBeGreaterThanOrEqual(0);
  expect(bar!.x + bar!.width).toBeLessThanOrEqual(390);
  await shot(page, 'library-bulk-phone-he');
  await page.context().close();
}, 60_000);
