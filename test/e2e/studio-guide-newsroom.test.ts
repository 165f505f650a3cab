/**
 * The guide as a newsroom editor uses it late in the evening (issue 42, items 6 and 7), in Chromium, English and
 * Hebrew, at 1280×800 and 390×844: a 5-minute programme stays visible and clickable beside the next one with its ✕ off
 * its title; the grid opens at the current time; times are read in the tenant's zone (Asia/Jerusalem) for a new
 * channel, and a UTC channel offers it; with review off every change is a version; the review names the fields a
 * change touched; counts agree in number (Intl.PluralRules).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { expectLtr, expectRtl, shot, startStudio, studioTab } from './studio-helpers';
import { addDays, at, dayKey, zone } from '../../assets-ui/studio/pages/guide-time';

let s: TestServer;
let browser: Browser;
beforeAll(async () => { ({ s, browser } = await startStudio({ workers: false })); }, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

const TZ = 'Asia/Jerusalem';
const iso = (ms: number) => new Date(ms).toISOString();
const todayJ = () => dayKey(Date.now(), TZ);
interface P { id: string; title: string; start_at: string; end_at: string; description: string | null }
type Size = 'desktop' | 'phone';

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await s.api(method, path, body);
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (r.status === 204 ? null : await r.json()) as T;
}
const add = (id: string, title: string, a: number, b: number) => json<P>('POST', `/v1/channels/${id}/programmes`, { title, start_at: iso(a), end_at: iso(b) });
const versions = async (id: string) => (await json<{ items: { version: number; kind: string; author: string | null }[] }>('GET', `/v1/channels/${id}/guide/versions`)).items;

/** A signed-in tab at 1280×800 or 390×844; `clock` fixes the page's time (the grid's "now"). */
async function tab(lang: 'en' | 'he', size: Size, path: string, clock?: number): Promise<Page> {
  const page = await studioTab(browser, s, { lang, phone: size === 'phone' });
  if (size === 'desktop') await page.setViewportSize({ width: 1280, height: 800 });
  if (clock !== undefined) await page.clock.setFixedTime(new Date(clock));
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${s.url}${path}`);
  await page.waitForSelector('#guide-grid .gday');
  if (size === 'phone') expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'he' ? 'rtl' : 'ltr');
  else if (lang === 'he') await expectRtl(page); else await expectLtr(page);
  return page;
}
type Box = { x: number; y: number; width: number; height: number };
/** The part of `a` inside `b`. */
const clip = (a: Box, b: Box): Box => {
  const x = Math.max(a.x, b.x), y = Math.max(a.y, b.y);
  return { x, y, width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x), height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y) };
};
const meet = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('a 5-minute programme beside the next one: visible, clickable, its ✕ off its title; the grid opens at now (1280×800 and 390×844)', async () => {
  for (const lang of ['en', 'he'] as const) {
    // A channel made without a time zone: the tenant's (Asia/Jerusalem).
    const ch = await json<{ id: string; slug: string; timezone: string }>('POST', '/v1/channels', { name: `Night ${lang}`, slug: `night-${lang}` });
    expect(ch.timezone).toBe(TZ);
    const day = todayJ();
    const short = await add(ch.id, lang === 'he' ? 'כותרות הלילה' : 'Late headlines', at(day, 23 * 60 + 20, TZ), at(day, 23 * 60 + 25, TZ));
    const next = await add(ch.id, lang === 'he' ? 'חדשות הלילה' : 'Night news', at(day, 23 * 60 + 25, TZ), at(day, 23 * 60 + 55, TZ));
    const now = at(day, 22 * 60 + 40, TZ);
    for (const size of ['desktop', 'phone'] as Size[]) {
      const page = await tab(lang, size, `/studio/guide?channel=night-${lang}`, now);
      try {
        const sb = page.locator(`#guide-grid [data-prog="${short.id}"]`), nb = page.locator(`#guide-grid [data-prog="${next.id}"]`);
        await sb.waitFor();
        // Opened at the current time (22:40), not at 07:00: the now line is inside the grid's visible part.
        const view = await page.evaluate(() => { const g = document.querySelector('.gscroll')!; return { top: g.scrollTop, h: g.clientHeight }; });
        expect([view.top <= 22 * 60 + 40, view.top + view.h >= 22 * 60 + 40]).toEqual([true, true]); // 1 px a minute
        expect(await page.locator('#guide-now').evaluate((e) => (e as HTMLElement).offsetTop)).toBe(22 * 60 + 40);
        await sb.scrollIntoViewIfNeeded();
        const a = (await sb.boundingBox())!, b = (await nb.boundingBox())!;
        // Both drawn, side by side: no overlap; the short one is a readable line.
        expect(meet(a, b)).toBe(false);
        expect(a.height).toBeGreaterThanOrEqual(18);
        expect(a.width).toBeGreaterThanOrEqual(40);
        expect(await sb.locator('.gmain').getAttribute('title')).toBe(`23:20–23:25 ${short.title}`);
        // The ✕ of each block is inside the block, beside its title, not on it.
        for (const blk of [sb, nb]) {
          const box = (await blk.boundingBox())!, del = (await blk.locator('.gdel').boundingBox())!;
          const title = clip((await blk.locator('strong').boundingBox())!, (await blk.locator('.gmain').boundingBox())!); // what the ellipsis shows
          expect(title.width).toBeGreaterThan(0);
          expect(meet(title, del)).toBe(false);
          expect([del.x >= box.x - 0.5, del.y >= box.y - 0.5, del.x + del.width <= box.x + box.width + 0.5, del.y + del.height <= box.y + box.height + 0.5]).toEqual([true, true, true, true]);
        }
        // What is under the middle of the short block's text is the short block itself: it takes the click.
        const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('[data-prog]')?.getAttribute('data-prog'), [a.x + a.width / 3, a.y + a.height / 2] as const);
        expect(hit).toBe(short.id);
        await shot(page, `guide-short-${lang}${size === 'phone' ? '-phone' : ''}`);
        await sb.locator('.gmain').click();
        await page.waitForSelector('#programme-editor[open]');
        expect(await page.inputValue('#edit-title')).toBe(short.title);
        await page.keyboard.press('Escape');
        await page.waitForSelector('#programme-editor', { state: 'detached' });
        if (size === 'phone') expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      } finally { await page.context().close(); }
    }
  }
}, 180_000);

