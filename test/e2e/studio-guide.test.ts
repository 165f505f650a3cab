/**
 * Studio guide page, as a person uses it in Chromium, in English and in Hebrew: edit a programme, drag it to another
 * day and time, resize it, move it with the keyboard, see a refused move put back; import XMLTV (picked, dropped,
 * from a URL, a broken file); review mode with the draft against the published guide, publish, versions, rollback;
 * copy a day onto a range and shift a day. The API state is checked after each step.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor, type TestServer } from '../helpers/server';
import { expectLtr, expectRtl, shot, startStudio, studioTab } from './studio-helpers';
import { at } from '../../assets-ui/studio/pages/guide-time';

let s: TestServer;
let browser: Browser;
let dir: string;
beforeAll(async () => { ({ s, browser } = await startStudio({ workers: false })); dir = mkdtempSync(join(tmpdir(), 'vs-guide-')); }, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); rmSync(dir, { recursive: true, force: true }); }, 60_000);

const LANGS = ['en', 'he'] as const;
const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const dayAt = (n: number, hh: number, mm = 0) => Date.parse(`${today()}T00:00:00Z`) + n * DAY + (hh * 60 + mm) * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const key = (ms: number) => iso(ms).slice(0, 10);
interface P { id: string; title: string; start_at: string; end_at: string; series: string | null; source: string }

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await s.api(method, path, body);
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (r.status === 204 ? null : await r.json()) as T;
}
// These tests count days in UTC, so their channels say so (a channel made without a zone takes the tenant's).
const channel = (slug: string) => json<{ id: string }>('POST', '/v1/channels', { name: `Guide ${slug}`, slug, timezone: 'UTC' });
const add = (id: string, title: string, s0: number, e0: number) => json<P>('POST', `/v1/channels/${id}/programmes`, { title, start_at: iso(s0), end_at: iso(e0) });
const one = (id: string, pid: string) => json<P>('GET', `/v1/channels/${id}/programmes/${pid}`);
const list = async (id: string, from: number, to: number) => (await json<{ items: P[] }>('GET', `/v1/channels/${id}/programmes?from=${iso(from)}&to=${iso(to)}`)).items;

async function open(lang: 'en' | 'he', slug: string): Promise<Page> {
  const page = await studioTab(browser, s, { lang });
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${s.url}/studio/guide?channel=${slug}`);
  await page.waitForSelector('#guide-grid .gday');
  if (lang === 'he') await expectRtl(page); else await expectLtr(page);
  return page;
}

type Box = { x: number; y: number; width: number; height: number };
/** Presses at the middle of `from` (scrolled into view), moves in steps to `to(its box)` and lets go: a real pointer drag. */
async function drag(page: Page, from: Locator, to: (b: Box) => Promise<[number, number]> | [number, number], at: 'middle' | 'grip' = 'middle'): Promise<void> {
  await from.scrollIntoViewIfNeeded();
  const b = (await (at === 'grip' ? from.locator('.grip') : from).boundingBox())!;
  const x0 = b.x + b.width / 2, y0 = b.y + b.height / 2;
  const [x, y] = await to(b);
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x0 + (x - x0) / 3, y0 + (y - y0) / 3, { steps: 4 });
  await page.mouse.move(x, y, { steps: 6 });
  await page.mouse.up();
  return undefined;
}
const column = (page: Page, day: string) => page.locator(`#guide-grid .gday[data-day="${day}"]`);
const block = (page: Page, pid: string) => page.locator(`#guide-grid [data-prog="${pid}"]`).first();

