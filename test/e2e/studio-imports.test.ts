/**
 * Studio library imports page (issue 47) in Chromium, in English and Hebrew: read a local website's video sitemap from
 * the form (the page follows the background reading), review the videos found (title, page, video, duration,
 * new/skipped), deselect one, start, and watch each video's result (registered with a link, or its error) and the
 * counts; a sitemap that cannot be read shows its problem. The API state is checked after each step. Screenshots with
 * VS_STUDIO_SHOTS=1 (docs/studio/imports-*.png).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/server';
import { expectLtr, expectRtl, layoutProblems, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
let site: ReturnType<typeof Bun.serve>;
const base = () => `http://127.0.0.1:${site.port}`;
// One new video with a real address, one whose address the appliance refuses (a private one outside the allowlist),
// one player page (deselected in the test) and one already in the library (skipped).
const sitemap = (tag: string) => `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
  <url><loc>${base()}/${tag}/news</loc><video:video><video:thumbnail_loc>${base()}/t.jpg</video:thumbnail_loc><video:title>${tag === 'he' ? 'מהדורת הערב' : 'Evening news'}</video:title>
    <video:description>d</video:description><video:content_loc>${base()}/media/${tag}-news.mp4</video:content_loc><video:duration>125</video:duration></video:video></url>
  <url><loc>${base()}/${tag}/private</loc><video:video><video:thumbnail_loc>${base()}/t.jpg</video:thumbnail_loc><video:title>${tag === 'he' ? 'כתבה פנימית' : 'Internal report'}</video:title>
    <video:description>d</video:description><video:content_loc>http://10.255.255.1/${tag}.mp4</video:content_loc><video:duration>61</video:duration></video:video></url>
  <url><loc>${base()}/${tag}/embed</loc><video:video><video:thumbnail_loc>${base()}/t.jpg</video:thumbnail_loc><video:title>${tag === 'he' ? 'נגן מוטמע' : 'Embedded player'}</video:title>
    <video:description>d</video:description><video:player_loc>${base()}/player/${tag}</video:player_loc></video:video></url>
  <url><loc>${base()}/${tag}/known</loc><video:video><video:thumbnail_loc>${base()}/t.jpg</video:thumbnail_loc><video:title>${tag === 'he' ? 'כבר בספרייה' : 'Already here'}</video:title>
    <video:description>d</video:description><video:content_loc>${base()}/media/${tag}-known.mp4</video:content_loc></video:video></url>
</urlset>`;

beforeAll(async () => {
  site = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    fetch(req) {
      const p = new URL(req.url).pathname;
      const m = p.match(/^\/(en|he)\/sitemap\.xml$/);
      if (m) return new Response(sitemap(m[1]!), { headers: { 'content-type': 'application/xml' } });
      if (p === '/bad.xml') return new Response('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>x</loc></urlset>', { headers: { 'content-type': 'application/xml' } });
      return new Response('no', { status: 404 }); // the media themselves are not needed: registration is what the page shows
    },
  });
  ({ s, browser } = await startStudio());
}, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); site?.stop(true); }, 60_000);

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await s.api(method, path, body);
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

test('imports page: read a sitemap, review, deselect, start, results and a failed reading (en and he, RTL)', async () => {
  for (const lang of ['en', 'he'] as const) {
    // Already in the library: registered by hand from the same video address.
    await json('POST', '/v1/assets', { source: { kind: 'url', url: `${base()}/media/${lang}-known.mp4` }, title: 'by hand' });
    const page = await studioTab(browser, s, { lang });
    await page.click('nav.side a[href="/studio/imports"]');
    await page.waitForSelector('#import-form');
    if (lang === 'en') await expectLtr(page); else await expectRtl(page);
    await page.fill('#import-url', `${base()}/${lang}/sitemap.xml`);
    await page.click('#import-create');
    await page.waitForURL(/\/studio\/imports\/[^/]+$/);
    const id = page.url().split('/').pop()!;
    await page.waitForSelector('#import-items tbody tr');
    const rows = await page.$$eval('#import-items tbody tr', (trs) => trs.map((tr) => ({
      status: tr.getAttribute('data-status'), cells: Array.from(tr.querySelectorAll('td')).map((td) => td.textContent!.trim()), box: !!tr.querySelector('input[type=checkbox]'),
    })));
    expect(rows.map((r) => [r.status, r.box])).toEqual([['new', true], ['new', true], ['new', true], ['skipped', false]]);
    expect(rows[0]!.cells[1]).toBe(lang === 'he' ? 'מהדורת הערב' : 'Evening news');
    expect(rows[0]!.cells[2]).toBe(`${base()}/${lang}/news`);
    expect(rows[0]!.cells[3]).toBe(`${base()}/media/${lang}-news.mp4`);
    expect(rows[0]!.cells[4]).toBe('2:05');
    expect(rows[3]!.cells[5]).toBe(lang === 'he' ? 'מדולג' : 'skipped');
    expect(await page.textContent('#import-selected')).toBe(lang === 'he' ? '3 מתוך 3 סרטונים חדשים נבחרו' : '3 of 3 new videos selected');

    // Deselect the player page; the API says so too.
    await page.locator('#import-items tbody tr').nth(2).locator('input[type=checkbox]').uncheck();
    await page.waitForFunction(() => document.querySelector('#import-selected')?.textContent?.startsWith('2 '));
    expect((await json<{ counts: { selected: number } }>('GET', `/v1/library/imports/${id}`)).counts.selected).toBe(2);
    expect(await layoutProblems(page)).toEqual([]);
    await shot(page, `imports-review-${lang}`);

    // Start: one registered (with a link to its asset), one refused with its reason; the player page untouched.
    await page.click('#import-start');
    await page.waitForSelector('#import-summary [data-status="done"]');
    await page.waitForSelector('#import-items [data-result="failed"]');
    const results = await page.$$eval('#import-items tbody tr', (trs) => trs.map((tr) => tr.querySelector('[data-result]')?.getAttribute('data-result') ?? null));
    expect(results).toEqual(['registered', 'failed', null, null]);
    const link = await page.getAttribute('#import-items tbody tr:nth-child(1) a[href^="/studio/library/"]', 'href');
    const items = (await json<{ items: { asset_id: string | null; result: string | null; error: string | null }[] }>('GET', `/v1/library/imports/${id}/items`)).items;
    expect(link).toBe(`/studio/library/${items[0]!.asset_id}`);
    expect(await page.textContent('#import-items tbody tr:nth-child(2)')).toContain(items[1]!.error!.slice(0, 30));
    expect(await page.textContent('#import-counts')).toBe(lang === 'he' ? '2 מתוך 2 סרטונים טופלו · 1 נרשמו · 1 נכשלו' : '2 of 2 videos handled · 1 registered · 1 failed');
    expect(await page.$('#import-start')).toBeNull();
    await shot(page, `imports-done-${lang}`);

    // A sitemap that cannot be read: the import shows the problem with its line and column.
    await page.click('a[href="/studio/imports"]');
    await page.waitForSelector(`#imports tr[data-id="${id}"]`);
    await page.fill('#import-url', `${base()}/bad.xml`);
    await page.click('#import-create');
    await page.waitForSelector('#import-error');
    expect(await page.textContent('#import-error')).toMatch(/not well-formed XML \(1:\d+/);
    expect(await page.$('#import-items')).toBeNull();
    await page.click('a[href="/studio/imports"]');
    await page.waitForSelector('#imports [data-status="failed"]');
    expect(await page.textContent('#page-title')).toBe(lang === 'he' ? 'ייבוא לספרייה' : 'Library imports');
    await shot(page, `imports-list-${lang}`);
    await page.context().close();
  }
}, 180_000);
