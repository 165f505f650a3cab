/**
 * The studio's cue editor (issue 43) in Chromium, against the real cue API: an asset with an uploaded Hebrew track
 * (one cue of it hostile) and an English one. The editor edits a cue's text, splits at the playhead with the keyboard,
 * merges, shifts all, undoes through the revisions, sets a start from the playhead, finds and replaces with a glossary
 * suggestion, shows the English track side by side and publishes; every step is checked in the API. Hostile text
 * stays text; Hebrew cue text reads right to left with timecodes left to right; the waveform is computed once and
 * cached. The Hebrew studio (desktop and phone) makes new tracks by upload and by recognition (which fails with the
 * reason: no Hebrew engine here).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { ff, registerAsset, settled } from './transcode-helpers';
import { expectLtr, expectRtl, layoutProblems, shot, startStudio, studioTab } from './studio-helpers';
import { assetDir } from '../../src/features/assets/paths';
import { defaultTenant } from './transcode-helpers';

const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
let s: TestServer;
let browser: Browser;
let asset = '';
let he = '';
let en = '';

interface ApiCue { id: number; start_ms: number; end_ms: number; text: string; over_limit: string[] }
const json = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
  const r = await s.api(method, path, body, headers ? { headers } : undefined);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.status === 204 ? null : r.json() as Promise<any>;
};
const track = (id: string) => `/v1/assets/${asset}/subtitles/${id}`;
const cues = async (id: string): Promise<ApiCue[]> => (await json('GET', `${track(id)}/cues?limit=1000`)).items;
const flat = (x: string) => x.replace(/\s+/g, ' ').trim();

// The Hebrew track: a greeting, a headline with a misspelt place (the glossary corrects it), and a hostile cue that
// survives the server's cleaning (an unclosed tag across two lines, escaped script markup; the RLO is dropped).
const HOSTILE = '<img src=x onerror=window.__pwned=1\n> &lt;script&gt;window.__pwned=2&lt;/script&gt; \u202Eבדיקה';
const HE_SRT = `1\n00:00:00,300 --> 00:00:01,500\nשלום לכולם\n\n2\n00:00:01,700 --> 00:00:04,200\nהחדשות של הערב מירושליים\n\n3\n00:00:04,500 --> 00:00:05,800\n${HOSTILE}\n`;
const EN_VTT = 'WEBVTT\n\n00:00.300 --> 00:01.500\nHello everyone\n\n00:01.700 --> 00:04.200\nTonight\'s news from Jerusalem\n';

beforeAll(async () => {
  ({ s, browser } = await startStudio({ env: { VS_TRANSCODE_ENCODER: 'libx264' } }));
  // Real speech under a test picture (Debian's librivox recordings: 0880, half a second of silence, 0930; about
  // 6.8 s), so the waveform shows words and a pause.
  const src = join(s.dataDir, 'news.mp4');
  await ff(['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25', '-i', `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-0880.wav`,
    '-f', 'lavfi', '-t', '0.5', '-i', 'anullsrc=r=16000:cl=mono', '-i', `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-0930.wav`,
    '-filter_complex', '[1:a][2:a][3:a]concat=n=3:v=0:a=1[a]',
    '-map', '0:v', '-map', '[a]', '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', src]);
  asset = registerAsset(s.ctx, src);
  expect((await settled(s.ctx, asset, 150_000)).status).toBe('ready');
  await json('PATCH', `/v1/assets/${asset}`, { title: 'מבזק ערב' });
  he = (await json('POST', `/v1/assets/${asset}/subtitles`, { language: 'he', label: 'עברית', content: HE_SRT, format: 'srt' })).id;
  en = (await json('POST', `/v1/assets/${asset}/subtitles`, { language: 'en', label: 'English', content: EN_VTT })).id;
  await json('POST', '/v1/glossary', { term: 'ירושלים', variants: ['ירושליים'], language: 'he' });
}, 240_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

const setPlayer = (page: Page, at: number) => page.evaluate(async (t) => {
  const v = document.querySelector<HTMLVideoElement>('#player video')!;
  v.muted = true; v.pause(); v.currentTime = t;
  await new Promise((r) => (v.seeking ? v.addEventListener('seeked', r, { once: true }) : r(null)));
}, at);
const playerTime = (page: Page) => page.evaluate(() => document.querySelector<HTMLVideoElement>('#player video')!.currentTime);
/** Selects the n-th row (1-based) by its number, leaving the focus outside any field. */
const selectRow = async (page: Page, n: number) => {
  await page.locator('#cue-list li.se-cue').nth(n - 1).locator('.se-n').click();
  await page.waitForSelector(`#cue-list li.se-cue:nth-child(${n}).sel`);
};
const rows = (page: Page) => page.locator('#cue-list li.se-cue').count();
const untilApi = <T>(what: string, fn: () => Promise<T | null | false>) => waitFor(what, fn, 20_000, 100) as Promise<T>;

