/**
 * The studio's Sites section (issue 44, "Studio") in Chromium against the real appliance: create a site, add a
 * custom domain and verify it through the step the studio shows (a real HTTP server answers the token), edit a page
 * with two sections (add, reorder), the preview pane shows the saved draft through a preview token, request review
 * and publish, the public /s/v1 page answers with the published text; a later draft is previewed but not public;
 * scheduling; menus and theme saved and published (/config); shows and people; Hebrew right to left; screenshots.
 * Also the API piece the studio needed: POST/DELETE /v1/sites/{id}/pages/{page}/review.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from '../helpers/server';
import { expectLtr, expectRtl, layoutProblems, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
let web: ReturnType<typeof Bun.serve>;
/** What the "customer's web server" answers at /.well-known/viewstream-site.txt (empty: not set up yet). */
let served = '';
let siteId = '';
let pageId = '';

beforeAll(async () => {
  web = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (r) => (new URL(r.url).pathname === '/.well-known/viewstream-site.txt' && served ? new Response(served) : new Response('nothing here', { status: 404 })) });
  ({ s, browser } = await startStudio({ workers: false, env: { VS_SITES_VERIFY_PORT: String(web.port), VS_PRIVATE_ALLOWLIST: '127.0.0.0/8,::1/128' } }));
}, 90_000);
afterAll(async () => { await browser?.close(); await s?.stop(); web?.stop(true); }, 60_000);

const pub = async (path: string) => { const r = await fetch(`${s.url}/s/v1${path}`); return { status: r.status, body: await r.json() as any }; };
const json = async (method: string, path: string, body?: unknown, key?: string) => { const r = await s.api(method, path, body, key ? { key } : {}); return { status: r.status, body: r.status === 204 ? null : await r.json() as any }; };