test('edit a programme, drag it to another day and time, resize it, move it by keyboard; a refused move is put back', async () => {
  for (const lang of LANGS) {
    const { id } = await channel(`edit-${lang}`);
    const morning = await add(id, lang === 'he' ? 'תוכנית בוקר' : 'Morning show', dayAt(1, 8), dayAt(1, 9));
    await add(id, lang === 'he' ? 'חידון' : 'Quiz', dayAt(1, 10), dayAt(1, 10, 30));
    const page = await open(lang, `edit-${lang}`);
    try {
      await block(page, morning.id).waitFor();
      // Days mirror in Hebrew; time still runs down the page in both.
      const d0 = (await column(page, key(dayAt(0, 0))).boundingBox())!, d1 = (await column(page, key(dayAt(1, 0))).boundingBox())!;
      expect(lang === 'he' ? d1.x < d0.x : d1.x > d0.x).toBe(true);
      const quiz = page.locator(`#guide-grid .gday[data-day="${key(dayAt(1, 0))}"] .prog`, { hasText: lang === 'he' ? 'חידון' : 'Quiz' });
      expect((await quiz.boundingBox())!.y).toBeGreaterThan((await block(page, morning.id).boundingBox())!.y);

      // Click → editor: title, series, end; saved through PATCH.
      await block(page, morning.id).locator('.gmain').click();
      await page.waitForSelector('#programme-editor[open]');
      const title = lang === 'he' ? 'תוכנית בוקר בשידור חי' : 'Morning show live';
      await page.fill('#edit-title', title);
      await page.fill('#edit-series', lang === 'he' ? 'בקרים' : 'Mornings');
      await page.fill('#edit-end', `${key(dayAt(1, 0))}T09:30`);
      await page.click('#edit-save');
      await page.waitForSelector('#programme-editor', { state: 'detached' });
      let p = await one(id, morning.id);
      expect([p.title, p.series, p.end_at]).toEqual([title, lang === 'he' ? 'בקרים' : 'Mornings', iso(dayAt(1, 9, 30))]);

      // A 422 from the editor is shown in words, the form keeps what was typed.
      await block(page, morning.id).locator('.gmain').click();
      await page.fill('#edit-end', `${key(dayAt(1, 0))}T07:00`);
      await page.click('#edit-save');
      await page.waitForSelector('#programme-editor [role=alert]');
      expect(await page.textContent('#programme-editor [role=alert]')).toContain('end_at');
      expect(await page.inputValue('#edit-end')).toBe(`${key(dayAt(1, 0))}T07:00`);
      await page.click('#programme-editor button:not([type=submit]):not(.danger)');
      await page.waitForSelector('#programme-editor', { state: 'detached' });

      // Drag one column on (to day 2) and 62 px down (62 minutes → snapped to 09:00).
      await drag(page, block(page, morning.id), async (b) => {
        const target = (await column(page, key(dayAt(2, 0))).boundingBox())!;
        return [target.x + target.width / 2, b.y + b.height / 2 + 62];
      });
      await waitFor('the drag saved', async () => (await one(id, morning.id)).start_at === iso(dayAt(2, 9)));
      expect((await one(id, morning.id)).end_at).toBe(iso(dayAt(2, 10, 30)));
      await page.waitForFunction(() => /09:00–10:30/.test(document.querySelector('#guide-live')?.textContent ?? ''));

      // Resize: the lower edge dragged 31 px up → ends 30 minutes earlier.
      const moved = page.locator(`#guide-grid .gday[data-day="${key(dayAt(2, 0))}"] [data-prog="${morning.id}"]`);
      await moved.waitFor();
      await drag(page, moved, (g) => [g.x + g.width / 2, g.y + g.height / 2 - 31], 'grip');
      await waitFor('the resize saved', async () => (await one(id, morning.id)).end_at === iso(dayAt(2, 10)));

      // Keyboard: ↓ ↓ moves 10 minutes; → (← in Hebrew) moves to the next day; focus stays on it; ↓ again.
      await moved.locator('.gmain').focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await waitFor('two arrow presses saved', async () => (await one(id, morning.id)).start_at === iso(dayAt(2, 9, 10)));
      await page.waitForFunction(() => /09:10–10:10/.test(document.querySelector('#guide-live')?.textContent ?? ''));
      // As below: the redrawn block must hold the focus again before the next key (else it reaches the old one).
      await page.waitForFunction(([d, pid]) => !!document.activeElement?.closest(`#guide-grid .gday[data-day="${d}"] [data-prog="${pid}"]`), [key(dayAt(2, 0)), morning.id] as const);
      await page.keyboard.press(lang === 'he' ? 'ArrowLeft' : 'ArrowRight');
      await waitFor('next day saved', async () => (await one(id, morning.id)).start_at === iso(dayAt(3, 9, 10)));
      // The grid redraws the block in its new day after the save: the next key goes to it once it has the focus there
      // (pressed earlier, under load, it reached the block being replaced and was lost).
      await page.waitForFunction(([d, pid]) => !!document.activeElement?.closest(`#guide-grid .gday[data-day="${d}"] [data-prog="${pid}"]`), [key(dayAt(3, 0)), morning.id] as const);
      await page.keyboard.press('Shift+ArrowDown');
      await waitFor('end moved by keyboard', async () => (await one(id, morning.id)).end_at === iso(dayAt(3, 10, 15)));
      p = await one(id, morning.id);
      expect(p.start_at).toBe(iso(dayAt(3, 9, 10)));

      // Escape during a drag puts the programme back; nothing is sent.
      const esc = block(page, morning.id);
      await esc.scrollIntoViewIfNeeded();
      const eb = (await esc.boundingBox())!;
      await page.mouse.move(eb.x + eb.width / 2, eb.y + eb.height / 2);
      await page.mouse.down();
      await page.mouse.move(eb.x + eb.width / 2, eb.y + eb.height / 2 + 90, { steps: 5 });
      await page.waitForSelector('#guide-grid .prog.ghost');
      await page.keyboard.press('Escape');
      await page.mouse.up();
      await page.waitForSelector('#guide-grid .prog.ghost', { state: 'detached' });
      expect((await one(id, morning.id)).start_at).toBe(iso(dayAt(3, 9, 10)));
      await page.waitForSelector('#programme-editor', { state: 'detached', timeout: 1000 });

      // Locked hours: the drag is refused (409) in words and the block goes back.
      await json('PUT', `/v1/channels/${id}/guide/settings`, { lock_hours: 168 });
      await page.reload();
      const locked = block(page, morning.id);
      await locked.waitFor();
      const top = await locked.evaluate((e) => (e as HTMLElement).style.insetBlockStart);
      await drag(page, locked, (lb) => [lb.x + lb.width / 2, lb.y + lb.height / 2 + 120]);
      await page.waitForSelector('main > [role=alert]');
      expect(await page.textContent('main > [role=alert]')).toContain('locked hours');
      await page.waitForFunction(([pid, t]) => (document.querySelector(`[data-prog="${pid}"]`) as HTMLElement | null)?.style.insetBlockStart === t, [morning.id, top] as const);
      expect((await one(id, morning.id)).start_at).toBe(iso(dayAt(3, 9, 10)));
      expect(await page.textContent('#guide-live')).toContain(lang === 'he' ? 'הוחזרה למקומה' : 'was put back');
      await json('PUT', `/v1/channels/${id}/guide/settings`, { lock_hours: 0 });
      // An overlap is said in words: the newer change wins and the older programme is trimmed.
      const other = await add(id, lang === 'he' ? 'ספורט' : 'Sport', dayAt(3, 10, 15), dayAt(3, 11));
      await page.reload();
      await block(page, other.id).waitFor();
      await block(page, morning.id).locator('.gmain').focus();
      await page.keyboard.press('ArrowDown');
      await waitFor('the overlapped programme trimmed', async () => (await one(id, other.id)).start_at === iso(dayAt(3, 10, 20)));
      await page.waitForFunction((t) => (document.querySelector('#guide-live')?.textContent ?? '').includes(t), `“${other.title}”`);
      expect(await page.textContent('#guide-live')).toContain(lang === 'he' ? 'חפפה' : 'overlapped');
      await shot(page, `guide-edit-${lang}`);
    } finally { await page.context().close(); }
  }
}, 180_000);

