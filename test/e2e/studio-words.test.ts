/**
 * The studio in words (issue 42 items 9 and 10): sign-in reasons and "forgot password" in the studio's language, the
 * invitation page (styled, with a language switch, closed once used), the team page (role change, password reset
 * and removal, each on the audit log in words), the events inbox (titles, not ids), and the text audit: every studio
 * page in Hebrew shows text from the Hebrew catalogue (no Latin-only words except names, codes and units) and dates
 * in the Hebrew format. Real server, real Chromium.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { addReadyAsset } from '../helpers/ready-asset';
import { defaultTenant } from './transcode-helpers';
import { OWNER, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
let tenant: string;
let assetId = '';
let channelId = '';
const json = async (method: string, path: string, body?: unknown) => { const r = await s.api(method, path, body); expect(r.status).toBeLessThan(300); return r.status === 204 ? null : r.json() as Promise<any>; };
const HEB = /[\u0590-\u05FF]/;

beforeAll(async () => {
  ({ s, browser } = await startStudio());
  tenant = defaultTenant(s.ctx);
  assetId = addReadyAsset(s, tenant, new Uint8Array(16));
  await json('PATCH', `/v1/assets/${assetId}`, { title: 'חדשות הבוקר', publish: true });
  channelId = (await json('POST', '/v1/channels', { name: 'ערוץ 9', slug: 'ch9' })).id;
}, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

/** A tab that is not signed in, in a language. */
async function bare(lang: 'en' | 'he', phone = false): Promise<Page> {
  return studioTab(browser, s, { lang, phone, signIn: false });
}

for (const lang of ['en', 'he'] as const) {
  test(`sign-in (${lang}): a wrong password in the studio's language; "forgot password" asks for a reset link`, async () => {
    const page = await bare(lang);
    try {
      await page.goto(`${s.url}/studio/sign-in`);
      await page.fill('#email', OWNER.email);
      await page.fill('#password', 'not the password at all');
      await page.click('#signin');
      await page.waitForSelector('.problem[role=alert]');
      const words = (await page.textContent('.problem'))!;
      // Before: "That did not work: wrong e-mail address or password" (the API's English) in both languages.
      expect(words).toContain(lang === 'he' ? 'כתובת הדואר או הסיסמה שגויות.' : 'Wrong e-mail address or password.');
      if (lang === 'he') expect(/[A-Za-z]/.test(words)).toBe(false);
      expect(await page.inputValue('#email')).toBe(OWNER.email);
      // Forgot password: the link, the form, the same answer for any address.
      await page.click('#forgot');
      await page.waitForSelector('#forgot-form');
      expect(await page.inputValue('#forgot-email')).toBe(OWNER.email);
      await page.click('#forgot-send');
      await page.waitForSelector('#forgot-sent');
      expect(await page.textContent('#forgot-sent')).toContain(lang === 'he' ? 'בתוקף שעה אחת' : 'valid for one hour');
      const n = s.ctx.db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM password_resets').get()!.n;
      expect(n).toBeGreaterThan(0);
      await shot(page, `signin-forgot-${lang}`);
      await page.click('#forgot-back');
      await page.waitForSelector('#signin');
    } finally { await page.context().close(); }
  }, 60_000);
}

test('invitation page (he, phone): styled like the studio, a language switch, reasons in Hebrew, closed once the link is used', async () => {
  const inv = await json('POST', '/v1/team/invitations', { email: 'noa@example.com', role: 'editor' });
  const link = inv.accept_url as string;
  const page = await bare('he', true);
  try {
    await page.goto(link);
    await page.waitForSelector('#form');
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['he', 'rtl']);
    // Styled: the studio's background and a card (before: the browser's default white page, unstyled inputs).
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(246, 247, 249)');
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('card')!).backgroundColor)).toBe('rgb(255, 255, 255)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await page.waitForFunction(() => (document.getElementById('email') as HTMLInputElement).value === 'noa@example.com');
    expect(await page.textContent('#lead')).toContain('Default');
    // Reasons in Hebrew.
    await page.fill('#name', 'נועה');
    await page.fill('#password', 'short');
    await page.click('#go');
    await page.waitForSelector('#out:not(:empty)');
    expect(await page.textContent('#out')).toBe('הפעולה לא הצליחה: הסיסמה קצרה מדי: לפחות 10 תווים.');
    await shot(page, 'invite-he-phone');
    // The switch shows the same page in English.
    expect((await page.textContent('#lang-switch'))?.trim()).toBe('English');
    await page.click('#lang-switch');
    await page.waitForSelector('html[lang=en]');
    expect(await page.textContent('h1')).toBe('Join the team');
    await page.click('#lang-switch');
    await page.waitForSelector('html[lang=he]');
    await page.fill('#name', 'נועה');
    await page.fill('#password', 'newsroom passphrase 42');
    await page.click('#go');
    await page.waitForSelector('#done');
    // The used link: no form any more, a sentence that says why, and the way to sign in.
    await page.goto(link);
    await page.waitForSelector('#closed');
    expect(await page.textContent('#closed')).toBe('הקישור הזה כבר נוצל.');
    expect(await page.locator('#form').count()).toBe(0);
    await shot(page, 'invite-used-he-phone');
  } finally { await page.context().close(); }
}, 60_000);

