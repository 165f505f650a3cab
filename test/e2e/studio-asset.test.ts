/**
 * The asset page and the library's sections, as an editor uses them in Chromium, in English and in Hebrew: sections
 * (create, a duplicate refused in words with the form kept, rename, delete), the asset's section, the poster picked
 * from the frame strip and from the player's current frame, metadata rows and JSON, ad cues (at the player time,
 * typed, removed, sorted, shown on the bar under the player, at most 50), field errors in words with the form kept.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled } from './transcode-helpers';
import { expectLtr, expectRtl, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
const assets: Record<'en' | 'he', string> = { en: '', he: '' };
const json = async (method: string, path: string, body?: unknown) => { const r = await s.api(method, path, body); expect(r.status).toBeLessThan(300); return r.status === 204 ? null : r.json() as Promise<any>; };

beforeAll(async () => {
  ({ s, browser } = await startStudio({ env: { VS_TRANSCODE_ENCODER: 'libx264' } }));
  for (const lang of ['en', 'he'] as const) {
    const clip = await makeClip(join(s.dataDir, `asset-${lang}.mp4`), { seconds: 6, size: '320x180' });
    assets[lang] = registerAsset(s.ctx, clip);
  }
  for (const lang of ['en', 'he'] as const) {
    expect((await settled(s.ctx, assets[lang], 150_000)).status).toBe('ready');
    await json('PATCH', `/v1/assets/${assets[lang]}`, { title: lang === 'he' ? 'מבזק חדשות' : 'Harbour news', metadata: { ads: { cues: [3, 1] }, reviewed: true } });
  }
}, 240_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

const dirOk = (page: Page, lang: 'en' | 'he') => (lang === 'he' ? expectRtl(page) : expectLtr(page));
const cueTexts = (page: Page) => page.locator('#cue-list li.cue button.link').allTextContents();
const setPlayer = (page: Page, at: number) => page.evaluate(async (t) => {
  const v = document.querySelector<HTMLVideoElement>('#player video')!;
  v.muted = true; v.pause(); v.currentTime = t;
  await new Promise((r) => (v.seeking ? v.addEventListener('seeked', r, { once: true }) : r(null)));
}, at);

/** Sections in the library: create two, a duplicate refused (form kept), rename one, delete the other. */
async function sections(page: Page, lang: 'en' | 'he'): Promise<string> {
  const [a, b, renamed] = lang === 'he' ? ['חדשות', 'ספורט', 'חדשות העולם'] : ['News', 'Sport', 'World news'];
  await page.click('a[href="/studio/library"]');
  await page.click('#show-sections');
  await page.waitForSelector('#section-create');
  for (const n of [a, b]) {
    await page.fill('#section-name', n);
    await page.click('#section-create button[type=submit]');
    await page.waitForSelector(`#section-list .section-name >> text="${n}"`);
  }
  await page.fill('#section-name', a);
  await page.click('#section-create button[type=submit]');
  await page.waitForSelector('#sections .problem[role=alert]');
  expect(await page.textContent('#sections .problem')).toContain(a); // the API's own words: a section named "…" exists
  expect(await page.inputValue('#section-name')).toBe(a);
  await page.fill('#section-name', '');
  // Rename in place.
  const row = page.locator('#section-list tr', { has: page.locator(`.section-name >> text="${a}"`) });
  await row.locator('.section-rename-btn').click();
  await page.fill('.section-rename input', renamed);
  await page.click('.section-rename button[type=submit]');
  await page.waitForSelector(`#section-list .section-name >> text="${renamed}"`);
  await dirOk(page, lang);
  await shot(page, `library-sections-${lang}`);
  // Delete the other one (after the confirm).
  page.once('dialog', (d) => void d.accept());
  await page.locator('#section-list tr', { has: page.locator(`.section-name >> text="${b}"`) }).locator('.section-delete').click();
  await waitFor('section deleted', async () => (await page.locator(`#section-list .section-name >> text="${b}"`).count()) === 0, 15_000, 100);
  const all = (await json('GET', '/v1/library/sections')).items as { id: string; name: string }[];
  expect(all.map((x) => x.name)).toContain(renamed);
  expect(all.map((x) => x.name)).not.toContain(b);
  return all.find((x) => x.name === renamed)!.id;
}