/** An XMLTV document for one channel on a day: an overlap (B and C) and a last programme without a stop. */
function xmltv(ch: string, day: number): string {
  const t = (ms: number) => `${iso(ms).replace(/[-:T]/g, '').slice(0, 14)} +0000`;
  const prog = (title: string, a: number, b?: number) => `  <programme start="${t(a)}"${b ? ` stop="${t(b)}"` : ''} channel="${ch}"><title lang="en">${title}</title><desc>About ${title}</desc></programme>`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<tv generator-info-name="studio-guide test">', `  <channel id="${ch}"><display-name>${ch}</display-name></channel>`,
    prog('Early news', dayAt(day, 6), dayAt(day, 7)), prog('Breakfast', dayAt(day, 7), dayAt(day, 8)), prog('Weather', dayAt(day, 7, 30), dayAt(day, 8, 30)),
    prog('Magazine', dayAt(day, 9)), prog('Open end', dayAt(day, 10)), '</tv>', ''].join('\n');
}

test('import XMLTV: a picked file, a dropped file, an EPG URL and a broken file; counts and reasons in words', async () => {
  const epg = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(xmltv('url-ch', 5), { headers: { 'content-type': 'application/xml' } }) });
  try {
    for (const lang of LANGS) {
      const { id } = await channel(`import-${lang}`);
      await add(id, 'Old breakfast', dayAt(3, 7, 15), dayAt(3, 7, 45));
      const file = join(dir, `epg-${lang}.xml`);
      writeFileSync(file, xmltv('tv-one', 3));
      const page = await open(lang, `import-${lang}`);
      try {
        await page.setInputFiles('#xmltv-file', file);
        await page.waitForSelector('#xmltv-result');
        const text = await page.textContent('#xmltv-result');
        expect(text).toContain(lang === 'he' ? 'תוכניות שיובאו: 4' : 'Programmes imported: 4');
        expect(text).toContain('tv-one');
        expect(text).toContain(lang === 'he' ? '(ההתחלה המאוחרת גוברת): 1' : '(a later start wins): 1');
        expect(text).toContain(lang === 'he' ? 'תוכניות שפורסמו בזמן הזה ומוחלפות: 1' : 'Published programmes in that time that it replaces: 1');
        expect(text).toContain(lang === 'he' ? 'תוכניות מהקובץ שלא נכללו: 1' : 'Programmes of the file left out: 1');
        expect(text).toContain('Open end');
        expect(text).toContain(lang === 'he' ? 'אין שעת סיום' : 'no end time');
        const day3 = await list(id, dayAt(3, 0), dayAt(4, 0));
        expect(day3.map((p) => p.title)).toEqual(['Early news', 'Breakfast', 'Weather', 'Magazine']);
        expect(day3.every((p) => p.source === 'xmltv')).toBe(true);
        expect(day3.find((p) => p.title === 'Breakfast')!.end_at).toBe(iso(dayAt(3, 7, 30)));
        await page.waitForSelector('#guide-grid .prog >> text=Magazine');
        await page.locator('#xmltv-result').scrollIntoViewIfNeeded();
        await shot(page, `guide-import-${lang}`);

        // Dropped onto the drop zone (a File built in the page, as the browser makes one for a dropped file).
        await page.evaluate((xml) => {
          const dt = new DataTransfer();
          dt.items.add(new File([xml], 'dropped.xml', { type: 'application/xml' }));
          document.querySelector('#xmltv-drop')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        }, xmltv('tv-two', 4));
        await page.waitForFunction(() => document.querySelector('#xmltv-result')?.textContent?.includes('tv-two'));
        expect((await list(id, dayAt(4, 0), dayAt(5, 0))).length).toBe(4);

        // From an EPG source address.
        await page.fill('#xmltv-url', `http://127.0.0.1:${epg.port}/epg.xml`);
        await page.click('#xmltv-url-form button[type=submit]');
        await page.waitForFunction(() => document.querySelector('#xmltv-result')?.textContent?.includes('url-ch'));
        expect((await list(id, dayAt(5, 0), dayAt(6, 0))).map((p) => p.title)).toContain('Magazine');

        // A broken document: refused in words (422), nothing changed.
        writeFileSync(file, '<tv><programme channel="x" start="garbage"><title>Broken</title></programme></tv>');
        await page.setInputFiles('#xmltv-file', file);
        await page.waitForSelector('.gimport [role=alert]');
        expect(await page.textContent('.gimport [role=alert]')).toContain('unreadable start');
        expect((await list(id, dayAt(3, 0), dayAt(4, 0))).length).toBe(4);
      } finally { await page.context().close(); }
    }
  } finally { epg.stop(true); }
}, 180_000);