test('team (he): role change, password reset and removal — each said in words on the audit log', async () => {
  const inv = await json('POST', '/v1/team/invitations', { email: 'avi@example.com', role: 'editor' });
  const token = new URL(inv.accept_url).searchParams.get('token');
  expect((await s.api('POST', '/v1/invitations/accept', { token, name: 'אבי כהן', password: 'avi newsroom passphrase' }, { key: null })).status).toBeLessThan(300);
  const page = await studioTab(browser, s, { lang: 'he' });
  try {
    await page.goto(`${s.url}/studio/team`);
    const row = page.locator('#members tbody tr[data-email="avi@example.com"]');
    await row.waitFor();
    await row.locator('select').selectOption('publisher');
    await page.waitForSelector('#member-note');
    expect(await page.textContent('#member-note')).toBe('התפקיד של אבי כהן הוא עכשיו מפרסם.');
    await row.locator('.m-reset').click();
    await page.waitForSelector('#member-note .copy');
    const resetUrl = (await page.textContent('#member-note .copy-value'))!;
    expect(resetUrl).toStartWith(`${s.url}/studio/reset?token=`);
    await shot(page, 'team-reset-he');
    page.once('dialog', (d) => void d.accept());
    await row.locator('.m-remove').click();
    await waitFor('member removed', async () => (await row.count()) === 0, 15_000, 100);
    await page.locator('section:has(#audit) .row-between button').click();
    await waitFor('audit lines', async () => (await page.locator('#audit td.au-text').allTextContents()).some((x) => x.includes('הוסר')), 15_000, 200);
    const lines = await page.locator('#audit td.au-text').allTextContents();
    // Before: `member.role_changed` with no name and no roles.
    expect(lines).toContain('התפקיד של אבי כהן שונה מעורך למפרסם');
    expect(lines).toContain('נשלח איפוס סיסמה אל avi@example.com');
    expect(lines).toContain('אבי כהן הוסר מהצוות');
    expect(lines).toContain('אבי כהן הצטרף לצוות בתפקיד עורך');
    await shot(page, 'team-audit-people-he');
    // The reset link sets a new password.
    const t2 = new URL(resetUrl).searchParams.get('token');
    expect((await s.api('POST', '/v1/password-reset/confirm', { token: t2, password: 'a fresh avi passphrase' }, { key: null })).status).toBe(204);
  } finally { await page.context().close(); }
}, 60_000);

test('audit (API and he): a guide publish and a channel stop are recorded, with the channel\'s name, and read in words', async () => {
  const pub = await json('POST', `/v1/channels/${channelId}/guide/publish`);
  await json('POST', `/v1/channels/${channelId}/stop`);
  const items = (await json('GET', '/v1/audit?limit=50')).items as { action: string; target: string; details: Record<string, unknown> }[];
  // Before: neither was recorded.
  expect(items.find((e) => e.action === 'guide.published')).toMatchObject({ target: channelId, details: { name: 'ערוץ 9', version: pub.version } });
  expect(items.find((e) => e.action === 'channel.stopped')).toMatchObject({ target: channelId, details: { name: 'ערוץ 9' } });
  const page = await studioTab(browser, s, { lang: 'he' });
  try {
    await page.goto(`${s.url}/studio/team`);
    await page.waitForSelector('#audit td.au-text');
    const lines = await page.locator('#audit td.au-text').allTextContents();
    expect(lines).toContain(`לוח השידורים של ערוץ 9 פורסם (גרסה ${pub.version})`);
    expect(lines).toContain('הערוץ ערוץ 9 נעצר');
  } finally { await page.context().close(); }
}, 60_000);

