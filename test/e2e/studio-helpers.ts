import type { Browser, Page } from 'playwright-core';
import { expect } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { PeopleService } from '../../src/features/people/service';
import { createMailer } from '../../src/kernel/mail';
import { identityService } from '../../src/features/identity/service';
import { launch } from './player-helpers';

/** The owner person every studio test signs in as. */
export const OWNER = { email: 'studio-owner@example.com', password: 'studio owner passphrase', name: 'Dana Editor' };

/** A server (loopback webhooks allowed) with a studio owner, and Chromium. */
export async function startStudio(o: { workers?: boolean; env?: Record<string, string> } = {}): Promise<{ s: TestServer; browser: Browser }> {
  const s = await startTestServer({ workers: o.workers, env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32', ...o.env } });
  const def = identityService(s.ctx).tenant('default');
  await new PeopleService(s.ctx, createMailer(s.ctx.config, s.ctx.log)).createUser({ ...OWNER, tenantId: def.id, role: 'owner' });
  const browser = await launch();
  return { s, browser };
}

/** A new tab at 1280×720 (phone: 390×844; or `viewport`) in a language; signs in through the form unless `signIn: false`. */
export async function studioTab(browser: Browser, s: TestServer, o: { lang?: 'en' | 'he'; phone?: boolean; signIn?: boolean; viewport?: { width: number; height: number } } = {}): Promise<Page> {
  const ctx = await browser.newContext({
    viewport: o.viewport ?? (o.phone ? { width: 390, height: 844 } : { width: 1280, height: 720 }),
    locale: o.lang === 'he' ? 'he-IL' : 'en-GB', extraHTTPHeaders: { 'accept-language': o.lang === 'he' ? 'he' : 'en' },
  });
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  if (o.signIn === false) return page;
  await page.goto(`${s.url}/`);
  await page.waitForURL(/\/studio\/sign-in/);
  await page.fill('#email', OWNER.email);
  await page.fill('#password', OWNER.password);
  await page.click('#signin');
  await page.waitForSelector('nav.side');
  return page;
}

/** Checks the page reads right-to-left: html dir, and the side navigation drawn on the right of the main area. */
export async function expectRtl(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
  const side = await page.locator('nav.side').boundingBox();
  const main = await page.locator('main').boundingBox();
  expect(side!.x).toBeGreaterThan(main!.x);
}

/** Checks the page reads left-to-right with the navigation on the left. */
export async function expectLtr(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
  const side = await page.locator('nav.side').boundingBox();
  const main = await page.locator('main').boundingBox();
  expect(side!.x).toBeLessThan(main!.x);
}

/** Saves a screenshot under docs/studio/ (only with VS_STUDIO_SHOTS=1, so ordinary runs leave the tree alone). */
export async function shot(page: Page, name: string): Promise<void> {
  if (process.env.VS_STUDIO_SHOTS !== '1') return;
  const dir = join(import.meta.dir, '../../docs/studio');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}
