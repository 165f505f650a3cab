import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor, type TestServer } from '../helpers/server';
import { launch, pageServer, playsPast, serverWithAsset } from './player-helpers';
import { NAMED_SKIN_NAMES } from '../../assets-ui/player/skins';
import { LIBRARY_SKINS } from '../../src/features/player/skins';

/**
 * Screenshots of every named skin (LTR English and RTL Hebrew) and a grid of library skins for docs/player.md: written
 * to docs/player/ only with VS_PLAYER_SHOTS=1 (refreshing the docs on purpose); ordinary runs use a temp folder.
 */
const SHOTS = process.env.VS_PLAYER_SHOTS === '1' ? 'docs/player' : mkdtempSync(join(tmpdir(), 'vs-player-shots-'));
let s: TestServer;
let browser: Browser;
let site: ReturnType<typeof Bun.serve>;
let hls: string;
beforeAll(async () => {
  const r = await serverWithAsset(8);
  s = r.s;
  hls = ((await (await s.api('GET', `/v1/assets/${r.asset}`)).json()) as { playback: { hls: string } }).playback.hls;
  site = pageServer((u) => {
    const skins = (u.searchParams.get('skins') ?? 'classic').split(',');
    const lang = u.searchParams.get('lang') ?? 'en';
    const cols = skins.length > 1 ? 'display:grid;grid-template-columns:repeat(5,300px);gap:8px;' : 'width:640px;';
    return `<!doctype html><html lang="${lang}"><body style="margin:0;padding:8px;background:#e5e7eb"><div style="${cols}">${skins.map((k) => `<div><script src="${s.url}/embed.js" data-src="${hls}" data-skin="${k}" data-lang="${lang}" data-title="${skins.length > 1 ? k : `ViewStream — ${k}`}" data-resume="off" data-options='${JSON.stringify({ chapters: [{ start: 0, title: 'A' }, { start: 4, title: 'B' }], ads: { cues: [6] } })}'></script></div>`).join('')}</div></body></html>`;
  });
  browser = await launch();
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close(); site?.stop(true); await s?.stop();
  if (SHOTS !== 'docs/player') rmSync(SHOTS, { recursive: true, force: true });
}, 60_000);

test('named skins, left to right and right to left', async () => {
  for (const skin of NAMED_SKIN_NAMES) for (const lang of ['en', 'he']) {
    const tab = await browser.newPage({ viewport: { width: 656, height: 376 } });
    await tab.goto(`http://127.0.0.1:${site.port}/?skins=${skin}&lang=${lang}`);
    await tab.waitForSelector('.vs-big');
    await tab.click('.vs-big');
    await playsPast(tab, 2.2);
    await tab.evaluate(() => document.querySelector('video')!.pause());
    await waitFor('skin applied', () => tab.evaluate((k) => (document.querySelector('.vs-box') as HTMLElement).dataset.skin === k, skin), 5000, 50);
    const box = (await tab.locator('.vs-box').boundingBox())!;
    await tab.mouse.move(box.x + box.width * 0.4, box.y + box.height - 30); // controls shown, seek preview visible
    const file = join(SHOTS, `${skin}-${lang === 'he' ? 'rtl' : 'ltr'}.png`);
    await tab.screenshot({ path: file, clip: { x: box.x, y: box.y, width: box.width, height: box.height } });
    expect(statSync(file).size).toBeGreaterThan(5000);
    await tab.close();
  }
}, 240_000);

test('library skins grid (20 of the 100: every palette with two different shapes)', async () => {
  const pick = LIBRARY_SKINS.filter((_, i) => { const p = Math.floor(i / 10), sh = i % 10; return sh === (p * 3) % 10 || sh === (p * 3 + 5) % 10; }).map((k) => k.name);
  const tab = await browser.newPage({ viewport: { width: 1560, height: 900 } });
  await tab.goto(`http://127.0.0.1:${site.port}/?skins=${pick.join(',')}`);
  await waitFor('all skins applied', () => tab.evaluate((n) => Array.from(document.querySelectorAll('.vs-box')).filter((b) => (b as HTMLElement).dataset.skin).length === n, pick.length), 30_000, 100);
  await tab.screenshot({ path: join(SHOTS, 'library-grid.png'), fullPage: true });
  await tab.close();
}, 120_000);