async function journey(lang: 'en' | 'he'): Promise<void> {
  const page = await studioTab(browser, s, { lang });
  const id = assets[lang];
  try {
    const sectionId = await sections(page, lang);

    // The asset page: the player, the frame strip from the sprite, the section picker.
    await page.goto(`${s.url}/studio/library/${id}`);
    await page.waitForSelector('#player video', { timeout: 60_000 });
    await page.waitForSelector('#frame-strip .frame');
    expect(await page.locator('#frame-strip .frame').count()).toBe(3); // 6 s, a tile every 2 s
    await page.selectOption('#asset-section', sectionId);
    await page.waitForSelector('#section-saved');
    expect((await json('GET', `/v1/assets/${id}/section`)).section_id).toBe(sectionId);

    // Poster from the strip: the third frame (4 s).
    const before = (await json('GET', `/v1/assets/${id}`)).playback.poster as string;
    await page.locator('#frame-strip .frame').nth(2).click();
    expect(await page.locator('#frame-strip .frame').nth(2).getAttribute('aria-pressed')).toBe('true');
    await page.click('#poster-use-frame');
    await page.waitForSelector('#poster-saved');
    const first = (await json('GET', `/v1/assets/${id}`)).playback.poster as string;
    expect(first).not.toBe(before);
    expect(await page.getAttribute('#poster-img', 'src')).toBe(first);
    // Poster from the player's current frame.
    await setPlayer(page, 1.5);
    await page.click('#poster-use-player');
    await waitFor('poster from the player', async () => (await page.getAttribute('#poster-img', 'src')) !== first, 30_000, 100);
    const audit = (await json('GET', '/v1/audit?limit=100')).items as { action: string; target: string; details: { time_s: number } }[];
    expect(audit.filter((e) => e.action === 'asset.poster_changed' && e.target === id).map((e) => e.details.time_s).sort()).toEqual([1.5, 4]);
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('#poster-img')?.naturalWidth ?? 0) > 0);
    await dirOk(page, lang);
    await page.locator('#poster-panel').scrollIntoViewIfNeeded();
    await shot(page, `asset-poster-${lang}`);

    // Metadata: the stored unsorted cues come in as they are; Sort puts them in order.
    expect(await cueTexts(page)).toEqual(['0:03.0', '0:01.0']);
    expect(await page.inputValue('#meta-json')).toContain('"reviewed": true');
    await page.click('#cue-sort');
    expect(await cueTexts(page)).toEqual(['0:01.0', '0:03.0']);
    // A cue at the player's time, one typed, one removed; the bar under the player follows.
    await setPlayer(page, 2.5);
    await page.click('#cue-add-player');
    await page.fill('#cue-seconds', '5.2');
    await page.click('#cue-add');
    expect(await cueTexts(page)).toEqual(['0:01.0', '0:02.5', '0:03.0', '0:05.2']);
    await page.locator('#cue-list li.cue').nth(2).locator('.cue-remove').click();
    expect(await cueTexts(page)).toEqual(['0:01.0', '0:02.5', '0:05.2']);
    expect(await page.locator('#cue-bar .cue-mark').count()).toBe(3);
    const marks = await page.locator('#cue-bar .cue-mark').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().x));
    expect(marks).toEqual([...marks].sort((x, y) => x - y)); // time runs left to right in both languages
    // A text row and JSON for the rest.
    await page.click('#meta-add-row');
    await page.locator('#meta-rows .meta-key').last().fill('desk');
    await page.locator('#meta-rows .meta-value').last().fill(lang === 'he' ? 'חוץ' : 'Foreign');
    await page.fill('#meta-json', '{"reviewed": true, "rating": 5}');
    await page.click('#meta-save');
    await page.waitForSelector('#meta-saved');
    expect((await json('GET', `/v1/assets/${id}`)).metadata).toEqual({ desk: lang === 'he' ? 'חוץ' : 'Foreign', reviewed: true, rating: 5, ads: { cues: [1, 2.5, 5.2] } });

    // Errors in words, the form kept: bad JSON (found here), then 17 KB of metadata (refused by the API).
    await page.fill('#meta-json', '{"rating": ');
    await page.click('#meta-save');
    await page.waitForSelector('#meta-error');
    expect(await page.textContent('#meta-error')).toContain('JSON');
    expect(await page.inputValue('#meta-json')).toBe('{"rating": ');
    await page.fill('#meta-json', '{"reviewed": true, "rating": 4}');
    const long = 'x'.repeat(17_000);
    await page.locator('#meta-rows .meta-value').last().fill(long);
    await page.click('#meta-save');
    await page.waitForSelector('#meta-error');
    expect(await page.textContent('#meta-error')).toContain('16 KB');
    expect(await page.locator('#meta-rows .meta-value').last().inputValue()).toBe(long);
    expect(await cueTexts(page)).toEqual(['0:01.0', '0:02.5', '0:05.2']);
    await page.locator('#meta-rows .meta-value').last().fill(lang === 'he' ? 'חוץ' : 'Foreign');
    await page.click('#ads-disabled');
    await page.click('#meta-save');
    await page.waitForSelector('#meta-saved');
    expect((await json('GET', `/v1/assets/${id}`)).metadata).toEqual({ desk: lang === 'he' ? 'חוץ' : 'Foreign', reviewed: true, rating: 4, ads: { disabled: true, cues: [1, 2.5, 5.2] } });
    await dirOk(page, lang);
    await page.locator('#meta-panel').scrollIntoViewIfNeeded();
    await shot(page, `asset-meta-${lang}`);
    if (lang === 'he') expect(await page.textContent('#meta-panel')).toContain('נקודות פרסומת');
    // The top of the page: the player with the ad-cue markers under it, details with the section.
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `asset-cues-${lang}`);

    // At most 50 cues: typed one after another, then adding is off.
    if (lang === 'en') {
      for (let i = 0; i < 47; i++) { await page.fill('#cue-seconds', String(10 + i)); await page.press('#cue-seconds', 'Enter'); }
      expect(await page.textContent('#cue-count')).toContain('50 of 50');
      expect(await page.isDisabled('#cue-add-player')).toBe(true);
      await page.click('#meta-save');
      await page.waitForSelector('#meta-saved');
      expect((await json('GET', `/v1/assets/${id}`)).metadata.ads.cues.length).toBe(50);
    }
  } finally { await page.context().close(); }
}

test('EN: sections, section picker, poster from the strip and the player, metadata and ad cues', () => journey('en'), 240_000);
test('HE: the same journey right to left', () => journey('he'), 240_000);

test('phone width (HE): the asset page and the sections fit 390 px, the strip and tables scroll inside', async () => {
  const page = await studioTab(browser, s, { lang: 'he', phone: true });
  try {
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
    await page.goto(`${s.url}/studio/library/${assets.he}`);
    await page.waitForSelector('#frame-strip .frame');
    await page.waitForSelector('#meta-form');
    expect(await fits()).toBe(true);
    await shot(page, 'phone-asset-he');
    await page.goto(`${s.url}/studio/library?view=sections`);
    await page.waitForSelector('#section-list');
    expect(await fits()).toBe(true);
  } finally { await page.context().close(); }
}, 120_000);