test('times in the tenant\'s zone: an editor\'s 23:20 is 23:20 Asia/Jerusalem; a UTC channel offers the tenant\'s zone', async () => {
  for (const lang of ['en', 'he'] as const) {
    const ch = await json<{ id: string }>('POST', '/v1/channels', { name: `Zone ${lang}`, slug: `zone-${lang}` });
    const page = await tab(lang, 'desktop', `/studio/guide?channel=zone-${lang}`);
    try {
      expect(await page.textContent('#guide-zone')).toContain(TZ);
      expect(await page.locator('#guide-zone-other').count()).toBe(0);
      const day = addDays(todayJ(), 1);
      await page.fill('#prog-title', lang === 'he' ? 'מהדורת לילה' : 'Night edition');
      await page.fill('#prog-day', day);
      await page.fill('#prog-from', '23:20');
      await page.fill('#prog-to', '23:55');
      await page.click('#programme-form button[type=submit]');
      const p = await waitFor('the programme saved', async () => (await json<{ items: P[] }>('GET', `/v1/channels/${ch.id}/programmes?from=${iso(at(day, 0, TZ))}&to=${iso(at(day, 1440, TZ))}`)).items[0]);
      expect([p.start_at, p.end_at]).toEqual([iso(at(day, 23 * 60 + 20, TZ)), iso(at(day, 23 * 60 + 55, TZ))]);
      await page.waitForSelector(`#guide-grid [data-prog="${p.id}"] >> text=23:20–23:55`);
      expect(await page.textContent('#programme-form-zone')).toContain(TZ);
    } finally { await page.context().close(); }

    // A channel kept in UTC (made before the default changed, say): the page says so and can take the tenant's zone.
    const utc = await json<{ id: string }>('POST', '/v1/channels', { name: `UTC ${lang}`, slug: `utc-${lang}`, timezone: 'UTC' });
    const day = addDays(todayJ(), 1);
    const prog = await add(utc.id, 'Evening', Date.parse(`${day}T18:00:00Z`), Date.parse(`${day}T19:00:00Z`));
    for (const size of ['phone', 'desktop'] as Size[]) { // the phone only looks; the desktop takes the zone
      const page2 = await tab(lang, size, `/studio/guide?channel=utc-${lang}`);
      try {
        expect(await page2.textContent('#guide-zone')).toContain('UTC');
        expect(await page2.textContent('#guide-zone-other')).toContain(TZ);
        expect(await page2.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
        if (size === 'phone') { await shot(page2, `guide-zone-${lang}-phone`); continue; }
        await shot(page2, `guide-zone-${lang}`);
        await page2.click('#guide-zone-use');
        await waitFor('the channel zone changed', async () => (await json<{ timezone: string }>('GET', `/v1/channels/${utc.id}`)).timezone === TZ);
        await page2.waitForFunction((tz) => document.querySelector('#guide-zone')?.textContent?.includes(tz), TZ);
        expect(await page2.locator('#guide-zone-other').count()).toBe(0);
        const z = zone(TZ);
        await page2.waitForSelector(`#guide-grid [data-prog="${prog.id}"] >> text=${z.hhmm(Date.parse(prog.start_at))}–${z.hhmm(Date.parse(prog.end_at))}`);
      } finally { await page2.context().close(); }
    }
  }
}, 180_000);

test('review off: each change is a version; review on: the draft names what changed; counts agree in number', async () => {
  const W = {
    en: { edited: 'Edited', published: 'Published draft', desc: 'Description changed', title: 'Title:', one: '1 staged change waits for review.', two: '2 staged changes wait for review.', counts: '0 new, 1 changed, 0 removed', done: 'Published as version {v} (2 changes).' },
    he: { edited: 'עריכה', published: 'פרסום טיוטה', desc: 'התיאור שונה', title: 'שם:', one: 'שינוי אחד ממתין לבדיקה.', two: 'שני שינויים ממתינים לבדיקה.', counts: '0 חדשות, אחת שונתה, 0 הוסרו', done: 'פורסם כגרסה {v} (שני שינויים).' },
  };
  for (const lang of ['en', 'he'] as const) {
    const w = W[lang];
    const ch = await json<{ id: string }>('POST', '/v1/channels', { name: `Desk ${lang}`, slug: `desk-${lang}` });
    const day = addDays(todayJ(), 1);
    const late = await add(ch.id, lang === 'he' ? 'מהדורה מאוחרת' : 'Late edition', at(day, 23 * 60 + 25, TZ), at(day, 23 * 60 + 55, TZ));
    const page = await tab(lang, 'desktop', `/studio/guide?channel=desk-${lang}`);
    const editDescription = async (text: string) => {
      await page.locator(`#guide-grid [data-prog="${late.id}"] .gmain`).click();
      await page.waitForSelector('#programme-editor[open]');
      await page.fill('#edit-description', text);
      await page.click('#edit-save');
      await page.waitForSelector('#programme-editor', { state: 'detached' });
    };
    try {
      // Review off: the API's create is version 1; the description edit in the studio goes live as version 2.
      await page.waitForSelector('#guide-versions tr[data-version="1"]');
      await editDescription(lang === 'he' ? 'הכותרות של הלילה' : 'The night’s headlines');
      await page.waitForSelector('#guide-versions tr[data-version="2"]');
      expect(await page.textContent('#guide-versions tr[data-version="2"]')).toContain(w.edited);
      expect(await page.textContent('#guide-versions tr[data-version="2"]')).toContain('Dana Editor');
      expect((await versions(ch.id)).map((v) => [v.version, v.kind])).toEqual([[2, 'edit'], [1, 'edit']]);

      // Review on: a description-only change says so, with no "23:25–23:55 → 23:25–23:55".
      await page.check('#review-mode');
      await waitFor('review mode on', async () => (await json<{ review_mode: boolean }>('GET', `/v1/channels/${ch.id}/guide/settings`)).review_mode);
      await editDescription(lang === 'he' ? 'כותרות, מזג אוויר' : 'Headlines, weather');
      await page.waitForSelector('#guide-review [data-mark=changed]');
      const line = page.locator('#guide-review [data-mark=changed]');
      expect(await line.textContent()).toContain(w.desc);
      expect(await line.locator('[data-field]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')))).toEqual(['description']);
      expect(await line.textContent()).not.toMatch(/[→←]/);
      expect(await page.textContent('#draft-count')).toBe(w.one);
      expect(await page.textContent('#guide-review .row-between p')).toBe(w.counts);

      // A title change too: two staged changes (agreeing in number), the line names both fields.
      await page.locator(`#guide-grid [data-prog="${late.id}"] .gmain`).click();
      await page.waitForSelector('#programme-editor[open]');
      const renamed = lang === 'he' ? 'מהדורת חצות' : 'Midnight edition';
      await page.fill('#edit-title', renamed);
      await page.click('#edit-save');
      await page.waitForFunction((t) => document.querySelector('#draft-count')?.textContent === t, w.two);
      await page.waitForFunction(() => document.querySelectorAll('#guide-review [data-mark=changed] [data-field]').length === 2);
      expect(await line.locator('[data-field]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')))).toEqual(['title', 'description']);
      expect(await line.locator('[data-field=title]').textContent()).toContain(w.title);
      expect(await line.locator('[data-field=title] s').textContent()).toBe(late.title);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `guide-review-fields-${lang}`);

      // Publishing records the reviewed draft as the next version.
      await page.click('#guide-publish');
      await page.waitForSelector('#guide-review', { state: 'detached' });
      const vs = await versions(ch.id);
      expect(vs.map((v) => v.kind)).toEqual(['publish', 'edit', 'edit']);
      await page.waitForSelector(`#guide-versions tr[data-version="${vs[0].version}"]`);
      expect(await page.textContent(`#guide-versions tr[data-version="${vs[0].version}"]`)).toContain(w.published);
      expect(await page.textContent('#guide-live')).toBe(w.done.replace('{v}', String(vs[0].version)));
    } finally { await page.context().close(); }
  }
}, 180_000);
