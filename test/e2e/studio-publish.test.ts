/**
 * "Published" means one thing (issue 42 item 8): a programme or an asset created with `publish: true` is published
 * when it is ready; the asset page publishes and unpublishes, says draft or published, and offers the watch-page link
 * and the embed code with copy buttons; the audit log records publishing, unpublishing, trashing and restoring; the
 * public watch page speaks the browser's language; the renditions table and the status timeline read in Hebrew.
 * Real ffmpeg encodes, real Chromium, English and Hebrew, desktop and phone.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { defaultTenant, makeClip, registerAsset, settled } from './transcode-helpers';
import { shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
let tenant: string;
const assets: Record<'en' | 'he', string> = { en: '', he: '' };
let clip = '';
const json = async (method: string, path: string, body?: unknown) => { const r = await s.api(method, path, body); expect(r.status).toBeLessThan(300); return r.status === 204 ? null : r.json() as Promise<any>; };
const audit = async () => (await json('GET', '/v1/audit?limit=200')).items as { action: string; target: string | null; details: Record<string, unknown>; actor: { label: string } }[];

beforeAll(async () => {
  ({ s, browser } = await startStudio({ env: { VS_TRANSCODE_ENCODER: 'libx264' } }));
  tenant = defaultTenant(s.ctx);
  clip = await makeClip(join(s.dataDir, 'words.mp4'), { seconds: 4, size: '320x180' });
  for (const lang of ['en', 'he'] as const) assets[lang] = registerAsset(s.ctx, clip);
  for (const lang of ['en', 'he'] as const) {
    expect((await settled(s.ctx, assets[lang], 150_000)).status).toBe('ready');
    await json('PATCH', `/v1/assets/${assets[lang]}`, { title: lang === 'he' ? 'מהדורת הערב' : 'Evening bulletin' });
  }
}, 240_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

test('publish: true publishes the asset as soon as it is ready (asset.published); false and the default stay drafts', async () => {
  // Before: `publish: true` was stored as `auto` and nothing published it: the programme's new video stayed a draft.
  const dir = join(s.dataDir, 'media', tenant, 'ingest', 'words', 'in');
  mkdirSync(dir, { recursive: true });
  copyFileSync(clip, join(dir, 'a.mp4'));
  copyFileSync(clip, join(dir, 'b.mp4'));
  const pub = await json('POST', '/v1/assets', { source: { kind: 's3', key: 'ingest/words/in/a.mp4' }, title: 'straight out', publish: true });
  const draft = await json('POST', '/v1/assets', { source: { kind: 's3', key: 'ingest/words/in/b.mp4' }, title: 'kept back' });
  expect(pub.publish).toBe('on_ready');
  expect(pub.published).toBe(false);
  expect(draft.publish).toBe('auto');
  for (const a of [pub, draft]) expect((await settled(s.ctx, a.id, 150_000)).status).toBe('ready');
  expect((await json('GET', `/v1/assets/${pub.id}`)).published).toBe(true);
  expect((await json('GET', `/v1/assets/${draft.id}`)).published).toBe(false);
  const evs = s.ctx.db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM events WHERE type = 'asset.published' AND json_extract(data, '$.asset') = ?");
  expect(evs.get(pub.id)!.n).toBe(1);
  expect(evs.get(draft.id)!.n).toBe(0);
  // An editor cannot ask for it (the publish scope).
  const editor = (await json('POST', '/v1/api-keys', { role: 'editor' })).key as string;
  expect((await s.api('POST', '/v1/assets', { source: { kind: 's3', key: 'ingest/words/in/b.mp4' }, publish: true }, { key: editor })).status).toBe(403);
}, 200_000);

test('the audit log records publish, unpublish, trash and restore of an asset (API)', async () => {
  const id = registerAsset(s.ctx, clip);
  expect((await settled(s.ctx, id, 150_000)).status).toBe('ready');
  await json('PATCH', `/v1/assets/${id}`, { title: 'audited', publish: true });
  await json('PATCH', `/v1/assets/${id}`, { publish: true }); // no change: not recorded twice
  await json('PATCH', `/v1/assets/${id}`, { publish: false });
  expect((await json('GET', `/v1/assets/${id}`)).published).toBe(false);
  await json('DELETE', `/v1/assets/${id}`);
  await json('POST', `/v1/assets/${id}/restore`);
  const mine = (await audit()).filter((e) => e.target === id).map((e) => [e.action, e.details.title]).reverse();
  // Before: none of these were recorded.
  expect(mine).toEqual([['asset.published', 'audited'], ['asset.unpublished', 'audited'], ['asset.trashed', 'audited'], ['asset.restored', 'audited']]);
}, 200_000);

test('the watch page follows the browser language (Accept-Language), ?lang= wins, Vary: Accept-Language', async () => {
  const path = `/w/default/vod/${assets.he}`;
  const get = (headers: Record<string, string>, q = '') => fetch(`${s.url}${path}${q}`, { headers });
  const he = await get({ 'accept-language': 'he-IL,he;q=0.9,en-US;q=0.8' });
  expect(he.headers.get('vary')?.toLowerCase()).toContain('accept-language');
  const heHtml = await he.text();
  // Before: <html lang="en" dir="ltr"> for every browser.
  expect(heHtml).toContain('<html lang="he" dir="rtl">');
  expect(heHtml).toContain('data-lang="he"');
  expect(await (await get({ 'accept-language': 'en-GB,en;q=0.9' })).text()).toContain('<html lang="en" dir="ltr">');
  expect(await (await get({ 'accept-language': 'fr-FR, he;q=0.5' })).text()).toContain('<html lang="he"');
  expect(await (await get({ 'accept-language': 'he' }, '?lang=en')).text()).toContain('<html lang="en"');
  // In Chromium with a Hebrew locale the player speaks Hebrew.
  const ctx = await browser.newContext({ locale: 'he-IL', extraHTTPHeaders: { 'accept-language': 'he-IL,he' } });
  const page = await ctx.newPage();
  await page.goto(`${s.url}${path}`);
  await page.waitForSelector('.vs-box');
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  expect(await page.locator('.vs-box').getAttribute('dir')).toBe('rtl');
  await ctx.close();
}, 60_000);

/** The asset page as a publisher: draft → publish → unpublish, share link and embed code, renditions and timeline in words. */
async function publishing(page: Page, lang: 'en' | 'he', phone: boolean): Promise<void> {
  const id = assets[lang];
  const title = lang === 'he' ? 'מהדורת הערב' : 'Evening bulletin';
  await page.goto(`${s.url}/studio/library/${id}`);
  await page.waitForSelector('#share-panel');
  const draftWord = lang === 'he' ? 'טיוטה' : 'draft';
  expect((await page.textContent('#draft-badge'))?.trim()).toBe(draftWord);
  expect(await page.textContent('#publish-state')).toContain(lang === 'he' ? 'טיוטה' : 'Draft');
  // Share: the watch page and the iframe embed code, each with a copy button.
  const share = await json('GET', `/v1/assets/${id}`);
  expect(share.share.watch).toBe(`${s.url}/w/default/vod/${id}`);
  expect(share.share.iframe).toContain(`<iframe src="${s.url}/e/default/vod/${id}"`);
  const values = await page.locator('#share-panel .copy-value').allTextContents();
  expect(values).toEqual([share.share.watch, share.share.iframe]);
  expect(await page.locator('#share-panel button', { hasText: lang === 'he' ? 'העתקה' : 'Copy' }).count()).toBe(2);
  expect(await page.getAttribute('#open-watch', 'href')).toBe(share.share.watch);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
  await page.locator('#share-panel .copy').nth(1).locator('button').last().click();
  await page.waitForSelector(`#share-panel button:has-text("${lang === 'he' ? 'הועתק' : 'Copied'}")`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(share.share.iframe);
  // Nothing sticks out sideways on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  const box = await page.locator('#share-panel').boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual((phone ? 390 : 1280) + 1);
  await page.locator('#share-panel').scrollIntoViewIfNeeded();
  await shot(page, `asset-share-${lang}${phone ? '-phone' : ''}`);

  // Publish, then Unpublish (after the confirmation) — the badge and the API agree each time.
  await page.click('#publish');
  await page.waitForSelector('#unpublish');
  expect((await page.textContent('.page-head .b-published'))?.trim()).toBe(lang === 'he' ? 'פורסם' : 'published');
  expect((await json('GET', `/v1/assets/${id}`)).published).toBe(true);
  expect(await page.locator('#share-draft').count()).toBe(0);
  page.once('dialog', (d) => void d.accept());
  await page.click('#unpublish');
  await page.waitForSelector('#publish');
  expect((await json('GET', `/v1/assets/${id}`)).published).toBe(false);
  expect((await page.textContent('#draft-badge'))?.trim()).toBe(draftWord);

  // Renditions: the number, grouped, then the unit in the page's language (before: "kb/s 2,933" read right to left).
  const rate = (await page.locator('#renditions tbody td:nth-child(2)').first().textContent())!.trim();
  expect(rate).toMatch(lang === 'he' ? /^\d{1,3}(,\d{3})* קילוביט\/שנייה$/ : /^\d{1,3}(,\d{3})* kb\/s$/);
  // Timeline: job names in words, not `asset.process · started`.
  const steps = await page.locator('#timeline li span').allTextContents();
  expect(steps.some((x) => /asset\.|vod\./.test(x))).toBe(false);
  expect(steps).toContain(lang === 'he' ? 'קידוד · התחיל' : 'Encoding · started');
  if (!phone) { await page.locator('#renditions').scrollIntoViewIfNeeded(); await shot(page, `asset-renditions-${lang}`); }
}

for (const lang of ['en', 'he'] as const) {
  test(`asset page (${lang}, desktop and phone): draft badge, publish, unpublish, share link and embed code; the audit log in words`, async () => {
    for (const phone of [false, true]) {
      const page = await studioTab(browser, s, { lang, phone });
      try { await publishing(page, lang, phone); } finally { await page.context().close(); }
    }
    // The team page's audit log says what happened to which video, in the studio's language.
    const page = await studioTab(browser, s, { lang });
    try {
      await page.goto(`${s.url}/studio/team`);
      await page.waitForSelector('#audit tbody tr');
      const title = lang === 'he' ? 'מהדורת הערב' : 'Evening bulletin';
      const lines = await page.locator('#audit tbody td.au-text').allTextContents();
      expect(lines).toContain(lang === 'he' ? `פורסם „${title}”` : `Published “${title}”`);
      expect(lines).toContain(lang === 'he' ? `הפרסום של „${title}” בוטל` : `Unpublished “${title}”`);
      expect(lines.some((x) => /^[a-z_]+\.[a-z_]+$/.test(x))).toBe(false);
      await shot(page, `team-audit-${lang}`);
    } finally { await page.context().close(); }
    await waitFor('both publish entries', async () => (await audit()).filter((e) => e.target === assets[lang] && /published/.test(e.action)).length >= 4, 5_000, 100);
  }, 120_000);
}
