/**
 * Studio catch-up and clips: SRT is pushed and recorded, a programme covers the recording; a person puts it on the
 * timeline, sees the filmstrip from the recording, drags the in/out handles (snapping to the programme start, then
 * to frames), previews, cuts the clip and watches it; publishes the programme to the library and follows its
 * progress to ready. Again in Hebrew (right to left; the timeline still runs left to right).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv } from './live-helpers';
import { at, recordChannel } from './catchup-helpers';
import { expectRtl, shot, startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
let ch: { id: string; slug: string };
let prog: { id: string; start: number; end: number };
beforeAll(async () => {
  ({ s, browser } = await startStudio({ env: await liveEnv() }));
  const r = await recordChannel(s, 'Studio clips', 10, 3);
  ch = r.ch;
  await r.pusher.exited;
  await waitFor('recording settles', async () => { const n = r.segs().length; await Bun.sleep(700); return n >= 3 && r.segs().length === n; }, 30_000);
  const rec = r.segs();
  const start = rec[0].start_ms, end = rec[rec.length - 1].start_ms + rec[rec.length - 1].duration_ms;
  const p = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Evening news', start_at: at(start), end_at: at(end) })).json() as { id: string };
  prog = { id: p.id, start, end };
}, 120_000);
afterAll(async () => { await killPushers(); await browser?.close(); await s?.stop(); }, 60_000);

const value = async (page: Page, sel: string) => Number(await page.getAttribute(sel, 'aria-valuenow'));

/** Drags a handle with the mouse to a share (0-1) of the timeline's width. */
async function drag(page: Page, handle: string, share: number): Promise<void> {
  const track = (await page.locator('#timeline').boundingBox())!;
  const h = (await page.locator(handle).boundingBox())!;
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width * share, h.y + h.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** Opens the clips page, puts the programme on the timeline and waits for every filmstrip frame to load. */
async function onTimeline(page: Page): Promise<void> {
  await page.goto(`${s.url}/studio/clips?channel=${ch.slug}`);
  await page.click(`#programmes tr[data-id="${prog.id}"] .c-focus`);
  await waitFor('the filmstrip frames', () => page.evaluate(() => {
    const imgs = Array.from(document.querySelectorAll<HTMLImageElement>('#filmstrip img'));
    return imgs.length >= 3 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }), 90_000, 250);
}

/** Waits until the video in `host` plays. */
async function plays(page: Page, host: string): Promise<void> {
  await page.waitForSelector(`${host} video`, { timeout: 30_000 });
  await waitFor(`${host} plays`, () => page.evaluate((h) => {
    const v = document.querySelector<HTMLVideoElement>(`${h} video`);
    if (v?.paused) void v.play().catch(() => {});
    return (v?.currentTime ?? 0) > 0.3;
  }, host), 60_000, 250);
}

test('English: filmstrip, drag in/out with snapping, preview, cut and watch; publish to the library with progress to ready', async () => {
  const page = await studioTab(browser, s);
  try {
    await onTimeline(page);
    expect(await value(page, '#h-in')).toBe(prog.start);
    expect(Number(await page.getAttribute('#timeline', 'data-frames'))).toBeGreaterThanOrEqual(3);
    const fps = Number(await page.getAttribute('#timeline', 'data-fps'));
    expect(fps).toBeGreaterThan(10);

    // Segment precision (the default): handles land on segment boundaries, where the server will cut.
    const grid = (await page.getAttribute('#timeline', 'data-segments'))!.split(',').map(Number);
    expect(grid.length).toBeGreaterThanOrEqual(4);
    await drag(page, '#h-in', 0.25);
    expect(grid).toContain(await value(page, '#h-in'));
    expect(await value(page, '#h-in')).toBeGreaterThan(prog.start);

    // Snap to programme boundaries: the in handle dragged near the programme start lands exactly on it.
    await page.check('#snap-programme');
    const track = (await page.locator('#timeline').boundingBox())!;
    const h = (await page.locator('#h-in').boundingBox())!;
    const startX = (await page.evaluate(() => (document.querySelector('.c-mark') as HTMLElement).getBoundingClientRect().left));
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(startX + track.width * 0.02, h.y + h.height / 2, { steps: 6 });
    await page.mouse.up();
    expect(await value(page, '#h-in')).toBe(prog.start);

    // Frame precision, snapping to frames: in at 30 %, out at 75 %; the arrow key moves one frame.
    await page.check('input[name=snap][value=frame]');
    await page.selectOption('#clip-precision', 'frame');
    expect(await page.getAttribute('#timeline', 'data-segments')).toBeNull();
    await drag(page, '#h-in', 0.3);
    await drag(page, '#h-out', 0.75);
    const fIn = await value(page, '#h-in'), fOut = await value(page, '#h-out');
    expect(fIn).toBeGreaterThan(prog.start);
    expect(fOut).toBeLessThan(prog.end);
    expect(await page.textContent('#clip-length')).toBe(`${((fOut - fIn) / 1000).toFixed(2)} s`);
    await page.focus('#h-in');
    await page.keyboard.press('ArrowRight');
    expect(Math.abs(await value(page, '#h-in') - fIn - 1000 / fps)).toBeLessThanOrEqual(1);

    // Back to segment precision for a clip that is ready at once: both handles on boundaries.
    await page.selectOption('#clip-precision', 'segment');
    await drag(page, '#h-in', 0.3);
    await drag(page, '#h-out', 0.75);
    const cutIn = await value(page, '#h-in'), cutOut = await value(page, '#h-out');
    expect(grid).toContain(cutIn);
    expect(grid).toContain(cutOut);
    expect(cutOut).toBeGreaterThan(cutIn);
    await page.focus('#h-out');
    await page.keyboard.press('ArrowLeft');
    expect(await value(page, '#h-out')).toBe(grid[grid.indexOf(cutOut) - 1]);
    await page.keyboard.press('ArrowRight');
    expect(await value(page, '#h-out')).toBe(cutOut);

    await page.click('#preview');
    await plays(page, '#preview-player');

    await page.fill('#clip-title', 'Timeline clip');
    await page.click('#clip-form button[type=submit]');
    await page.waitForSelector('#clips >> text=Timeline clip');
    await plays(page, '#clip-player');
    // One player at a time: the new clip replaces the preview (before: both played at once).
    expect(await page.locator('#preview-player').count()).toBe(0);
    await waitFor('one player playing', () => page.evaluate(() => Array.from(document.querySelectorAll('video')).filter((v) => !v.paused).length === 1), 10_000, 100);
    const clips = await (await s.api('GET', '/v1/clips')).json() as { items: { title: string; start_at: string; end_at: string }[] };
    const c = clips.items.find((x) => x.title === 'Timeline clip')!;
    expect([Date.parse(c.start_at), Date.parse(c.end_at)]).toEqual([cutIn, cutOut]);

    // Publish the programme to the library and follow it to ready.
    await page.click(`#programmes tr[data-id="${prog.id}"] .c-publish`);
    const box = `#vod-${prog.id}`;
    await page.waitForSelector(box);
    const seen = new Set<string>();
    await waitFor('published', async () => {
      const st = (await page.getAttribute(box, 'data-state')) ?? '';
      seen.add(st);
      if (st === 'failed') throw new Error(await page.textContent(box) ?? 'failed');
      return st === 'published';
    }, 120_000, 200);
    expect(seen.has('remux') || seen.has('library')).toBe(true);
    expect(await page.getAttribute(`${box} progress`, 'value')).toBe('100');
    await page.waitForSelector(`${box} a.c-open`);
    // "Publish to the library" publishes the new video (before: the programme said published, the video was a draft).
    expect(await page.textContent(box)).toContain('Published in the library');
    const libId = (await page.getAttribute(`${box} a.c-open`, 'href'))!.split('/').pop()!;
    expect(((await (await s.api('GET', `/v1/assets/${libId}`)).json()) as { published: boolean }).published).toBe(true);
    await shot(page, 'clips-en');
    await page.click(`${box} a.c-open`);
    await page.waitForURL(/\/studio\/library\//);
  } finally { await page.context().close(); }
}, 300_000);

test('Hebrew: right to left, the timeline still runs left to right; drag the handles and cut', async () => {
  const page = await studioTab(browser, s, { lang: 'he' });
  try {
    await onTimeline(page);
    await expectRtl(page);
    expect(await page.textContent('#progs-title')).toBe('תוכניות מוקלטות');
    await page.waitForSelector(`#vod-${prog.id}[data-state=published]`);
    expect(await page.textContent(`#vod-${prog.id}`)).toContain('בספרייה');
    const track = (await page.locator('#timeline').boundingBox())!;
    expect(await page.evaluate(() => document.querySelector('#timeline')!.getAttribute('dir'))).toBe('ltr');
    await drag(page, '#h-in', 0.4);
    await drag(page, '#h-out', 0.8);
    const a = await value(page, '#h-in'), b = await value(page, '#h-out');
    expect(a).toBeGreaterThan(prog.start);
    expect(b).toBeGreaterThan(a);
    // Later times are further right in Hebrew too.
    expect((await page.locator('#h-out').boundingBox())!.x).toBeGreaterThan((await page.locator('#h-in').boundingBox())!.x);
    expect(track.width).toBeGreaterThan(300);
    await page.fill('#clip-title', 'קליפ מהציר');
    await page.click('#clip-form button[type=submit]');
    await page.waitForSelector('#clips >> text=קליפ מהציר');
    await plays(page, '#clip-player');
    await shot(page, 'clips-he');
  } finally { await page.context().close(); }
}, 240_000);