test('review mode: the draft against the published guide, publish, versions, roll back', async () => {
  for (const lang of LANGS) {
    const { id } = await channel(`review-${lang}`);
    const keep = await add(id, lang === 'he' ? 'חדשות' : 'News', dayAt(2, 18), dayAt(2, 19));
    const gone = await add(id, lang === 'he' ? 'סרט' : 'Film', dayAt(2, 20), dayAt(2, 22));
    const page = await open(lang, `review-${lang}`);
    try {
      await page.check('#review-mode');
      await waitFor('review mode on', async () => (await json<{ review_mode: boolean }>('GET', `/v1/channels/${id}/guide/settings`)).review_mode);
      // Three staged changes: a new programme (form), a move (drag), a removal (✕).
      const added = lang === 'he' ? 'ראיון' : 'Interview';
      await page.fill('#prog-title', added);
      await page.fill('#prog-day', key(dayAt(2, 0)));
      await page.fill('#prog-from', '17:00');
      await page.fill('#prog-to', '17:30');
      await page.click('#programme-form button[type=submit]');
      await page.waitForSelector('#guide-review');
      await drag(page, block(page, keep.id), (kb) => [kb.x + kb.width / 2, kb.y + kb.height / 2 + 30]);
      await page.waitForSelector('#guide-review [data-mark=changed]');
      await block(page, gone.id).locator('.gdel').click();
      await page.waitForSelector('#guide-review [data-mark=removed]');
      expect((await json<{ items: unknown[] }>('GET', `/v1/channels/${id}/guide/draft`)).items.length).toBe(3);
      expect(await page.locator('#guide-review [data-mark]').count()).toBe(3);
      expect(await page.textContent('#guide-review [data-mark=added]')).toContain(added);
      expect(await page.textContent('#guide-review [data-mark=changed]')).toContain('18:30–19:30');
      await page.waitForSelector('#guide-grid .prog.m-removed');
      await page.evaluate(() => window.scrollTo(0, 0));
      // The published guide is untouched until publishing.
      expect((await list(id, dayAt(2, 0), dayAt(3, 0))).map((p) => p.start_at)).toEqual([iso(dayAt(2, 18)), iso(dayAt(2, 20))]);
      await shot(page, `guide-review-${lang}`);

      await page.click('#guide-publish');
      await page.waitForSelector('#guide-review', { state: 'detached' });
      let day = await list(id, dayAt(2, 0), dayAt(3, 0));
      expect(day.map((p) => [p.title, p.start_at])).toEqual([[added, iso(dayAt(2, 17))], [keep.title, iso(dayAt(2, 18, 30))]]);
      // Versions 1 and 2 are the two programmes the API added before review mode (each went live as an edit).
      await page.waitForSelector('#guide-versions tr[data-version="3"]');

      // A second publish (remove the interview), then roll back to version 3.
      await block(page, day[0].id).locator('.gdel').click();
      await page.waitForSelector('#guide-review [data-mark=removed]');
      await page.click('#guide-publish');
      await page.waitForSelector('#guide-versions tr[data-version="4"]');
      expect((await list(id, dayAt(2, 0), dayAt(3, 0))).length).toBe(1);
      await page.click('#guide-versions tr[data-version="3"] button');
      await page.waitForSelector('#guide-versions tr[data-version="5"]');
      const versions = (await json<{ items: { version: number; kind: string; author: string }[] }>('GET', `/v1/channels/${id}/guide/versions`)).items;
      expect(versions.map((v) => v.kind)).toEqual(['rollback:3', 'publish', 'publish', 'edit', 'edit']);
      day = await list(id, dayAt(2, 0), dayAt(3, 0));
      expect(day.map((p) => p.title)).toEqual([added, keep.title]);
      expect(await page.textContent('#guide-versions')).toContain(lang === 'he' ? 'חזרה לגרסה 3' : 'Rolled back to version 3');
      expect(await page.textContent('#guide-versions tr[data-version="5"]')).toContain('Dana Editor');
      expect(versions.map((v) => v.author.replace(/^API key .*/, 'API key'))).toEqual(['Dana Editor', 'Dana Editor', 'Dana Editor', 'API key', 'API key']);
      await page.locator('#guide-versions').scrollIntoViewIfNeeded();
      await shot(page, `guide-versions-${lang}`);
    } finally { await page.context().close(); }
  }
}, 180_000);

