/**
 * The library filtered by section, as an editor uses it in Chromium, in English and in Hebrew: pick a section in the
 * library (only its assets listed, the filter kept in the address over a reload), "No section", open a section's
 * assets from the sections view, a section deleted meanwhile shown as a problem in words.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { identityService } from '../../src/features/identity/service';
import { newId } from '../../src/kernel/ids';
import { indexText } from '../../src/features/assets/search';
import { expectLtr, expectRtl, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
const json = async (method: string, path: string, body?: unknown) => { const r = await s.api(method, path, body); expect(r.status).toBeLessThan(300); return r.status === 204 ? null : r.json() as Promise<any>; };

beforeAll(async () => {
  ({ s, browser } = await startStudio({ workers: false }));
}, 120_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

/** `n` ready assets titled `<prefix> <i>` (and their search entries) straight into SQLite (the list only reads rows); ids oldest first. */
function seed(prefix: string, n: number): string[] {
  const tenant = identityService(s.ctx).tenant('default')!.id;
  const ins = s.ctx.db.query(`INSERT INTO assets (id, tenant_id, external_id, title, status, ladder, source, source_path, duration_s, created_at, updated_at)
    VALUES (?, ?, NULL, ?, 'ready', NULL, '{"kind":"upload"}', '', 12, ?, ?)`);
  const fts = s.ctx.db.query('INSERT INTO assets_fts (rowid, body) VALUES (?, ?)');
  return Array.from({ length: n }, (_, i) => {
    const id = newId();
    const r = ins.run(id, tenant, `${prefix} ${i}`, Date.now(), Date.now());
    fts.run(Number(r.lastInsertRowid), indexText({ title: `${prefix} ${i}`, external_id: null, metadata: '{}' }));
    return id;
  });
}

/** Titles in the library list now (the rows the virtual list has in the DOM: all of them for these short lists). */
const titles = (page: Page) => page.locator('#asset-list .asset-row .title').allTextContents();
const listIs = (page: Page, what: string, want: string[]) =>
  waitFor(what, async () => JSON.stringify((await titles(page)).sort()) === JSON.stringify([...want].sort()), 20_000, 100);

async function journey(lang: 'en' | 'he'): Promise<void> {
  const names = lang === 'he' ? { a: 'חדשות', b: 'ספורט' } : { a: 'News', b: 'Sport' };
  const ids = seed(`${lang}-asset`, 5);
  const a = await json('POST', '/v1/library/sections', { name: names.a });
  const b = await json('POST', '/v1/library/sections', { name: names.b });
  for (const id of ids.slice(0, 2)) await json('PUT', `/v1/assets/${id}/section`, { section_id: a.id });
  await json('PUT', `/v1/assets/${ids[2]}/section`, { section_id: b.id });
  const inA = [`${lang}-asset 0`, `${lang}-asset 1`];

  const page = await studioTab(browser, s, { lang });
  try {
    await page.click('nav.side a[href="/studio/library"]');
    await page.waitForSelector('#asset-list .asset-row');
    await page.waitForSelector(`#section-filter option[value="${a.id}"]`, { state: 'attached' });
    // Pick a section: only its assets, the filter in the address.
    await page.selectOption('#section-filter', a.id);
    await listIs(page, 'section A listed', inA);
    expect(new URL(page.url()).searchParams.get('section')).toBe(a.id);
    await (lang === 'he' ? expectRtl(page) : expectLtr(page));
    await shot(page, `library-section-${lang}`);
    // A reload keeps it.
    await page.reload();
    await page.waitForSelector('#asset-list .asset-row');
    expect(await page.inputValue('#section-filter')).toBe(a.id);
    await listIs(page, 'section A after reload', inA);
    // "No section": the two unsorted ones of this language are there, none of the sectioned ones.
    await page.selectOption('#section-filter', 'none');
    await waitFor('unsectioned listed', async () => {
      const now = await titles(page);
      return now.includes(`${lang}-asset 3`) && now.includes(`${lang}-asset 4`) && !now.some((x) => inA.includes(x) || x === `${lang}-asset 2`);
    }, 20_000, 100);
    // Search within a section.
    await page.selectOption('#section-filter', a.id);
    await page.fill('#search', `${lang}-asset 1`);
    await listIs(page, 'search in section', [`${lang}-asset 1`]);
    await page.fill('#search', '');
    // From the sections view: open section B's assets.
    await page.click('#show-sections');
    const row = page.locator('#section-list tr', { has: page.locator(`.section-name >> text="${names.b}"`) });
    await row.locator('a.section-open').click();
    await page.waitForSelector('#asset-list');
    expect(await page.inputValue('#section-filter')).toBe(b.id);
    await listIs(page, 'section B opened from the sections view', [`${lang}-asset 2`]);
    expect(new URL(page.url()).searchParams.get('section')).toBe(b.id);
    // A section deleted meanwhile: the next load says so in words; "All sections" brings everything back.
    await json('DELETE', `/v1/library/sections/${b.id}`);
    await page.reload();
    await page.waitForSelector('.problem[role=alert]');
    expect((await page.textContent('.problem'))!.toLowerCase()).toContain('section');
    await page.selectOption('#section-filter', '');
    await waitFor('every asset again', async () => (await titles(page)).includes(`${lang}-asset 4`), 20_000, 100);
    expect(new URL(page.url()).searchParams.get('section')).toBeNull();
  } finally { await page.context().close(); }
}

test('EN: pick a section, no section, search within it, open from the sections view, a deleted section', () => journey('en'), 120_000);
test('HE: the same journey right to left', () => journey('he'), 120_000);