test('API: a page draft is sent for review; editing the draft or publishing it clears the request; sites:write needed', async () => {
  const site = await json('POST', '/v1/sites', { slug: 'review-api', name: 'Review' });
  const id = site.body.id as string;
  const page = await json('POST', `/v1/sites/${id}/pages`, { path: '/', title: 'Home', sections: [{ type: 'text', text: 'one' }] });
  const base = `/v1/sites/${id}/pages/${page.body.id}`;
  expect(page.body.review).toBeNull();
  const reader = (await json('POST', '/v1/api-keys', { scopes: ['sites:read'], name: 'reader' })).body.key as string;
  const writer = (await json('POST', '/v1/api-keys', { scopes: ['sites:read', 'sites:write'], name: 'writer' })).body.key as string;
  expect((await json('POST', `${base}/review`, undefined, reader)).status).toBe(403);
  // Before: 404 (no such route); after: the request with who and when.
  const asked = await json('POST', `${base}/review`, undefined, writer);
  expect(asked.status).toBe(200);
  expect(asked.body.review.requested_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(typeof asked.body.review.requested_by).toBe('string');
  expect(asked.body.review.requested_by_name).toBeNull(); // an API key has no name; a studio person's is shown (below)
  expect((await json('GET', base)).body.review).not.toBeNull();
  // The same draft saved again keeps the request; a changed draft withdraws it.
  expect((await json('PATCH', base, { title: 'Home' }, writer)).body.review).not.toBeNull();
  expect((await json('PATCH', base, { sections: [{ type: 'text', text: 'two' }] }, writer)).body.review).toBeNull();
  await json('POST', `${base}/review`, undefined, writer);
  expect((await json('DELETE', `${base}/review`, undefined, writer)).body.review).toBeNull();
  await json('POST', `${base}/review`, undefined, writer);
  const published = await json('POST', `${base}/publish`);
  expect(published.body.status).toBe('published');
  expect(published.body.review).toBeNull();
  // Problem details: unknown page 404, unknown field on the body-less route 400/422 never 500.
  expect((await json('POST', `/v1/sites/${id}/pages/nope/review`)).status).toBe(404);
  expect((await json('POST', `/v1/sites/nope/pages/${page.body.id}/review`)).status).toBe(404);
  expect((await s.api('POST', `${base}/review`, undefined, { key: null })).status).toBe(401);
});

/** Waits until the preview pane's site text contains `text`. */
const previewHas = (page: Page, text: string) => page.waitForFunction((t) => document.querySelector('#ws-preview .wp')?.textContent?.includes(t) ?? false, text, { timeout: 20_000 });

test('en, desktop: site, domain verification, page with two sections, preview, review and publish, schedule, menus, theme, shows and people', async () => {
  const page = await studioTab(browser, s, { lang: 'en' });
  try {
    await page.goto(`${s.url}/studio/sites`);
    await page.waitForSelector('#ws-create');
    await expectLtr(page);
    await page.fill('#ws-name', 'Kan Evening');
    await page.fill('#ws-slug', 'kan');
    await page.click('#ws-create button[type=submit]');
    await page.waitForURL(/\/studio\/sites\/[^/]+$/);
    siteId = new URL(page.url()).pathname.split('/').pop()!;
    await page.waitForSelector('#ws-settings');

    // A domain: pending with its verification step; verifying before the file is there says what was read.
    await page.fill('#ws-domain-host', 'localhost');
    await page.click('#ws-domain-add button[type=submit]');
    await page.waitForSelector('.ws-verify');
    const shown = await page.locator('.ws-verify code.copy-value').allTextContents();
    const token = shown[1]!;
    expect(shown[0]).toBe(`http://localhost:${web.port}/.well-known/viewstream-site.txt`);
    expect(shown[3]).toBe(`viewstream-site=${token}`);
    await page.click('.ws-verify-btn');
    await page.waitForSelector('#ws-domains [role=alert]');
    expect(await page.textContent('#ws-domains .badge')).toBe('waiting for verification');
    await shot(page, 'sites-en-desktop-domain');
    served = token;
    await page.click('.ws-verify-btn');
    await page.waitForFunction(() => document.querySelector('#ws-domains .badge')?.textContent === 'verified');
    expect(await page.locator('.ws-verify').count()).toBe(0);
    expect((await pub('/_host?hostname=localhost')).body.site).toBe('kan');
    // A redirect in the route table.
    await page.fill('#ws-route-path', '/old-home');
    await page.fill('#ws-route-location', '/');
    await page.selectOption('#ws-route-status', '308');
    await page.click('#ws-route-add button[type=submit]');
    await page.waitForSelector('#ws-route-list');
    expect((await pub('/kan/route?path=/old-home')).body).toMatchObject({ kind: 'redirect', redirect: { location: '/', status: 308 } });

    // A page with two sections: added, filled, reordered, saved; the preview shows the draft.
    await page.click('#ws-tab-pages');
    await page.waitForSelector('#ws-page-create');
    await page.fill('#ws-page-title', 'Home');
    await page.click('#ws-page-create button[type=submit]');
    await page.waitForURL(/\/pages\/[^/]+$/);
    pageId = new URL(page.url()).pathname.split('/').pop()!;
    await page.selectOption('#ws-sec-type', 'text');
    await page.click('#ws-sec-add');
    await page.fill('#ws-sec-0-title', 'Welcome');
    await page.fill('#ws-sec-0-text', 'Draft hello from the studio');
    await page.selectOption('#ws-sec-type', 'promo');
    await page.click('#ws-sec-add');
    await page.fill('#ws-sec-1-title', 'Evening news');
    await page.fill('#ws-sec-1-text', 'Every night at eight');
    await page.click('#ws-sec-1 button[aria-label="Move up"]');
    expect(await page.inputValue('#ws-sec-0-title')).toBe('Evening news');
    await page.click('#ws-save-draft');
    await page.waitForSelector('#ws-draft-note');
    await previewHas(page, 'Draft hello from the studio');
    const order = await page.locator('#ws-preview .wp-sec h3').allTextContents();
    expect(order).toEqual(['Evening news', 'Welcome']);
    // Not public yet: the path does not resolve and the page answers 404 until published.
    expect((await pub('/kan/route?path=/')).body.kind).toBe('not_found');
    expect((await pub(`/kan/pages/${pageId}`)).status).toBe(404);

    // Review, then publish: the draft and the live page side by side.
    await page.click('#ws-request-review');
    await page.waitForSelector('#ws-review-badge');
    expect(await page.textContent('#ws-review-who')).toContain('asked by Dana Editor');
    expect(await page.locator('#ws-cmp-draft .ws-mark.m-added').count()).toBe(2);
    expect(await page.textContent('#ws-cmp-live')).toContain('Not on the site.');
    await shot(page, 'sites-en-desktop-review');
    expect(await page.textContent('#ws-publish-now')).toBe('Approve and publish');
    await page.click('#ws-publish-now');
    await page.waitForFunction(() => document.querySelector('#ws-pub-note')?.textContent?.startsWith('Published'));
    expect(await page.locator('#ws-review-badge').count()).toBe(0);
    expect((await pub('/kan/route?path=/')).body.page_id).toBe(pageId);
    const live = await pub(`/kan/pages/${pageId}`);
    expect(live.status).toBe(200);
    expect(live.body.version).toBe(1);
    expect(live.body.sections.map((x: { type: string }) => x.type)).toEqual(['promo', 'text']);
    expect(live.body.sections[1].text).toBe('Draft hello from the studio');

    // A second draft: previewed, not public; the comparison marks the changed section.
    await page.fill('#ws-sec-1-text', 'Second draft text');
    await page.waitForSelector('#ws-dirty');
    await page.click('#ws-save-draft');
    await previewHas(page, 'Second draft text');
    expect((await pub(`/kan/pages/${pageId}`)).body.sections[1].text).toBe('Draft hello from the studio');
    expect(await page.locator('#ws-cmp-draft .ws-mark.m-changed').count()).toBe(1);
    // Scheduled publish an hour ahead: the page carries it; cancelled again.
    // Typed as YYYY-MM-DD HH:MM in the site's time zone (Asia/Jerusalem), the same in every language.
    const later = new Date(Math.floor((Date.now() + 2 * 3600_000) / 60_000) * 60_000);
    const wall = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(later);
    const part = (k: string) => wall.find((x) => x.type === k)!.value;
    await page.fill('#ws-sched-at', `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`);
    await page.click('#ws-schedule-btn');
    await page.waitForSelector('#ws-sched-note');
    const sched = (await json('GET', `/v1/sites/${siteId}/pages/${pageId}`)).body.schedule;
    expect(sched.action).toBe('publish');
    expect(Date.parse(sched.at)).toBe(later.getTime());
    await page.click('#ws-sched-cancel');
    await page.waitForFunction(() => !document.querySelector('#ws-sched-note'));
    expect((await json('GET', `/v1/sites/${siteId}/pages/${pageId}`)).body.schedule).toBeNull();
    // A scheduled unpublish: the page stays public until then; cancelled too.
    await page.selectOption('#ws-sched-action', 'unpublish');
    await page.click('#ws-schedule-btn');
    await page.waitForSelector('#ws-sched-note');
    expect(await page.textContent('#ws-sched-note')).toContain('leaves the site');
    expect((await json('GET', `/v1/sites/${siteId}/pages/${pageId}`)).body.schedule.action).toBe('unpublish');
    expect((await pub(`/kan/pages/${pageId}`)).status).toBe(200);
    await page.click('#ws-sched-cancel');
    await page.waitForFunction(() => !document.querySelector('#ws-sched-note'));

    // Menus: two items, saved, published: /config lists them.
    await page.click('#ws-tab-menus');
    await page.waitForSelector('#ws-menus');
    await page.click('#ws-menu-add');
    await page.click('#ws-menu-add');
    await page.fill('#ws-menu-0 .ws-menu-label', 'Home');
    await page.fill('#ws-menu-1 .ws-menu-label', 'Guide');
    await page.fill('#ws-menu-1 .ws-menu-path', '/epg');
    await page.click('#ws-menu-save');
    await page.waitForSelector('#ws-menu-note');
    await page.waitForSelector('#ws-menu-publish:not([disabled])');
    await page.click('#ws-menu-publish');
    await page.waitForFunction(() => document.querySelector('#ws-menu-note')?.textContent === 'Menu published.');
    await shot(page, 'sites-en-desktop-menus');
    // Theme: the primary colour changed, saved and published.
    await page.click('#ws-tab-theme');
    await page.waitForSelector('#ws-tokens');
    await page.fill('#ws-tokens tbody tr:first-child .ws-token-val', '#c00000');
    await page.fill('#ws-css', '.hero{border-radius:0}');
    await page.click('#ws-theme-save');
    await page.waitForSelector('#ws-theme-note');
    await page.waitForSelector('#ws-theme-publish:not([disabled])');
    await page.click('#ws-theme-publish');
    await page.waitForFunction(() => document.querySelector('#ws-theme-note')?.textContent === 'Theme published.');
    await shot(page, 'sites-en-desktop-theme');
    const config = (await pub('/kan/config')).body;
    expect(config.menus.main.map((m: { label: string; path?: string }) => [m.label, m.path])).toEqual([['Home', '/'], ['Guide', '/epg']]);
    expect(config.theme.tokens['color.primary']).toBe('#c00000');
    expect(config.theme.css).toBe('.hero{border-radius:0}');

    // A show and a person, published on the site.
    await page.click('#ws-tab-shows');
    await page.fill('#ws-shows-slug', 'evening');
    await page.fill('#ws-shows-title', 'Evening magazine');
    await page.check('#ws-shows-published');
    await page.click('#ws-shows-save');
    await page.waitForSelector('#ws-shows-list li');
    await page.click('#ws-tab-people');
    await page.fill('#ws-people-slug', 'dana');
    await page.fill('#ws-people-name', 'Dana Levi');
    await page.fill('#ws-people-role', 'Presenter');
    await page.check('#ws-people-published');
    await page.click('#ws-people-save');
    await page.waitForSelector('#ws-people-list li');
    expect((await pub('/kan/entities/show/evening')).body.title).toBe('Evening magazine');
    expect((await pub('/kan/entities/person/dana')).status).toBe(200);
  } finally { await page.context().close(); }
}, 180_000);

/** Interface words (buttons, labels, headings, tabs, table heads, badges, options; not the preview's site text) with Latin letters and no Hebrew one. */
const interfaceLatin = (page: Page) => page.evaluate(() => Array.from(document.querySelectorAll('main button, main .field > span, main h2, main h3, main .ws-tabs a, main th, main .badge, main option, main .muted'))
  .filter((e) => !e.closest('.wp')).map((e) => (e.textContent ?? '').trim()).filter((x) => /[A-Za-z]/.test(x) && !/[\u0590-\u05FF]/.test(x) && !/^(main|footer|http\S+|\S+\/s\/v1\/\S+)$/.test(x)));

test('he and en, desktop and phone: right to left in Hebrew, nothing sticks out; screenshots', async () => {
  expect(pageId).not.toBe('');
  for (const lang of ['he', 'en'] as const) {
    for (const phone of [false, true]) {
      const page = await studioTab(browser, s, { lang, phone });
      try {
        const tag = `${lang}-${phone ? 'phone' : 'desktop'}`;
        await page.goto(`${s.url}/studio/sites`);
        await page.waitForSelector('#ws-list');
        if (lang === 'he') {
          if (!phone) await expectRtl(page); else expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
          expect(await page.textContent('#page-title')).toBe('אתרים');
        } else if (!phone) await expectLtr(page);
        await shot(page, `sites-${tag}-list`);
        await page.goto(`${s.url}/studio/sites/${siteId}/pages/${pageId}`);
        await previewHas(page, 'Second draft text');
        await page.waitForSelector('#ws-cmp-draft');
        if (lang === 'he') {
          expect(await page.textContent('#ws-publish h2')).toBe('בדיקה ופרסום');
          expect(await page.textContent('#ws-sections h3')).toBe('מקטעים');
          expect(await interfaceLatin(page)).toEqual([]);
        }
        expect(await layoutProblems(page)).toEqual([]);
        await shot(page, `sites-${tag}-editor`);
        if (!phone) {
          await page.goto(`${s.url}/studio/sites/${siteId}`);
          await page.waitForSelector('#ws-domains .badge');
          if (lang === 'he') expect(await interfaceLatin(page)).toEqual([]);
          expect(await layoutProblems(page)).toEqual([]);
          await shot(page, `sites-${tag}-settings`);
        }
      } finally { await page.context().close(); }
    }
  }
}, 180_000);