test('copy a day onto a range of days and shift a day by minutes', async () => {
  for (const lang of LANGS) {
    const { id } = await channel(`days-${lang}`);
    await add(id, 'Talk', dayAt(1, 12), dayAt(1, 13));
    await add(id, 'Late', dayAt(1, 23), dayAt(1, 23, 45));
    const page = await open(lang, `days-${lang}`);
    try {
      await page.fill('#copy-from', key(dayAt(1, 0)));
      await page.fill('#copy-to', key(dayAt(3, 0)));
      await page.fill('#copy-through', key(dayAt(4, 0)));
      await page.click('#copy-form button[type=submit]');
      await page.waitForFunction(() => /2/.test(document.querySelector('#guide-live')?.textContent ?? ''));
      for (const d of [3, 4]) {
        expect((await list(id, dayAt(d, 0), dayAt(d + 1, 0))).map((p) => [p.title, p.start_at, p.source])).toEqual([['Talk', iso(dayAt(d, 12)), 'copy'], ['Late', iso(dayAt(d, 23)), 'copy']]);
      }
      await page.fill('#shift-day', key(dayAt(3, 0)));
      await page.fill('#shift-minutes', '-45');
      await page.click('#shift-form button[type=submit]');
      await waitFor('day shifted', async () => (await list(id, dayAt(3, 0), dayAt(4, 0)))[0]?.start_at === iso(dayAt(3, 11, 15)));
      expect((await list(id, dayAt(3, 0), dayAt(4, 0))).map((p) => p.start_at)).toEqual([iso(dayAt(3, 11, 15)), iso(dayAt(3, 22, 15))]);
      await page.waitForSelector(`#guide-grid .gday[data-day="${key(dayAt(4, 0))}"] .prog >> text=Late`);
      await shot(page, `guide-days-${lang}`);
      // Next week and back to today: the grid follows, the half-filled shift form stays.
      await add(id, 'Next week', dayAt(9, 12), dayAt(9, 13));
      await page.fill('#shift-minutes', '15');
      await page.click(`button[aria-label="${lang === 'he' ? 'השבוע הבא' : 'Next week'}"]`);
      await page.waitForSelector(`#guide-grid .gday[data-day="${key(dayAt(9, 0))}"] .prog >> text=Next week`);
      expect(await page.inputValue('#shift-minutes')).toBe('15');
      await page.click(`.page-head .seg button:nth-child(2)`);
      await page.waitForSelector(`#guide-grid .gday[data-day="${today()}"]`);
    } finally { await page.context().close(); }
  }
}, 180_000);