test('waveform: peaks computed once by ffmpeg, cached beside the asset, audiowaveform JSON', async () => {
  const r = await s.api('GET', `/v1/assets/${asset}/waveform`);
  expect(r.status).toBe(200);
  const w = await r.json() as { version: number; sample_rate: number; samples_per_pixel: number; length: number; data: number[] };
  expect([w.version, w.sample_rate, w.samples_per_pixel]).toEqual([2, 8000, 80]);
  const dur = (await json('GET', `/v1/assets/${asset}`)).duration_s as number;
  expect(Math.abs(w.length - dur * 100)).toBeLessThan(10); // 100 pixels a second
  expect(Math.max(...w.data)).toBeGreaterThan(20); // speech, not silence
  // Louder where the words are than in the half second of silence between the recordings (from 2.99 s).
  const level = (fromS: number, toS: number) => Math.max(...w.data.slice(fromS * 200, toS * 200).map(Math.abs));
  expect(level(0.5, 2.5)).toBeGreaterThan(level(3.05, 3.45) * 4);
  const file = join(assetDir(s.dataDir, defaultTenant(s.ctx), asset), 'waveform.json');
  const m1 = statSync(file).mtimeMs;
  const again = await (await s.api('GET', `/v1/assets/${asset}/waveform`)).json();
  expect(again).toEqual(w);
  expect(statSync(file).mtimeMs).toBe(m1); // read from the cache, not computed again
  expect((await s.api('GET', `/v1/assets/${asset}/waveform`, undefined, { key: null })).status).toBe(401);
  expect((await s.api('GET', '/v1/assets/00000000-0000-4000-8000-000000000000/waveform')).status).toBe(404);
});

