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

const ABOUT = {
  en: { description: 'The evening bulletin: headlines, weather and sport.', tags: 'news, weather , news,sport', saved: ['news', 'weather', 'sport'] },
  he: { description: 'מהדורת הערב: כותרות, מזג אוויר וספורט.', tags: 'חדשות, מזג אוויר, ספורט', saved: ['חדשות', 'מזג אוויר', 'ספורט'] },
} as const;

for (const lang of ['en', 'he'] as const) {
  test(`asset page (${lang}): description and tags are their own fields, saved as metadata.description / metadata.tags`, async () => {
    const id = await ready(`${lang} about`);
    // Stored earlier through the API: the page shows them in their fields, not as a "description" row.
    await json('PATCH', `/v1/assets/${id}`, { metadata: { description: 'old words', tags: ['old'], rating: 'PG' }, publish: true });
    const page = await studioTab(browser, s, { lang, viewport: DESK });
    await page.goto(`${s.url}/studio/library/${id}`);
    // Before: no #meta-description (the description was a key/value row, tags JSON).
    await page.waitForSelector('#meta-description');
    expect(await page.inputValue('#meta-description')).toBe('old words');
    expect(await page.inputValue('#meta-tags')).toBe('old');
    expect(await page.locator('#meta-rows .meta-key').evaluateAll((xs) => xs.map((x) => (x as HTMLInputElement).value))).toEqual(['rating']);
    await page.fill('#meta-description', ABOUT[lang].description);
    await page.fill('#meta-tags', ABOUT[lang].tags);
    expect(await page.locator('#meta-tag-chips li').allTextContents()).toEqual([...ABOUT[lang].saved]);
    await page.click('#meta-save');
    await page.waitForSelector('#meta-saved');
    const a = await json('GET', `/v1/assets/${id}`);
    expect(a.metadata).toEqual({ rating: 'PG', description: ABOUT[lang].description, tags: [...ABOUT[lang].saved] });
    // The watch page describes the video with it.
    const html = await (await fetch(`${s.url}/w/default/vod/${id}`)).text();
    expect(html).toContain(ABOUT[lang].description);
    await page.reload();
    await page.waitForSelector('#meta-description');
    expect(await page.inputValue('#meta-description')).toBe(ABOUT[lang].description);
    await page.locator('#meta-panel').scrollIntoViewIfNeeded();
    await shot(page, `asset-about-${lang}`);
    await page.context().close();
  }, 60_000);
}
