import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { TestServer } from '../helpers/server';
import { startStudio, studioTab } from './studio-helpers';

// A person moving quickly between studio pages can exceed the per-person rate limit: the studio must then wait as the
// 429 answer says and finish the page, not stay on "loading" (seen when the whole studio was walked in a few seconds).
let s: TestServer;
let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'vs-studio-rl-'));
beforeAll(async () => {
  const cfg = join(dir, 'tight.yml');
  writeFileSync(cfg, 'rate_limit: { per_second: 3, burst: 6 }\n');
  ({ s, browser } = await startStudio({ workers: false, env: { VS_CONFIG: cfg } }));
}, 60_000);
afterAll(async () => { await browser?.close(); await s?.stop(); rmSync(dir, { recursive: true, force: true }); }, 60_000);

test('pages refused with 429 are finished after Retry-After (dashboard, library, delivery in a row)', async () => {
  const page = await studioTab(browser, s, { lang: 'en' });
  let refused = 0;
  page.on('response', (r) => { if (r.status() === 429) refused++; });
  try {
    for (const p of ['/studio/', '/studio/library', '/studio/delivery', '/studio/']) {
      await page.goto(`${s.url}${p}`);
      await page.waitForSelector('#page-title');
      await page.waitForFunction(() => !document.querySelector('.state.loading'), undefined, { timeout: 30_000 });
      expect(await page.locator('.state.error, [role=alert]').count()).toBe(0);
    }
    expect(refused).toBeGreaterThan(0); // the limit was really reached
  } finally { await page.context().close(); }
}, 120_000);
