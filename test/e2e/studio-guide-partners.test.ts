/**
 * Studio guide-to-partners pages (issue 48) in Chromium, in English and Hebrew: add an EPG source and fetch it now (the
 * change staged as a draft; a bad document's reason in the log), build a week template in the grid editor and apply it
 * (the guide opens with the draft), add an HTTPS destination (secret shown once), send a test and read the delivery log.
 * The API state is checked after each step. Screenshots with VS_STUDIO_SHOTS=1 (docs/studio/guide-*-{en,he}.png).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/server';
import { expectLtr, expectRtl, layoutProblems, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
let feed: ReturnType<typeof Bun.serve>;
let receiver: ReturnType<typeof Bun.serve>;
let hits = 0;
const H = 3_600_000;
const base = Math.floor(Date.now() / H) * H + 30 * H;
const xt = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14) + ' +0000';
const good = `<?xml version="1.0"?><tv><channel id="one"/><programme start="${xt(base)}" stop="${xt(base + H)}" channel="one"><title>Feed show</title></programme></tv>`;

beforeAll(async () => {
  feed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (r) => new Response(new URL(r.url).pathname === '/bad.xml' ? '<tv><programme' : good, { headers: { 'content-type': 'application/xml' } }) });
  receiver = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => { hits++; return new Response(null, { status: 204 }); } });
  ({ s, browser } = await startStudio({ workers: false }));
}, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); feed?.stop(true); receiver?.stop(true); }, 60_000);

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await s.api(method, path, body);
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (r.status === 204 ? null : await r.json()) as T;
}
const drafts = async (id: string) => (await json<{ items: unknown[] }>('GET', `/v1/channels/${id}/guide/draft`)).items.length;

test('EPG sources, templates and destinations pages: add, fetch, apply, test, logs (en and he, RTL)', async () => {
  for (const lang of ['en', 'he'] as const) {
    const ch = await json<{ id: string; slug: string }>('POST', '/v1/channels', { name: lang === 'he' ? 'ערוץ שותפים' : 'Partner channel', slug: `partners-${lang}`, timezone: 'UTC' });
    const page = await studioTab(browser, s, { lang });
    page.on('dialog', (d) => void d.accept());
    try {
      // Sources: add one, fetch now (staged as a draft), a broken one shows its reason.
      await page.goto(`${s.url}/studio/guide/sources`);
      await page.waitForSelector('#source-form');
      if (lang === 'he') await expectRtl(page); else await expectLtr(page);
      await page.selectOption('#source-channel', ch.id);
      await page.fill('#source-url', `http://127.0.0.1:${feed.port}/epg.xml`);
      await page.click('#source-form button[type=submit]');
      const row = page.locator('#sources li', { hasText: `127.0.0.1:${feed.port}/epg.xml` });
      await row.waitFor();
      await row.locator('button', { hasText: lang === 'he' ? 'משיכה עכשיו' : 'Fetch now' }).click();
      await page.waitForFunction(() => (document.getElementById('sources-live')?.textContent ?? '').length > 0);
      expect(await page.textContent('#sources-live')).toContain(lang === 'he' ? 'נשמר כטיוטה' : 'staged as a draft');
      await row.locator('table.gp-log tbody tr').first().waitFor();
      expect(await drafts(ch.id)).toBe(1);
      await page.selectOption('#source-channel', ch.id);
      await page.fill('#source-url', `http://127.0.0.1:${feed.port}/bad.xml`);
      await page.click('#source-form button[type=submit]');
      const badRow = page.locator('#sources li', { hasText: 'bad.xml' });
      await badRow.waitFor();
      await badRow.locator('button', { hasText: lang === 'he' ? 'משיכה עכשיו' : 'Fetch now' }).click();
      await badRow.locator('p.gp-error', { hasText: 'bad XML' }).waitFor();
      await shot(page, `guide-sources-${lang}`);
      await json('DELETE', `/v1/channels/${ch.id}/guide/draft`);
      for (const x of (await json<{ items: { id: string }[] }>('GET', '/v1/guide/sources')).items) await json('DELETE', `/v1/guide/sources/${x.id}`);

      // Templates: two slots on Monday and Saturday in the week grid editor, saved, applied: the guide opens on the draft.
      await page.goto(`${s.url}/studio/guide/templates`);
      await page.waitForSelector('#slot-form');
      await page.selectOption('#template-pick', ''); // a new template (the page opens on the first saved one)
      for (const [day, start, title] of [['1', '06:00', lang === 'he' ? 'בוקר טוב' : 'Good morning'], ['6', '20:00', lang === 'he' ? 'מהדורת סוף שבוע' : 'Weekend news']]) {
        await page.selectOption('#slot-day', day);
        await page.fill('#slot-start', start);
        await page.fill('#slot-minutes', '90');
        await page.fill('#slot-title', title);
        await page.click('#slot-form button[type=submit]');
      }
      await page.fill('#template-name', lang === 'he' ? 'שבוע רגיל' : 'Regular week');
      await page.click('#template-save');
      await page.waitForSelector('#apply-form');
      const tpls = (await json<{ items: { id: string; name: string; slots: { weekday: number; start: string; duration_minutes: number }[] }[] }>('GET', '/v1/guide/templates')).items;
      const tpl = tpls.find((x) => x.name === (lang === 'he' ? 'שבוע רגיל' : 'Regular week'))!;
      expect(tpl.slots.map((x) => [x.weekday, x.start, x.duration_minutes])).toEqual([[1, '06:00', 90], [6, '20:00', 90]]);
      expect(await page.locator('#template-week .tpl-slot').count()).toBe(2);
      await shot(page, `guide-templates-${lang}`);
      await page.selectOption('#apply-channel', ch.id);
      await page.click('#apply-form button[type=submit]');
      await page.waitForURL(/\/studio\/guide\?channel=/);
      await page.waitForSelector('#draft-count');
      expect(await drafts(ch.id)).toBe(2); // 7 days from today hold one Monday and one Saturday
      await json('DELETE', `/v1/channels/${ch.id}/guide/draft`);

      // Destinations: an HTTPS destination (secret once), a test send, the delivery log and the pull address.
      await page.goto(`${s.url}/studio/guide/destinations`);
      await page.waitForSelector('#dest-form');
      await page.fill('#dest-name', lang === 'he' ? 'שותף ראשי' : 'Main partner');
      await page.locator('#dest-form .events-pick label', { hasText: lang === 'he' ? 'ערוץ שותפים' : 'Partner channel' }).locator('input').check();
      await page.fill('#dest-url', `http://127.0.0.1:${receiver.port}/epg`);
      await page.click('#dest-form button[type=submit]');
      await page.waitForSelector('.once .copy-value');
      expect(await page.textContent('.once .copy-value')).toStartWith('whsec_');
      const dest = page.locator('#destinations li', { hasText: lang === 'he' ? 'שותף ראשי' : 'Main partner' });
      const before = hits;
      await dest.locator('button', { hasText: lang === 'he' ? 'שליחת בדיקה' : 'Send a test' }).click();
      await page.waitForFunction(() => (document.getElementById('dest-live')?.textContent ?? '').length > 0);
      expect(await page.textContent('#dest-live')).toContain(lang === 'he' ? 'הבדיקה הגיעה' : 'The test arrived');
      expect(hits).toBe(before + 1);
      await dest.locator('table.gp-log tbody tr').first().waitFor();
      expect(await dest.locator('table.gp-log').textContent()).toContain(lang === 'he' ? 'נמסר' : 'delivered');
      await shot(page, `guide-destinations-${lang}`);
      const list = (await json<{ items: { id: string; channels: string[]; last_delivery: { status: string } }[] }>('GET', '/v1/guide/destinations')).items;
      expect(list.find((d) => d.channels.includes(ch.id))!.last_delivery.status).toBe('delivered');
    } finally {
      await page.context().close();
    }
  }
}, 180_000);

test('the three pages fit a phone (390 px) in Hebrew and English: nothing sticks out', async () => {
  for (const lang of ['he', 'en'] as const) {
    const page = await studioTab(browser, s, { lang, phone: true });
    try {
      for (const p of ['sources', 'templates', 'destinations']) {
        await page.goto(`${s.url}/studio/guide/${p}`);
        await page.waitForSelector('#page-title');
        await page.waitForFunction(() => !document.querySelector('.state.loading'));
        expect({ page: p, lang, problems: await layoutProblems(page) }).toEqual({ page: p, lang, problems: [] });
      }
    } finally { await page.context().close(); }
  }
}, 120_000);
