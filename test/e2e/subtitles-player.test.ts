/**
 * Subtitles in our player (issue 43, "Done when"): Debian's recorded speech muxed into a video, recognised by the
 * built-in engine, the track published, played in Chromium through embed.js (hls.js) with the recognised cue on screen
 * (screenshot: a temp folder, docs/player/ with VS_PLAYER_SHOTS=1); the captions menu by keyboard, `vscaptionchange`,
 * the choice remembered across videos, Hebrew drawn in a right-to-left cue box, hostile cue text shown as text.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { registerAsset, settled } from './transcode-helpers';
import { makeSpeechVideo } from './subtitles-helpers';
import { launch, pageServer } from './player-helpers';
import { parseWebVtt } from '../../src/text/webvtt';

const SHOTS = process.env.VS_PLAYER_SHOTS === '1' ? 'docs/player' : mkdtempSync(join(tmpdir(), 'vs-subs-shots-'));
let s: TestServer, browser: Browser, site: ReturnType<typeof Bun.serve>;
let asset: string, hls: string, enTrack: string, heTrack: string;

beforeAll(async () => {
  s = await startTestServer();
  const src = join(s.dataDir, 'speech.mp4');
  await makeSpeechVideo(src, 'testsrc2=size=640x360:rate=25');
  asset = registerAsset(s.ctx, src);
  expect((await settled(s.ctx, asset, 120_000)).status).toBe('ready');
  const r = await s.api('POST', `/v1/assets/${asset}/subtitles`, { language: 'en', kind: 'captions' });
  enTrack = ((await r.json()) as { id: string }).id;
  const t = (await waitFor('recognised', async () => {
    const x = (await (await s.api('GET', `/v1/assets/${asset}/subtitles/${enTrack}`)).json()) as { status: string; error: string | null };
    return x.status === 'ready' || x.status === 'failed' ? x : null;
  }, 300_000, 250))!;
  expect([t.status, t.error]).toEqual(['ready', null]);
  // A Hebrew track whose cue carries markup, a script and a bidi override: the upload neutralises them; what is left is text.
  const he = 'WEBVTT\n\n00:00:00.200 --> 00:00:07.000\n<script>window.pwned=1</script>\u202eשלום <b>עולם</b> &amp; (מבחן)\n';
  heTrack = ((await (await s.api('POST', `/v1/assets/${asset}/subtitles`, { language: 'he', content: he })).json()) as { id: string }).id;
  for (const id of [enTrack, heTrack]) expect((await s.api('POST', `/v1/assets/${asset}/subtitles/${id}/publish`)).status).toBe(200);
  hls = ((await (await s.api('GET', `/v1/assets/${asset}`)).json()) as { playback: { hls: string } }).playback.hls;
  site = pageServer((u) => {
    const lang = u.searchParams.get('lang') ?? 'en';
    return `<!doctype html><html lang="${lang}"><body style="margin:0;padding:8px;background:#e5e7eb"><div style="width:640px">
<script>window.changes = []; document.addEventListener('vs:ready', (e) => e.detail.player.addEventListener('vscaptionchange', (ev) => window.changes.push(ev.detail)));</script>
<script src="${s.url}/embed.js" data-src="${hls}" data-lang="${lang}" data-resume="off" data-muted="true" data-title="ViewStream captions"></script></div></body></html>`;
  });
  browser = await launch();
  mkdirSync(SHOTS, { recursive: true });
}, 420_000);
afterAll(async () => {
  await browser?.close(); site?.stop(true); await s?.stop();
  if (SHOTS !== 'docs/player') rmSync(SHOTS, { recursive: true, force: true });
}, 60_000);

type Change = { track: string | null; label: string | null };
const changes = (tab: Page) => tab.evaluate(() => (window as unknown as { changes: Change[] }).changes);
const cueBox = (tab: Page) => tab.evaluate(() => Array.from(document.querySelectorAll('.vs-cue')).map((e) => ({ text: e.textContent, dir: (e as HTMLElement).dir, lang: (e as HTMLElement).lang, kids: e.children.length })));

/** Opens the page, starts playback with the big button, waits for the captions button. */
async function open(lang: string, ctx = browser): Promise<Page> {
  const tab = await ctx.newPage({ viewport: { width: 656, height: 400 } });
  await tab.goto(`http://127.0.0.1:${site.port}/?lang=${lang}`);
  await tab.waitForSelector('.vs-big');
  await tab.click('.vs-big');
  await tab.waitForSelector('button[data-vs=cc]:not([hidden])', { timeout: 30_000 });
  return tab;
}

/** Picks a captions menu item by keyboard: focus the CC button, Enter, arrows to the item labelled `label`, Enter. */
async function pickByKeyboard(tab: Page, label: string): Promise<void> {
  await tab.focus('button[data-vs=cc]');
  await tab.keyboard.press('Enter');
  await tab.waitForSelector('.vs-menu [role=menuitemradio]');
  const labels = await tab.$$eval('.vs-menu [role=menuitemradio]', (es) => es.map((e) => e.textContent));
  const want = labels.indexOf(label);
  expect(want).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < 10; i++) {
    const at = await tab.evaluate(() => document.activeElement?.textContent ?? '');
    if (at === label) break;
    await tab.keyboard.press('ArrowDown');
  }
  await tab.keyboard.press('Enter');
  await tab.waitForSelector('.vs-menu', { state: 'detached' });
}

