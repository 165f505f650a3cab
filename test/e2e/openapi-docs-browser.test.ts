import { afterAll, beforeAll, expect, test } from 'bun:test';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
let s: TestServer;
let browser: Browser;

beforeAll(async () => {
  s = await startTestServer({ workers: false });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, timeout: 30_000 });
}, 60_000);
afterAll(async () => { await browser?.close(); await s.stop(); });

test('/docs/ renders the reference offline and "Test Request" calls the API with the bearer key', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const outside: string[] = [];
  const calls: { url: string; auth: string }[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(s.url)) outside.push(r.url());
    if (r.url().includes('/v1/me')) calls.push({ url: r.url(), auth: r.headers().authorization ?? '' });
  });
  await page.goto(`${s.url}/docs/`);
  await page.waitForSelector('text=Identity', { timeout: 30_000 });
  await page.fill('input[placeholder="Token"]', s.key);
  await page.click('text=Identity');
  await page.click('text=Who am I');
  await page.locator('[id$="tag/identity/GET/v1/me"]').getByText('Test Request').first().click();
  await page.getByRole('button', { name: /Send/ }).first().click();
  await page.waitForSelector('text=200 OK', { timeout: 15_000 });
  expect(calls.at(-1)).toEqual({ url: `${s.url}/v1/me`, auth: `Bearer ${s.key}` });
  expect(outside).toEqual([]);
  await page.close();
}, 90_000);

test('/docs/he/ is the Hebrew right-to-left reference built on the Hebrew document', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const outside: string[] = [];
  page.on('request', (r) => { if (!r.url().startsWith(s.url)) outside.push(r.url()); });
  await page.goto(`${s.url}/docs/he/`);
  await page.waitForSelector('text=העלאות', { timeout: 30_000 });
  await page.click('text=העלאות');
  await page.waitForSelector('text=התחלת העלאה מרובת חלקים', { timeout: 15_000 });
  expect(await page.getAttribute('html', 'dir')).toBe('rtl');
  expect(await page.getAttribute('html', 'lang')).toBe('he');
  expect(await page.locator('text=כתובות הפצה').count()).toBeGreaterThan(0);
  expect(outside).toEqual([]);
  await page.close();
}, 90_000);