test('cue editor (EN studio, desktop): edit, split by keyboard, merge, shift, undo, set start, find/replace with the glossary, side by side, publish; hostile text stays text', async () => {
  const page = await studioTab(browser, s, { lang: 'en' });
  try {
    await page.goto(`${s.url}/studio/library/${asset}`);
    await page.click('#open-subtitles');
    await page.waitForURL(/\/subtitles/);
    await page.waitForSelector('#cue-list li.se-cue');
    expect(await rows(page)).toBe(3);
    await expectLtr(page);
    // The waveform draws peaks and the cues on them.
    await waitFor('waveform drawn', () => page.$eval('#waveform', (c) => Number((c as HTMLElement).dataset.pixels) > 500 && Number((c as HTMLElement).dataset.cuesDrawn) > 0), 30_000, 100);
    await page.waitForSelector('#player video');

    // Hostile text: shown as characters, nothing executed, no element made from it; the RLO never reaches the page.
    const hostile = page.locator('#cue-list li.se-cue').nth(2);
    const value = await hostile.locator('textarea').inputValue();
    expect(value).toContain('<img src=x onerror=window.__pwned=1');
    expect(value).toContain('&lt;script&gt;');
    expect(value).not.toContain('\u202E');
    expect(await page.locator('#cue-list img, #cue-list script, #cue-list [onerror]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.evaluate(() => document.body.innerHTML.includes('\u202E'))).toBe(false);
    // Too much text for 1.3 s: flagged in the list and counted.
    expect(await hostile.getAttribute('class')).toContain('over');
    expect(await page.textContent('#over-count')).toContain('1');

    // Right to left done right: Hebrew cue text right to left in an English studio, timecodes left to right.
    expect(await page.locator('#cue-list li.se-cue').nth(0).locator('textarea').evaluate((e) => e.matches(':dir(rtl)'))).toBe(true);
    expect(await page.locator('#cue-list li.se-cue').nth(0).locator('.se-tc bdi').textContent()).toBe('00:00.300 → 00:01.500');

    // Click a cue's time: the player goes there.
    await page.locator('#cue-list li.se-cue').nth(1).locator('.se-tc').click();
    await waitFor('seeked to 1.7 s', async () => Math.abs(await playerTime(page) - 1.7) < 0.05, 10_000, 50);

    // Edit text in place (Ctrl+Enter saves).
    const first = page.locator('#cue-list li.se-cue').nth(0).locator('textarea');
    await first.fill('שלום לכולם, ערב טוב');
    await first.press('Control+Enter');
    await untilApi('text saved', async () => (await cues(he))[0]!.text === 'שלום לכולם, ערב טוב');

    // Split the headline at the playhead with the keyboard (S), then merge it back.
    await setPlayer(page, 2.9);
    await selectRow(page, 2);
    await page.keyboard.press('KeyS');
    const split = await untilApi('split', async () => { const c = await cues(he); return c.length === 4 ? c : null; });
    expect(split[1]!.end_ms).toBe(2900);
    expect(split[2]!.start_ms).toBe(2980); // the minimum gap of 2 frames
    expect(flat(`${split[1]!.text} ${split[2]!.text}`)).toBe('החדשות של הערב מירושליים');
    await waitFor('4 rows', async () => (await rows(page)) === 4, 10_000, 50);
    await selectRow(page, 2);
    await page.click('#merge');
    const merged = await untilApi('merged', async () => { const c = await cues(he); return c.length === 3 ? c : null; });
    expect([merged[1]!.start_ms, merged[1]!.end_ms, flat(merged[1]!.text)]).toEqual([1700, 4200, 'החדשות של הערב מירושליים']);

    // A refused change is said in words and changes nothing: the last cue has no next one to merge with.
    await selectRow(page, 3);
    await page.click('#merge');
    await page.waitForSelector('.problem[role=alert]');
    expect((await cues(he)).length).toBe(3);

    // Shift all by +500 ms, then undo it from the revisions.
    await page.fill('#shift-ms', '500');
    await page.selectOption('#shift-scope', 'all');
    await page.click('#shift-apply');
    const shifted = await untilApi('shifted', async () => { const c = await cues(he); return c[0]!.start_ms === 800 ? c : null; });
    expect(shifted.map((c) => c.start_ms)).toEqual([800, 2200, 5000]);
    await page.waitForSelector('#revisions li.se-rev[data-op="shift"] .se-undo');
    await page.click('#revisions li.se-rev[data-op="shift"] .se-undo');
    await untilApi('shift undone', async () => (await cues(he)).map((c) => c.start_ms).join() === '300,1700,4500');
    await page.waitForSelector('#revisions li.se-rev[data-op="undo"]');
    const revs = (await json('GET', `${track(he)}/revisions`)).items as { op: string; author: { name: string } | null }[];
    expect(revs.map((r) => r.op).slice(0, 5)).toEqual(['undo', 'shift', 'merge', 'split', 'edit']);
    expect(revs[0]!.author?.name).toBe('Dana Editor');

    // Keyboard: Escape leaves a field; ↓ picks the next cue and plays from it; [ sets its start from the playhead;
    // Space plays and pauses; Ctrl+← goes back 2 s.
    await page.locator('#cue-list li.se-cue').nth(0).locator('textarea').focus();
    await page.keyboard.press('Escape');
    await selectRow(page, 1);
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('#cue-list li.se-cue:nth-child(2).sel');
    await waitFor('at cue 2', async () => Math.abs(await playerTime(page) - 1.7) < 0.05, 10_000, 50);
    await setPlayer(page, 1.9);
    await page.keyboard.press('BracketLeft');
    await untilApi('start set from the playhead', async () => (await cues(he))[1]!.start_ms === 1900);
    // Drag cue 2's end on the waveform from 4.2 s to 4.3 s.
    await setPlayer(page, 3.0);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#waveform')!.dataset.viewStart !== undefined);
    const box = (await page.locator('#waveform').boundingBox())!;
    const viewStart = Number(await page.$eval('#waveform', (c) => (c as HTMLElement).dataset.viewStart));
    const xAt = (ms: number) => box.x + ((ms - viewStart) / 10_000) * box.width;
    await page.mouse.move(xAt(4200), box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(xAt(4250), box.y + box.height / 2, { steps: 3 });
    await page.mouse.move(xAt(4300), box.y + box.height / 2, { steps: 3 });
    await page.mouse.up();
    const dragged = await untilApi('end dragged', async () => { const c = (await cues(he))[1]!; return c.end_ms !== 4200 ? c : null; });
    expect(Math.abs(dragged.end_ms - 4300)).toBeLessThanOrEqual(50);
    expect(dragged.start_ms).toBe(1900);

    await page.keyboard.press('Space');
    await waitFor('playing', () => page.evaluate(() => !document.querySelector<HTMLVideoElement>('#player video')!.paused), 10_000, 50);
    await page.keyboard.press('Space');
    await waitFor('paused', () => page.evaluate(() => document.querySelector<HTMLVideoElement>('#player video')!.paused), 10_000, 50);
    await setPlayer(page, 4.0);
    await page.keyboard.press('Control+ArrowLeft');
    await waitFor('back 2 s', async () => Math.abs(await playerTime(page) - 2.0) < 0.05, 10_000, 50);

    // Someone else changes the track meanwhile (API, If-Match *): the editor's next write is refused (412), the editor
    // says so and shows the track as it is now; the stale edit is not applied.
    await json('PATCH', `${track(he)}/cues/${(await cues(he))[0]!.id}`, { text: 'שלום מהשטח' }, { 'if-match': '*' });
    const second = page.locator('#cue-list li.se-cue').nth(1).locator('textarea');
    await second.fill('עריכה שלא תישמר');
    await second.press('Control+Enter');
    await page.waitForSelector('#se-note');
    await waitFor('read again', async () => (await page.locator('#cue-list li.se-cue').nth(0).locator('textarea').inputValue()) === 'שלום מהשטח', 10_000, 50);
    expect(flat((await cues(he))[1]!.text)).toBe('החדשות של הערב מירושליים');
    // The refused typing is not left in the field as if saved.
    await waitFor('field shows the track', async () => flat(await second.inputValue()) === 'החדשות של הערב מירושליים', 10_000, 50);

    // Find and replace with the glossary's suggestion (Hebrew-aware whole word: the prefix letter stays).
    await page.waitForSelector('#glossary-hints .glossary-hint');
    await page.click('#glossary-hints .glossary-hint');
    expect(await page.inputValue('#find-text')).toBe('ירושליים');
    expect(await page.inputValue('#replace-text')).toBe('ירושלים');
    expect(await page.textContent('#find-count')).toContain('1');
    await page.click('#replace-all');
    await untilApi('replaced', async () => flat((await cues(he))[1]!.text) === 'החדשות של הערב מירושלים');
    await page.waitForSelector('#replace-said');
    expect(await page.locator('#se-note').count()).toBe(0); // a write that went through clears the note

    // Side by side: the English track's text beside each Hebrew cue, left to right.
    await page.selectOption('#beside-pick', en);
    await page.waitForSelector('#cue-list li.se-cue .se-beside');
    await waitFor('English beside', async () => (await page.locator('#cue-list li.se-cue').nth(0).locator('.se-beside').textContent()) === 'Hello everyone', 10_000, 50);
    expect(await page.locator('#cue-list li.se-cue').nth(0).locator('.se-beside').evaluate((e) => e.matches(':dir(ltr)'))).toBe(true);

    // I: a new cue at the playhead, typed in the form that opens; Delete removes the selected cue (after asking).
    await setPlayer(page, 6.0);
    await selectRow(page, 3);
    await page.keyboard.press('KeyI');
    await page.waitForSelector('#insert-text:focus');
    await page.keyboard.type('סוף המבזק');
    await page.keyboard.press('Enter');
    const inserted = await untilApi('inserted', async () => { const c = await cues(he); return c.length === 4 ? c : null; });
    expect([inserted[3]!.start_ms, inserted[3]!.text]).toEqual([6000, 'סוף המבזק']);
    await waitFor('4 rows', async () => (await rows(page)) === 4, 10_000, 50);
    await selectRow(page, 4);
    page.once('dialog', (d) => void d.accept());
    await page.keyboard.press('Delete');
    await untilApi('deleted', async () => (await cues(he)).length === 3);

    // Publish toggle.
    await page.check('#track-published');
    await untilApi('published', async () => (await json('GET', track(he))).published === true);

    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await layoutProblems(page)).toEqual([]);
    await setPlayer(page, 1.2);
    await selectRow(page, 1);
    await shot(page, 'subtitles-en');
  } finally { await page.context().close(); }
}, 240_000);

test('cue editor (HE studio, desktop and phone): right to left, new tracks by upload and by recognition (fails with the reason)', async () => {
  const page = await studioTab(browser, s, { lang: 'he' });
  try {
    await page.goto(`${s.url}/studio/library/${asset}/subtitles?track=${he}`);
    await page.waitForSelector('#cue-list li.se-cue');
    await expectRtl(page);
    expect(await page.locator('#cue-list li.se-cue').nth(0).locator('textarea').evaluate((e) => e.matches(':dir(rtl)'))).toBe(true);
    expect(await page.locator('#cue-list li.se-cue').nth(0).locator('.se-tc bdi').evaluate((e) => e.matches(':dir(ltr)'))).toBe(true);
    expect(await page.textContent('#cue-summary')).toContain('3 כתוביות');
    // Every word of the editor is Hebrew: text nodes with Latin letters and no Hebrew one, less data (cue text, the
    // English track beside, track labels), key names, timecodes, the player and the header's names.
    const latin = await page.evaluate(() => {
      const out: string[] = [];
      const w = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n; n = w.nextNode()) {
        const text = (n.textContent ?? '').trim();
        const el = n.parentElement!;
        if (!text || !/[A-Za-z]/.test(text) || /[\u0590-\u05FF]/.test(text) || !el.checkVisibility()) continue;
        if (el.closest('textarea, .se-beside, kbd, [dir=ltr], .se-player, option') || text === 'Dana Editor') continue;
        out.push(text);
      }
      return out;
    });
    expect(latin).toEqual([]);
    await page.selectOption('#beside-pick', en);
    await page.waitForSelector('#cue-list li.se-cue .se-beside');
    await waitFor('waveform drawn', () => page.$eval('#waveform', (c) => Number((c as HTMLElement).dataset.pixels) > 500), 30_000, 100);
    await page.waitForSelector('#player video');
    await setPlayer(page, 0.8);
    await selectRow(page, 1);
    expect(await layoutProblems(page)).toEqual([]);
    await shot(page, 'subtitles-he');

    // A new track from a file (Arabic SRT), chosen in the picker at once.
    await page.click('#new-track summary');
    await page.selectOption('#new-language', 'ar');
    await page.setInputFiles('#upload-file', { name: 'news-ar.srt', mimeType: 'application/x-subrip', buffer: Buffer.from('1\n00:00:00,500 --> 00:00:02,000\nمرحبا بالجميع\n') });
    const ar = await untilApi('uploaded', async () => ((await json('GET', `/v1/assets/${asset}/subtitles`)).items as { id: string; language: string }[]).find((x) => x.language === 'ar'));
    await waitFor('picked', async () => (await page.inputValue('#track-pick')) === (ar as { id: string }).id, 10_000, 50);
    await waitFor('arabic row', async () => (await page.locator('#cue-list li.se-cue textarea').first().inputValue()) === 'مرحبا بالجميع', 10_000, 50);

    // Translate the Arabic track into Russian: the new track is chosen with its source beside it.
    await page.selectOption('#translate-into', 'ru');
    await page.click('#translate-go');
    const ru = (await untilApi('translation track', async () => ((await json('GET', `/v1/assets/${asset}/subtitles`)).items as { id: string; language: string; source: string; source_track_id: string | null }[]).find((x) => x.language === 'ru')))!;
    expect([ru.source, ru.source_track_id]).toEqual(['translation', (ar as { id: string }).id]);
    await waitFor('translation picked', async () => (await page.inputValue('#track-pick')) === ru.id, 10_000, 50);
    await waitFor('source beside', async () => (await page.inputValue('#beside-pick')) === (ar as { id: string }).id, 10_000, 50);

    // Recognition in Hebrew: no engine for Hebrew on this box, so the track fails and says why.
    if (!(await page.$eval('#new-track', (d) => (d as HTMLDetailsElement).open))) await page.click('#new-track summary');
    await page.selectOption('#new-language', 'he');
    await page.click('#recognise');
    await page.waitForSelector('#track-failed', { timeout: 120_000 });
    expect(await page.textContent('#track-failed')).toContain('he');
  } finally { await page.context().close(); }

  for (const lang of ['he', 'en'] as const) {
    const phone = await studioTab(browser, s, { lang, phone: true });
    try {
      await phone.goto(`${s.url}/studio/library/${asset}/subtitles?track=${he}`);
      await phone.waitForSelector('#cue-list li.se-cue');
      expect(await phone.evaluate(() => document.documentElement.dir)).toBe(lang === 'he' ? 'rtl' : 'ltr');
      await phone.waitForSelector('#player video');
      expect(await layoutProblems(phone)).toEqual([]);
      await shot(phone, `subtitles-${lang}-phone`);
    } finally { await phone.context().close(); }
  }
}, 240_000);