test('recognised speech: the captions menu by keyboard shows the cue the engine made, on screen at its time (screenshot)', async () => {
  const cues = parseWebVtt(await (await s.api('GET', `/v1/assets/${asset}/subtitles/${enTrack}.vtt`)).text());
  const young = cues.find((c) => /young|man/.test(c.text))!;
  expect(young).toBeDefined();
  const tab = await open('en');
  const labels = await (async () => { await tab.click('button[data-vs=cc]'); const l = await tab.$$eval('.vs-menu [role=menuitemradio]', (es) => es.map((e) => e.textContent)); await tab.keyboard.press('Escape'); return l; })();
  expect(labels).toEqual(['Off', 'English', 'עברית']);
  await pickByKeyboard(tab, 'English');
  expect((await changes(tab)).at(-1)).toEqual({ track: 'en', label: 'English' });
  // The recognised cue is drawn while the video is inside its time.
  const shown = (await waitFor('the recognised cue on screen', async () => {
    const [t, box] = await Promise.all([tab.evaluate(() => document.querySelector('video')!.currentTime), cueBox(tab)]);
    return box.length && box[0].text === young.text.replace(/\n/g, '\n') && t * 1000 >= young.startMs && t * 1000 < young.endMs ? box : null;
  }, 30_000, 50))!;
  expect(shown[0]).toEqual({ text: young.text, dir: 'auto', lang: 'en', kids: 0 });
  await tab.evaluate(() => document.querySelector('video')!.pause());
  const box = (await tab.locator('.vs-box').boundingBox())!;
  const file = join(SHOTS, 'captions-speech-en.png');
  await tab.screenshot({ path: file, clip: { x: box.x, y: box.y, width: box.width, height: box.height } });
  expect(statSync(file).size).toBeGreaterThan(5000);
  console.log(`on screen at ${(young.startMs / 1000).toFixed(2)}-${(young.endMs / 1000).toFixed(2)} s: ${JSON.stringify(young.text)} (${file})`);
  await tab.close();
}, 120_000);

test('Hebrew: a right-to-left cue box, hostile text shown as text; the choice is remembered for the next video, and Off too', async () => {
  const ctx = await browser.newContext({ viewport: { width: 656, height: 400 } });
  try {
    const tab = await ctx.newPage();
    await tab.goto(`http://127.0.0.1:${site.port}/?lang=he`);
    await tab.waitForSelector('.vs-big');
    await tab.click('.vs-big');
    await tab.waitForSelector('button[data-vs=cc]:not([hidden])', { timeout: 30_000 });
    await pickByKeyboard(tab, 'עברית');
    const box = (await waitFor('Hebrew cue', async () => { const b = await cueBox(tab); return b.length ? b : null; }, 30_000, 50))!;
    expect(box).toEqual([{ text: '\u200fwindow.pwned=1שלום עולם & (מבחן)', dir: 'rtl', lang: 'he', kids: 0 }]);
    expect(await tab.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await tab.evaluate(() => document.querySelectorAll('.vs-cues script, .vs-cues b').length)).toBe(0);
    expect(await tab.evaluate(() => getComputedStyle(document.querySelector('.vs-cue')!).direction)).toBe('rtl');
    await tab.evaluate(() => document.querySelector('video')!.pause());
    const r = (await tab.locator('.vs-box').boundingBox())!;
    await tab.screenshot({ path: join(SHOTS, 'captions-he-rtl.png'), clip: { x: r.x, y: r.y, width: r.width, height: r.height } });
    expect((await changes(tab)).at(-1)).toEqual({ track: 'he', label: 'עברית' });
    // The next page load (another video for the viewer) starts with Hebrew on, without a click on the menu.
    await tab.reload();
    await tab.waitForSelector('.vs-big');
    await tab.click('.vs-big');
    await waitFor('remembered Hebrew', async () => ((await changes(tab)).some((c) => c.track === 'he') ? true : null), 30_000, 50);
    await waitFor('Hebrew cue again', async () => ((await cueBox(tab)).some((b) => b.dir === 'rtl') ? true : null), 30_000, 50);
    // Off is remembered as well.
    await pickByKeyboard(tab, 'כבויות');
    expect((await changes(tab)).at(-1)).toEqual({ track: null, label: null });
    expect(await cueBox(tab)).toEqual([]);
    await tab.reload();
    await tab.waitForSelector('.vs-big');
    await tab.click('.vs-big');
    await tab.waitForSelector('button[data-vs=cc]:not([hidden])', { timeout: 30_000 });
    await waitFor('played past 1 s', () => tab.evaluate(() => (document.querySelector('video')!.currentTime > 1 ? true : null)), 30_000, 50);
    expect(await cueBox(tab)).toEqual([]);
    expect(await changes(tab)).toEqual([]);
  } finally { await ctx.close(); }
}, 150_000);
