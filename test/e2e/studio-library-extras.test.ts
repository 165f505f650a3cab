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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { identityService } from '../../src/features/identity/service';
import { layoutProblems, shot, startStudio, studioTab } from './studio-helpers';
import { playsPast } from './player-helpers';
import { makeClip, registerAsset, settled } from './transcode-helpers';

let s: TestServer;
let browser: Browser;
let tenant: string;
const DESK = { width: 1280, height: 800 };
const json = async (method: string, path: string, body?: unknown) => { const r = await s.api(method, path, body); expect(r.status).toBeLessThan(300); return r.status === 204 ? null : r.json() as Promise<any>; };
/** A ready asset with a title (written straight into the data dir and database). */
const ready = async (title: string) => { const id = addReadyAsset(s, tenant, new Uint8Array(188)); await json('PATCH', `/v1/assets/${id}`, { title }); return id; };

beforeAll(async () => {
  ({ s, browser } = await startStudio({ env: { VS_STATS_FLUSH_MS: '300', VS_TRANSCODE_ENCODER: 'libx264' } }));
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

/** One really encoded, published video watched once on the public watch page (made on first use). */
let watched: Promise<string> | null = null;
const watchedAsset = () => (watched ??= (async () => {
  const id = registerAsset(s.ctx, await makeClip(join(s.dataDir, 'extras.mp4'), { seconds: 6, size: '320x180' }));
  const a = await settled(s.ctx, id, 120_000);
  if (a.status !== 'ready') throw new Error(`asset ${a.status}: ${a.error}`);
  await json('PATCH', `/v1/assets/${id}`, { title: 'Watched once', publish: true });
  const viewer = await browser.newContext();
  const tab = await viewer.newPage();
  await tab.goto(`${s.url}/w/default/vod/${id}`);
  await tab.click('.vs-big');
  await playsPast(tab, 1.5);
  await tab.evaluate(() => (window as unknown as { VSEmbed: { players: { beacon: { flush(): void } | null }[] } }).VSEmbed.players.forEach((p) => p.beacon?.flush()));
  await viewer.close(); // pagehide sends the rest
  await waitFor('one play of the video counted', async () => (await json('GET', `/v1/stats/overview?asset=${id}`)).current.plays === 1 || null, 60_000, 200);
  return id;
})());

/** A file the browser downloaded after `click` (its suggested name and bytes). */
async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await d.path();
  return { name: d.suggestedFilename(), bytes: readFileSync(path!) };
}

const STATS = { en: { title: 'Statistics of this video', week: '7 days' }, he: { title: 'נתוני הצפייה בסרטון', week: '7 ימים' } } as const;

for (const lang of ['en', 'he'] as const) {
  test(`asset page (${lang}): the video's own plays, watch time and chart; its sessions as CSV; the MP4 download`, async () => {
    const id = await watchedAsset();
    const other = await ready(`${lang} never watched`);
    const page = await studioTab(browser, s, { lang, viewport: DESK });
    await page.goto(`${s.url}/studio/library/${id}`);
    // Before: no statistics panel and no download on the asset page.
    await page.waitForSelector('#asset-plays');
    expect((await page.textContent('#stats-panel h2'))!.trim()).toBe(STATS[lang].title);
    expect(await page.locator('#stats-panel .seg button[aria-pressed="true"]').textContent()).toBe(STATS[lang].week);
    expect(await page.textContent('#asset-plays')).toBe('1');
    // Watch time as a duration (its amount depends on which of the viewer's last beacons arrived before the close).
    expect(await page.textContent('#asset-watch')).toMatch(/^\d+:\d\d(?::\d\d)?$/);
    await page.waitForSelector('#stats-panel svg, #stats-panel canvas');
    const csv = await download(page, () => page.click('#asset-stats-csv'));
    expect(csv.name).toMatch(/^sessions-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const mp4 = await download(page, () => page.click('#download-mp4'));
    expect(mp4.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(mp4.bytes.length).toBeGreaterThan(10_000);
    await page.locator('#stats-panel').scrollIntoViewIfNeeded();
    await shot(page, `asset-stats-${lang}`);
    // Another video: its own figures (none), not the tenant's.
    await page.goto(`${s.url}/studio/library/${other}`);
    await page.waitForSelector('#asset-plays');
    expect(await page.textContent('#asset-plays')).toBe('0');
    await page.context().close();
  }, 200_000);

  test(`dashboard (${lang}): statistics export as CSV for the period shown`, async () => {
    await watchedAsset();
    const page = await studioTab(browser, s, { lang, viewport: DESK });
    await page.goto(`${s.url}/studio`);
    await page.waitForSelector('#export-csv');
    // Before: no export on the dashboard.
    const names = await page.locator('#export-report option').allTextContents();
    expect(names[0]).toBe(lang === 'he' ? 'סשני צפייה' : 'Viewing sessions');
    await page.selectOption('#export-report', 'player_events');
    const file = await download(page, () => page.click('#export-csv'));
    expect(file.name).toMatch(/^player_events-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = file.bytes.subarray(3).toString('utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(1); // a header and the watched video's events
    await page.locator('#export-panel').scrollIntoViewIfNeeded();
    await shot(page, `dashboard-export-${lang}`);
    await page.context().close();
  }, 200_000);
}

test('asset statistics on a phone (390×844, he): fit the window', async () => {
  const id = await watchedAsset();
  const page = await studioTab(browser, s, { lang: 'he', phone: true });
  await page.goto(`${s.url}/studio/library/${id}`);
  await page.waitForSelector('#asset-plays');
  await page.waitForSelector('#stats-panel svg, #stats-panel canvas');
  expect(await layoutProblems(page)).toEqual([]);
  await page.locator('#stats-panel').scrollIntoViewIfNeeded();
  await shot(page, 'asset-stats-phone-he');
  await page.context().close();
}, 200_000);
