import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { EN } from '../../assets-ui/studio/lang/en';
import { HE } from '../../assets-ui/studio/lang/he';
import { statsRuntime } from '../../src/features/stats/runtime';
import { EVENT_COLUMNS } from '../../src/features/stats/tables';
import type { StatsParam } from '../../src/kernel/stats';
import { identityService } from '../../src/features/identity/service';
import { PeopleStore } from '../../src/features/people/store';
import { OWNER, expectRtl, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
beforeAll(async () => { ({ s, browser } = await startStudio({ workers: false })); }, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

const PAGES = ['/studio/', '/studio/library', '/studio/live', '/studio/guide', '/studio/clips', '/studio/delivery', '/studio/integrations', '/studio/team'];

test('every string has a Hebrew translation that is not the English text', () => {
  expect(Object.keys(HE).sort()).toEqual(Object.keys(EN).sort());
  // "Webhooks" is the word Hebrew-speaking engineers use; everything else must differ.
  const same = Object.keys(EN).filter((k) => HE[k as keyof typeof HE] === EN[k as keyof typeof EN] && k !== 'webhooks');
  expect(same).toEqual([]);
});

test('sign-in failure shows the problem in words and keeps what was typed; the language can be switched there', async () => {
  for (const lang of ['en', 'he'] as const) {
    const page = await studioTab(browser, s, { lang, signIn: false });
    try {
      await page.goto(`${s.url}/studio/library`);
      await page.waitForURL(/\/studio\/sign-in\?next=%2Fstudio%2Flibrary/);
      await page.waitForSelector('#signin');
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(lang === 'he' ? 'rtl' : 'ltr');
      await shot(page, `signin-${lang}`);
      await page.fill('#email', OWNER.email);
      await page.fill('#password', 'not the password at all');
      await page.click('#signin');
      await page.waitForSelector('[role=alert]');
      expect(await page.textContent('[role=alert]')).toContain(lang === 'he' ? 'כתובת הדואר או הסיסמה שגויות.' : 'Wrong e-mail address or password.');
      expect(await page.inputValue('#email')).toBe(OWNER.email);
      // Signing in afterwards goes where the person was going (the failure is in the audit log, checked below).
      await page.fill('#password', OWNER.password);
      await page.click('#signin');
      await page.waitForSelector('#drop');
      expect(new URL(page.url()).pathname).toBe('/studio/library');
    } finally { await page.context().close(); }
  }
}, 90_000);

test('keyboard only: skip link, navigation by Tab and Enter, focus lands on the new page heading', async () => {
  const page = await studioTab(browser, s);
  try {
    await page.goto(`${s.url}/studio/`);
    await page.waitForSelector('#page-title');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip');
    let found = false;
    for (let i = 0; i < 12 && !found; i++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(() => document.activeElement?.getAttribute('href') === '/studio/live');
    }
    expect(found).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#create-channel');
    await page.waitForFunction(() => document.activeElement?.id === 'page-title');
    // A form is kept when the call fails: a second channel with a taken slug answers 409, shown in words.
    await page.fill('#channel-name', 'Morning desk');
    await page.fill('#channel-slug', 'desk');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#ingest');
    await page.goBack();
    await page.waitForSelector('#create-channel');
    await page.fill('#channel-name', 'Evening desk');
    await page.fill('#channel-slug', 'desk');
    await page.click('#create-channel button[type=submit]');
    await page.waitForSelector('#create-channel [role=alert]');
    expect((await page.textContent('#create-channel [role=alert]'))!.length).toBeGreaterThan(10);
    expect(await page.inputValue('#channel-name')).toBe('Evening desk');
  } finally { await page.context().close(); }
}, 90_000);

/** True when nothing is wider than the window (no sideways scrolling). */
const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

test('phone width (390 px) in both languages: every main page fits without sideways scrolling; Hebrew mirrors', async () => {
  for (const lang of ['en', 'he'] as const) {
    const page = await studioTab(browser, s, { lang, phone: true });
    try {
      for (const p of PAGES) {
        await page.goto(`${s.url}${p}`);
        await page.waitForSelector('#page-title');
        await page.waitForFunction(() => !document.querySelector('.state.loading'));
        expect({ page: p, fits: await fits(page) }).toEqual({ page: p, fits: true });
        if (lang === 'he') expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
        await shot(page, `phone-${p.replace('/studio/', '').replace(/\/$/, '') || 'dashboard'}-${lang}`);
      }
    } finally { await page.context().close(); }
  }
}, 120_000);

test('1280×720 in Hebrew: navigation on the right, every main page fits', async () => {
  const page = await studioTab(browser, s, { lang: 'he' });
  try {
    for (const p of PAGES) {
      await page.goto(`${s.url}${p}`);
      await page.waitForSelector('#page-title');
      await expectRtl(page);
      expect(await fits(page)).toBe(true);
    }
  } finally { await page.context().close(); }
}, 90_000);

test('guide: add a programme to today in the week grid, in both languages; remove it', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Guide channel', slug: 'guide-ch' })).json() as { id: string };
  for (const lang of ['en', 'he'] as const) {
    const page = await studioTab(browser, s, { lang });
    try {
      await page.goto(`${s.url}/studio/guide?channel=guide-ch`);
      await page.waitForSelector('#guide-grid');
      const title = lang === 'he' ? 'מהדורת הערב' : 'Evening news';
      await page.fill('#prog-title', title);
      await page.fill('#prog-from', '20:00');
      await page.fill('#prog-to', '20:30');
      await page.click('#programme-form button[type=submit]');
      await page.waitForSelector(`#guide-grid .prog >> text=${title}`);
      if (lang === 'he') await expectRtl(page);
      await shot(page, `guide-${lang}`);
      const items = (await (await s.api('GET', `/v1/channels/${ch.id}/programmes`)).json() as { items: { title: string }[] }).items;
      expect(items.map((i) => i.title)).toContain(title);
      page.once('dialog', (d) => void d.accept());
      await page.click(`#guide-grid button[aria-label$="${title}"]`);
      await page.waitForFunction((t) => !document.querySelector('#guide-grid')?.textContent?.includes(t), title);
    } finally { await page.context().close(); }
  }
}, 90_000);

test('delivery and security: create a playback policy, apply it to everything, rotate the signing key; Hebrew mirrors', async () => {
  const page = await studioTab(browser, s);
  try {
    await page.click('a[href="/studio/delivery"]');
    await page.waitForSelector('#policy-form');
    await page.fill('#policy-form input >> nth=0', 'Our sites only');
    await page.fill('#policy-form input >> nth=1', 'news.example.com, www.example.com');
    await page.click('#policy-form button[type=submit]');
    const row = page.locator('#policies tr', { hasText: 'Our sites only' });
    await row.waitFor();
    await row.locator('button', { hasText: 'Apply to everything' }).click();
    await page.locator('#policies tr', { hasText: 'tenant' }).waitFor();
    const before = await page.locator('#signing-keys li').count();
    page.once('dialog', (d) => void d.accept());
    await page.click('#signing-keys >> xpath=.. >> button');
    await waitFor('a new signing key', async () => (await page.locator('#signing-keys li').count()) > before, 15_000, 200);
    await shot(page, 'delivery-en');
  } finally { await page.context().close(); }
  const he = await studioTab(browser, s, { lang: 'he' });
  try {
    await he.goto(`${s.url}/studio/delivery`);
    await he.waitForSelector('#policies');
    await expectRtl(he);
    await shot(he, 'delivery-he');
  } finally { await he.context().close(); }
  const pols = (await (await s.api('GET', '/v1/playback/policies')).json() as { items: { name: string; referrers: string[] }[] }).items;
  expect(pols.find((p) => p.name === 'Our sites only')?.referrers).toEqual(['news.example.com', 'www.example.com']);
}, 90_000);

test('dashboard with viewing data: plays and watch time chart, QoE, top content with titles, in both languages', async () => {
  const def = s.ctx.db.query<{ id: string }, []>(`SELECT id FROM tenants WHERE slug = 'default'`).get()!.id;
  // An asset row to watch (no media needed: the top list reads its title).
  const content = crypto.randomUUID();
  s.ctx.db.query(`INSERT INTO assets (id, tenant_id, external_id, title, status, ladder, source, source_path, created_at, updated_at)
    VALUES (?, ?, 'dash-1', 'Morning bulletin', 'failed', NULL, '{"kind":"upload"}', '', ?, ?)`).run(content, def, Date.now(), Date.now());
  const now = s.ctx.clock.now();
  const rows: StatsParam[][] = [];
  // 60 viewing sessions spread over the last 20 hours: request, first frame after 600-1500 ms, heartbeats.
  for (let i = 0; i < 60; i++) {
    const t0 = now - 20 * 3600_000 + i * 1200_000;
    const sid = `dash-${i}`;
    const ev = (e: string, dt: number, x: Record<string, StatsParam> = {}) => {
      const base: Record<string, StatsParam> = { ts: t0 + dt, received: t0 + dt, tenant_id: def, sid, viewer_id: `v-${i % 25}`, page_host: 'news.example', kind: 'vod', content_id: content, live: false, e, pos: dt / 1000, buf: 0, device: 'desktop', user_agent: 'UA', ...x };
      return EVENT_COLUMNS.map((c) => base[c] ?? null);
    };
    rows.push(ev('play_request', 0), ev('first_frame', 600 + (i % 10) * 100, { startup_ms: 600 + (i % 10) * 100 }));
    for (let h = 1; h <= 1 + (i % 8); h++) rows.push(ev('heartbeat', h * 15_000));
  }
  await statsRuntime(s.ctx).ready;
  await s.ctx.stats.append('player_events', rows);
  await statsRuntime(s.ctx).flush();
  for (const lang of ['en', 'he'] as const) {
    const page = await studioTab(browser, s, { lang });
    try {
      await page.waitForSelector('.chart canvas');
      await waitFor('plays shown', async () => /[1-9]/.test((await page.locator('.stat strong').nth(1).textContent()) ?? ''), 20_000, 200);
      await page.waitForSelector('ol.toplist >> text=Morning bulletin');
      expect(await page.textContent('.kv')).toMatch(/\d+ ms/);
      if (lang === 'he') await expectRtl(page);
      await shot(page, `dashboard-${lang}`);
    } finally { await page.context().close(); }
  }
}, 90_000);

test('a person in two organisations switches between them in the header; the pages show the other tenant', async () => {
  const other = identityService(s.ctx).createTenant({ name: 'Second Newsroom', slug: 'second' });
  const people = new PeopleStore(s.ctx.db);
  people.upsertMembership(other.id, people.userByEmail(OWNER.email)!.id, 'owner', Date.now());
  s.ctx.keys.invalidateUser(people.userByEmail(OWNER.email)!.id);
  await s.api('POST', '/v1/channels', { name: 'Only in default', slug: 'only-default' });
  const page = await studioTab(browser, s);
  try {
    await page.goto(`${s.url}/studio/live`);
    await page.waitForSelector('#channels >> text=Only in default');
    await page.selectOption('#tenant-switch', other.id);
    await page.waitForSelector('.brand >> text=Second Newsroom');
    await page.click('a[href="/studio/live"]');
    await page.waitForSelector('text=No channels yet.');
    expect(await page.locator('#channels').count()).toBe(0);
  } finally { await page.context().close(); }
}, 60_000);

test('team: the audit log lists the failed sign-ins of this file; members and branding are there', async () => {
  const page = await studioTab(browser, s, { lang: 'he' });
  try {
    await page.goto(`${s.url}/studio/team`);
    await page.waitForSelector('#audit tr[data-action="signin.failed"] >> text=כניסה שנכשלה');
    await page.waitForSelector('#members');
    await page.waitForSelector('#branding');
    await expectRtl(page);
    await shot(page, 'team-he');
  } finally { await page.context().close(); }
}, 60_000);