test('phone width: the week grid scrolls inside itself, the page does not overflow; a block still opens its editor', async () => {
  for (const lang of LANGS) {
    const { id } = await channel(`phone-${lang}`);
    const prog = await add(id, lang === 'he' ? 'מבזק' : 'Flash', dayAt(0, 9), dayAt(0, 9, 30));
    const page = await studioTab(browser, s, { lang, phone: true });
    try {
      await page.goto(`${s.url}/studio/guide?channel=phone-${lang}`);
      await block(page, prog.id).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      expect(await page.evaluate(() => { const g = document.querySelector('.gweek')!; return g.scrollWidth > g.clientWidth; })).toBe(true);
      await block(page, prog.id).locator('.gmain').click();
      await page.waitForSelector('#programme-editor[open]');
      expect(await page.inputValue('#edit-title')).toBe(prog.title);
      await page.keyboard.press('Escape');
      await page.waitForSelector('#programme-editor', { state: 'detached' });
      await shot(page, `guide-phone-${lang}`);
    } finally { await page.context().close(); }
  }
}, 120_000);

test('the grid reads the channel\'s time zone (Asia/Jerusalem), whatever the browser\'s: a drag lands on the zone\'s wall clock', async () => {
  const { id } = await json<{ id: string }>('POST', '/v1/channels', { name: 'Guide Jerusalem', slug: 'guide-jlm', timezone: 'Asia/Jerusalem' });
  const day = key(dayAt(1, 12));
  const prog = await add(id, 'Evening', at(day, 20 * 60, 'Asia/Jerusalem'), at(day, 21 * 60, 'Asia/Jerusalem'));
  const page = await open('en', 'guide-jlm');
  try {
    const b = page.locator(`#guide-grid .gday[data-day="${day}"] [data-prog="${prog.id}"]`);
    await b.waitFor();
    expect(await b.locator('time').textContent()).toBe('20:00–21:00');
    expect(await page.textContent('.gbar')).toContain('Asia/Jerusalem');
    await drag(page, b, (x) => [x.x + x.width / 2, x.y + x.height / 2 + 45]);
    await waitFor('the drag saved', async () => (await one(id, prog.id)).start_at === iso(at(day, 20 * 60 + 45, 'Asia/Jerusalem')));
  } finally { await page.context().close(); }
}, 90_000);