test('inbox (he): event lines name the video by its title, the type in words', async () => {
  const page = await studioTab(browser, s, { lang: 'he' });
  try {
    await page.goto(`${s.url}/studio/integrations`);
    const line = page.locator(`#inbox li[data-type="asset.published"]`).first();
    await line.waitFor();
    await waitFor('title in the inbox line', async () => (await line.textContent())!.includes('חדשות הבוקר'), 15_000, 100);
    const text = (await line.textContent())!;
    // Before: "asset.published  asset: 3f0c…  external_id: …".
    expect(text).toContain('הסרטון פורסם');
    expect(text).toContain('סרטון: חדשות הבוקר');
    expect(text).not.toContain(assetId);
    expect(await page.locator('#inbox-type option', { hasText: 'הסרטון מוכן' }).count()).toBe(1);
    await line.scrollIntoViewIfNeeded();
    await shot(page, 'inbox-he');
  } finally { await page.context().close(); }
}, 60_000);

/** Studio pages the audit visits (path, a selector that says it has drawn). */
const PAGES = (): [string, string][] => [
  ['/', 'main h1'], ['/library', 'main h1'], [`/library/${assetId}`, '#share-panel'], ['/live', 'main h1'], [`/live/${channelId}`, 'main h1'],
  ['/guide', 'main h1'], ['/clips', 'main h1'], ['/delivery', 'main h1'], ['/integrations', '#inbox'], ['/team', '#audit'],
];

/**
 * Visible text nodes with Latin letters and no Hebrew one, less what may be Latin: names and data (titles, e-mails,
 * organisation and person names the test created), codes (inside <code>, ids, addresses, codecs), units and the
 * language switch's own "English".
 */
async function latinOnly(page: Page, allowed: string[]): Promise<string[]> {
  return page.evaluate((allow) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const units = /^(?:[\d.,:\s%×x\-–+/]*\s*(?:kb\/s|Mb\/s|kbps|fps|p|s|ms|MB|GB|KB|px|Hz|dB|LUFS)?\s*)+$/;
    const code = /^(?:[0-9a-f]{8}-[0-9a-f-]{27}|https?:\/\/\S+|[\w.-]+@[\w.-]+|\d+x\d+|avc1[\w.,]*|mp4a[\w.,]*|ffmpeg|SRT|RTMP|HLS|DASH|API|ID|IP|URL|JSON|CSV|SMTP|UTC|[A-Z]{2,5}|v\d+(\.\d+)*|\.[a-z0-9]{2,5})$/;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').trim();
      if (!text || !/[A-Za-z]/.test(text) || /[\u0590-\u05FF]/.test(text)) continue;
      const el = n.parentElement!;
      if (!el.checkVisibility?.() || el.closest('code, pre, script, style, [dir=ltr] code, .vs-box, #lang-switch, .copy-value, option[value=""]')) continue;
      if (units.test(text) || code.test(text) || allow.some((a) => text === a || text.includes(a))) continue;
      out.push(text);
    }
    return out;
  }, allowed);
}

/** Texts that look like dates or times in a format other than the UI language's (US month-first, AM/PM, ISO). */
async function foreignDates(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = (n.textContent ?? '').trim();
      if (!t || !n.parentElement?.checkVisibility?.() || n.parentElement.closest('code, pre, .vs-box')) continue;
      // Hebrew dates read 28.11.2026 (short) or 28 בנוב׳ 2026 (medium); slashes, AM/PM and ISO stamps are other formats.
      if (/\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/.test(t) || /\b(AM|PM)\b/.test(t) || /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(t) || /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/.test(t)) out.push(t);
    }
    for (const i of Array.from(document.querySelectorAll('input[type=datetime-local], input[type=date], input[type=time]'))) if ((i as HTMLElement).checkVisibility()) out.push(`<input type=${(i as HTMLInputElement).type} id=${i.id}> (shown in the browser's own date format)`);
    return out;
  });
}

