import { afterAll, beforeAll, expect, test } from 'bun:test';
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { waitFor, type TestServer } from '../helpers/server';
import { PART_SIZE } from '../../src/features/uploads/model';
import { startStudio, studioTab } from './studio-helpers';

let s: TestServer;
let browser: Browser;
let big: string;
beforeAll(async () => {
  ({ s, browser } = await startStudio({ workers: false }));
  // Two parts: a full 64 MiB part and a short second one (sparse file, a few marker bytes).
  big = join(s.dataDir, 'two-parts.mp4');
  const fd = openSync(big, 'w');
  ftruncateSync(fd, PART_SIZE + 300_000);
  writeSync(fd, Buffer.from('first part'), 0, 10, 0);
  writeSync(fd, Buffer.from('second part'), 0, 11, PART_SIZE + 5);
  closeSync(fd);
}, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

const partOf = (url: string) => /\/parts\/(\d+)/.exec(url)?.[1];

test('a part whose connection drops is sent again; after a page reload the same file resumes without resending finished parts', async () => {
  const page = await studioTab(browser, s);
  try {
    const sent: string[] = [];
    page.on('request', (r) => { if (r.method() === 'PUT' && partOf(r.url())) sent.push(partOf(r.url())!); });
    // Part 2 never gets through: the first time its connection drops, later it hangs until the page goes away.
    let drops = 0;
    await page.route(/\/v1\/uploads\/[^/]+\/parts\/2/, async (route) => { if (drops++ === 0) await route.abort('connectionreset'); });
    await page.goto(`${s.url}/studio/library`);
    await page.setInputFiles('#file-input', big);
    await page.waitForSelector('#uploads li.up-retrying', { timeout: 30_000 });
    // Part 1 finished (remembered in the page's storage) while part 2 was dropped and is being tried again.
    await waitFor('part 1 done and part 2 tried again', async () => drops >= 2 && await page.evaluate(() => {
      const k = Object.keys(localStorage).find((x) => x.startsWith('vs_up:two-parts.mp4:'));
      return !!k && !!JSON.parse(localStorage.getItem(k)!).done['1'];
    }), 60_000, 100);
    expect(await page.textContent('#uploads li')).toContain('two-parts.mp4');

    // Reload in the middle (the held part 2 goes with the old page, so unrouting cannot let it through); the person drops the same file again.
    await page.reload();
    await page.waitForSelector('#drop');
    await page.unroute(/\/v1\/uploads\/[^/]+\/parts\/2/);
    await page.setInputFiles('#file-input', big);
    await page.waitForSelector('#uploads li.up-done', { timeout: 60_000 });
    expect(await page.textContent('#uploads li')).toMatch(/resumed/);
    expect(sent.filter((n) => n === '1').length).toBe(1); // the finished part was not sent again
    const items = (await (await s.api('GET', '/v1/assets')).json() as { items: { title: string; status: string }[] }).items;
    expect(items.filter((a) => a.title === 'two-parts')).toHaveLength(1);
  } finally { await page.context().close(); }
}, 180_000);
