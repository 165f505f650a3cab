/**
 * The AI articles inbox and review page in Chromium, in English and in Hebrew (issue 45): the inbox lists the draft;
 * the review page shows the programme's video, its transcript and the draft; a chapter's time plays that moment; an
 * edited headline and a changed quote speaker are saved as corrections; English is approved (published, read-only,
 * one artifact.published), Hebrew is rejected with a reason. Screenshots docs/studio/articles-*.png.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled } from './transcode-helpers';
import { expectLtr, expectRtl, layoutProblems, shot, startStudio, studioTab } from './studio-helpers';
import { channelWithProgramme, draftOf, NEWS_LINES, seedChannelTrack } from './articles-helpers';
import { defaultTenantId } from './guide-helpers';
import { setProgrammeVod } from '../../src/features/guide/service';

let s: TestServer;
let browser: Browser;
const drafts: Record<'en' | 'he', Record<string, any>> = { en: {}, he: {} };
const HE_LINES = [
  'הממשלה אישרה הלילה את תקציב המדינה לשנה הבאה.', 'שר האוצר אמר שהתקציב מגדיל את ההשקעה בחינוך.', 'בתקציב החדש יש תוספת לבריאות ולחינוך.',
  'האופוזיציה תקפה את התקציב ואמרה שהוא פוגע במעמד הביניים.', 'ההצבעה על התקציב בכנסת תתקיים בשבוע הבא.', 'ראש הממשלה הודה לשר האוצר על התקציב.',
  'סערה חזקה תגיע מחר לחופי הארץ עם גשם כבד.', 'החזאים מזהירים מרוחות חזקות ומהצפות בחוף.', 'הגשם והרוחות יימשכו עד סוף השבוע.',
  'בתי הספר בחוף ייסגרו בגלל הסערה.', 'אחרי הסערה צפוי מזג אוויר נאה ושמשי.', 'החקלאים שמחו על הגשם אחרי קיץ יבש.',
];
/** One cue a second (0.8 s long) from 0.5 s: the whole transcript inside the 14 s video. */
const compact = (lines: string[]) => lines.map((text, i) => ({ startMs: 500 + i * 1000, endMs: 1300 + i * 1000, text }));