test('text audit (he): every studio page shows Hebrew catalogue text (names, codes and units aside) and Hebrew dates — also in an en-US browser', async () => {
  // A browser set to US English with the studio in Hebrew: the case where US dates (11/28/2026 11:20 PM) crept in.
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', extraHTTPHeaders: { 'accept-language': 'he' } });
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  const allowed = ['חדשות הבוקר', 'ערוץ 9', OWNER.name, OWNER.email, 'Default', 'default', 'ViewStream', 'English', 'ch9', 'noa@example.com', 'avi@example.com', 'אבי כהן', 'נועה', 'first owner key'];
  const problems: Record<string, string[]> = {};
  try {
    await page.goto(`${s.url}/studio/sign-in`);
    await page.evaluate(() => localStorage.setItem('vs_lang', 'he'));
    await page.reload();
    await page.waitForSelector('#signin');
    const signIn = [...await latinOnly(page, allowed), ...await foreignDates(page)];
    if (signIn.length) problems['/sign-in'] = signIn;
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await page.click('#signin');
    await page.waitForSelector('nav.side');
    for (const [path, ready] of PAGES()) {
      await page.goto(`${s.url}/studio${path === '/' ? '/' : path}`);
      await page.waitForSelector(ready);
      await page.waitForFunction(() => !document.querySelector('.state.loading'), undefined, { timeout: 15_000 }).catch(() => {});
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('he');
      // The guide pages included (before: their native date and time inputs followed the browser's US locale, and the
      // versions list showed "v" before the number and the server's author label "API key <id>").
      const found = [...await latinOnly(page, allowed), ...await foreignDates(page)];
      if (found.length) problems[path] = [...new Set(found)];
    }
    // Dates are in the Hebrew format where the pages show them (the audit log, the asset's details).
    await page.goto(`${s.url}/studio/team`);
    await page.waitForSelector('#audit time');
    const when = (await page.locator('#audit time').first().textContent())!;
    expect(when).toMatch(/^\d{1,2}\.\d{1,2}\.\d{4}, \d{1,2}:\d{2}$/);
  } finally { await ctx.close(); }
  expect(problems).toEqual({});
}, 120_000);

for (const lang of ['en', 'he'] as const) {
  test(`guide (${lang}): dates typed as YYYY-MM-DD HH:MM and read back in the UI language, versions in words, a direct change on the audit log`, async () => {
    const ch = (await json('POST', '/v1/channels', { name: `דסק ${lang}`, slug: `desk-${lang}`, timezone: 'UTC' })).id as string;
    // A change by the API key (review mode off): a version recorded as `API key <id>`.
    const t0 = Date.now() + 3 * 86_400_000;
    await json('POST', `/v1/channels/${ch}/programmes`, { title: `key ${lang}`, start_at: new Date(t0).toISOString(), end_at: new Date(t0 + 1_800_000).toISOString() });
    // A US-English browser with the studio in the language: the case where native inputs showed 11/29/2026, 08:00 PM.
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', extraHTTPHeaders: { 'accept-language': lang } });
    const page = await ctx.newPage();
    page.setDefaultTimeout(30_000);
    try {
      await page.goto(`${s.url}/studio/sign-in`);
      await page.evaluate((l) => localStorage.setItem('vs_lang', l), lang);
      await page.reload();
      await page.fill('#email', OWNER.email);
      await page.fill('#password', OWNER.password);
      await page.click('#signin');
      await page.waitForSelector('nav.side');
      await page.goto(`${s.url}/studio/guide?channel=desk-${lang}`);
      await page.waitForSelector('#programme-form');
      // Typed fields (before: input type=date/time, shown by the browser as 11/29/2026 and 08:00 PM).
      for (const id of ['prog-day', 'prog-from', 'prog-to', 'copy-from', 'copy-to', 'copy-through', 'shift-day']) expect(await page.getAttribute(`#${id}`, 'type')).toBe('text');
      const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      await page.fill('#prog-day', day);
      // The day read back in the UI language's format ("Monday 30 November 2026" / "יום שני, 30 בנובמבר 2026").
      const read = (await page.textContent('#prog-day-read'))!;
      const [y, m, d] = day.split('-').map(Number);
      expect(read).toContain(String(y));
      expect(read).toContain(` ${d} `);
      if (lang === 'he') expect(read).toMatch(/^יום [\u0590-\u05FF]+, \d{1,2} ב[\u0590-\u05FF]+ \d{4}$/);
      else expect(read).toMatch(/^[A-Z][a-z]+day,? \d{1,2} [A-Z][a-z]+ \d{4}$/);
      expect(read).not.toContain(`${m}/${d}`);
      // An unreadable time: a clear error in the language, nothing sent.
      await page.fill('#prog-title', lang === 'he' ? 'מבזק ערב' : 'Evening bulletin');
      await page.fill('#prog-from', '8pm');
      await page.click('#programme-form button[type=submit]');
      await page.waitForSelector('#prog-from[aria-invalid=true]');
      expect(await page.textContent('#prog-from-read')).toBe(lang === 'he' ? 'יש להקליד את השעה בצורה HH:MM, בשעון 24 שעות (למשל 20:00).' : 'Type the time as HH:MM, 24-hour (for example 20:00).');
      const listed = async () => (await json('GET', `/v1/channels/${ch}/programmes?from=${day}T00:00:00Z&to=${day}T23:59:00Z`)).items.length as number;
      expect(await listed()).toBe(0);
      // Readable: added at 20:00-20:30 UTC of that day, live at once (review mode off).
      await page.fill('#prog-from', '20:00');
      await page.fill('#prog-to', '20:30');
      await page.click('#programme-form button[type=submit]');
      await waitFor('programme added', async () => (await listed()) === 1, 15_000, 100);
      const prog = (await json('GET', `/v1/channels/${ch}/programmes?from=${day}T00:00:00Z&to=${day}T23:59:00Z`)).items[0];
      expect([prog.start_at, prog.end_at]).toEqual([`${day}T20:00:00.000Z`, `${day}T20:30:00.000Z`]);
      // The editor: start and end typed the same way, read back in words.
      await page.locator(`#guide-grid [data-prog="${prog.id}"] .gmain`).click();
      await page.waitForSelector('#programme-editor[open]');
      expect(await page.getAttribute('#edit-start', 'type')).toBe('text');
      expect(await page.inputValue('#edit-start')).toBe(`${day} 20:00`);
      expect(await page.textContent('#edit-start-read')).toMatch(lang === 'he' ? /^יום [\u0590-\u05FF]+, \d{1,2} ב[\u0590-\u05FF]+ \d{4} (בשעה )?20:00$/ : /^[A-Z][a-z]+day,? \d{1,2} [A-Z][a-z]+ \d{4}( at|,) 20:00$/);
      await shot(page, `guide-typed-edit-${lang}`);
      await page.keyboard.press('Escape');
      await page.waitForSelector('#programme-editor', { state: 'detached' });
      // Versions in words: "Version N" / "גרסה N", the key by its name, the person by name (before: "v2", "API key <id>").
      const rows = page.locator('#guide-versions tbody tr');
      await waitFor('two versions', async () => (await rows.count()) === 2, 15_000, 100);
      const cells = async (i: number) => (await rows.nth(i).locator('td').allTextContents()).map((x) => x.trim());
      const [newest, older] = [await cells(0), await cells(1)];
      expect(newest[0]).toStartWith(lang === 'he' ? 'גרסה 2' : 'Version 2');
      expect(newest[2]).toBe(OWNER.name);
      expect(older[0]).toBe(lang === 'he' ? 'גרסה 1' : 'Version 1');
      expect(older[2]).toBe(lang === 'he' ? 'מפתח API: first owner key' : 'API key: first owner key');
      await page.locator('#guide-versions').scrollIntoViewIfNeeded();
      await shot(page, `guide-typed-${lang}`);
      // The direct change is on the audit log (before: only publishes were), and reads in words on the team page.
      const items = (await json('GET', '/v1/audit?limit=100')).items as { action: string; target: string; details: Record<string, unknown> }[];
      const mine = items.filter((e) => e.action === 'guide.changed' && e.target === ch);
      expect(mine.map((e) => e.details.version).sort()).toEqual([1, 2]);
      expect(mine[0].details).toMatchObject({ name: `דסק ${lang}`, kind: 'edit', changes: 1 });
      // A day copied directly is recorded too (kind `copy`), with its version.
      const next = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      await json('POST', `/v1/channels/${ch}/guide/copy`, { from_day: day, to_day: next });
      const after = (await json('GET', '/v1/audit?limit=100')).items as typeof items;
      expect(after.find((e) => e.action === 'guide.changed' && e.target === ch && e.details.kind === 'copy')?.details).toMatchObject({ name: `דסק ${lang}`, version: 3, changes: 1 });
      await page.goto(`${s.url}/studio/team`);
      await page.waitForSelector('#audit td.au-text');
      const lines = await page.locator('#audit td.au-text').allTextContents();
      expect(lines).toContain(lang === 'he' ? `לוח השידורים של דסק ${lang} שונה ישירות, בלי בדיקה (גרסה 2)` : `Guide of דסק ${lang} changed directly, without review (version 2)`);
    } finally { await ctx.close(); }
  }, 90_000);
}