beforeAll(async () => {
  ({ s, browser } = await startStudio({ env: { VS_TRANSCODE_ENCODER: 'libx264' } }));
  const clip = await makeClip(join(s.dataDir, 'programme.mp4'), { seconds: 14, size: '320x180' });
  const asset = registerAsset(s.ctx, clip);
  expect((await settled(s.ctx, asset, 150_000)).status).toBe('ready');
  const tenant = defaultTenantId(s);
  for (const lang of ['en', 'he'] as const) {
    const end = Date.now() - 3_600_000, start = end - 14_000;
    const x = await channelWithProgramme(s, { startMs: start, endMs: end, title: lang === 'he' ? 'מבט' : 'Evening News' });
    setProgrammeVod(s.ctx, x.programme, { asset_id: asset, status: 'published', trigger: 'api' });
    seedChannelTrack(s, tenant, x.channel.id, x.programme, start, end, compact(lang === 'he' ? HE_LINES : NEWS_LINES), lang);
    drafts[lang] = await draftOf(s, x.programme);
  }
}, 240_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

const videoTime = (page: Page) => page.evaluate(() => document.querySelector<HTMLVideoElement>('#ar-player video')?.currentTime ?? -1);

for (const lang of ['en', 'he'] as const) {
  test(`review in ${lang}: inbox → draft beside video and transcript → play a chapter → corrections → ${lang === 'en' ? 'approve' : 'reject'}`, async () => {
    const d = drafts[lang];
    const page = await studioTab(browser, s, { lang });
    await page.click('a[href="/studio/articles"]');
    const row = page.locator('#articles tbody tr', { hasText: d.body.headline });
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe(lang === 'he' ? 'טיוטה' : 'Draft');
    await (lang === 'he' ? expectRtl(page) : expectLtr(page));
    await shot(page, `articles-inbox-${lang}`);
    await row.locator('a').click();
    await page.waitForSelector('#ar-headline');
    expect(await page.inputValue('#ar-headline')).toBe(d.body.headline);
    expect(await page.locator('#ar-transcript li').count()).toBe(12);
    expect(await page.locator('.ar-chapter').count()).toBe(d.body.chapters.length);
    expect(await layoutProblems(page)).toEqual([]);

    // Click to play: the second chapter's time moves the player there.
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('#ar-player video')?.readyState ?? 0) >= 1, undefined, { timeout: 60_000 });
    const at = d.body.chapters[d.body.chapters.length - 1].start_ms / 1000;
    await page.click(`#ar-chapter-play-${d.body.chapters.length - 1}`);
    await waitFor('player at the chapter', async () => Math.abs((await videoTime(page)) - at) < 1.5, 20_000, 100);

    // Edits become corrections.
    const headline = lang === 'he' ? 'התקציב אושר; סערה בדרך' : 'Late goal wins it; storm on the way';
    await page.fill('#ar-headline', headline);
    await page.selectOption('#ar-quote-0 select', 'presenter');
    await page.click('#ar-save');
    await page.locator('#ar-note', { hasText: lang === 'he' ? 'נשמר כתיקונים.' : 'Saved as corrections.' }).waitFor();
    expect(await page.locator('#ar-corrections li').allTextContents()).toEqual([expect.stringContaining(lang === 'he' ? 'כותרת ·' : 'Headline ·'), expect.stringContaining(lang === 'he' ? 'ציטוטים ·' : 'Quotes ·')]);
    const stored = await (await s.api('GET', `/v1/ai/artifacts/${d.id}`)).json() as { body: { headline: string; quotes: { role: string }[] }; corrections: { field: string }[] };
    expect([stored.body.headline, stored.body.quotes[0]!.role, stored.corrections.map((c) => c.field)]).toEqual([headline, 'presenter', ['headline', 'quotes']]);
    await page.evaluate(() => { window.scrollTo(0, 0); document.querySelector('main')?.scrollTo(0, 0); });
    await shot(page, `articles-review-${lang}`);

    if (lang === 'en') {
      page.once('dialog', (dl) => void dl.accept());
      await page.click('#ar-approve');
      await page.locator('#ar-status', { hasText: 'Published' }).waitFor();
      expect(await page.locator('#ar-headline').isDisabled()).toBe(true);
      expect(await page.locator('#ar-approve').count()).toBe(0);
      expect(s.ctx.db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM events WHERE type = 'artifact.published' AND json_extract(data, '$.artifact') = ?").get(d.id)!.n).toBe(1);
    } else {
      await page.click('#ar-reject');
      await page.click('#ar-reject-send');
      await page.locator('.problem', { hasText: 'יש לכתוב סיבה.' }).waitFor();
      await page.fill('#ar-reason', 'הכותרת לא מדויקת');
      await page.click('#ar-reject-send');
      await page.locator('#ar-readonly', { hasText: 'נדחתה: הכותרת לא מדויקת' }).waitFor();
      await page.evaluate(() => { window.scrollTo(0, 0); document.querySelector('main')?.scrollTo(0, 0); });
      await shot(page, 'articles-rejected-he');
    }
    await page.context().close();
  }, 120_000);
}

test('a draft asked for from the inbox: a programme without subtitles is refused in words, one with them opens its review page', async () => {
  const tenant = defaultTenantId(s);
  const end = Date.now() - 2 * 3_600_000, start = end - 14_000;
  const x = await channelWithProgramme(s, { startMs: start, endMs: end, title: 'Morning Desk' });
  const bare = await s.api('POST', `/v1/channels/${x.channel.id}/programmes`, { title: 'Silent film', start_at: new Date(end + 60_000).toISOString(), end_at: new Date(end + 120_000).toISOString() });
  const silent = await bare.json() as { id: string };
  seedChannelTrack(s, tenant, x.channel.id, x.programme, start, end, compact(NEWS_LINES));
  const page = await studioTab(browser, s, { lang: 'en' });
  await page.goto(`${s.url}/studio/articles`);
  await page.click('#ar-request summary');
  const name = await (await s.api('GET', `/v1/channels/${x.channel.id}`)).json() as { name: string };
  await page.selectOption('#ar-channel', { label: name.name });
  await page.click(`#ar-draft-${silent.id}`);
  await page.locator('#ar-request .problem', { hasText: 'no ready subtitle track' }).waitFor();
  await page.click(`#ar-draft-${x.programme}`);
  await page.waitForURL(/\/studio\/articles\/[0-9a-f-]{36}$/);
  await page.waitForSelector('#ar-headline');
  expect((await page.inputValue('#ar-headline')).startsWith('Morning Desk: ')).toBe(true);
  await page.context().close();
}, 120_000);

