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

/**
 * What sticks out of a studio page: the page wider than the window, a card (`main .panel`) outside the window, or
 * anything drawn inside a card (values, labels, buttons, graphs and their legends) outside the card (inside a box that
 * clips or scrolls only that box counts), or a value of a `dl.kv` away from its label. Empty when everything fits.
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const de = document.documentElement;
    const vw = de.clientWidth;
    const name = (e: Element) => (e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}${Array.from(e.classList).map((c) => `.${c}`).join('')}`);
    if (de.scrollWidth > vw) out.push(`page scrollWidth ${de.scrollWidth} > clientWidth ${vw}`);
    for (const card of Array.from(document.querySelectorAll('main .panel'))) {
      const c = card.getBoundingClientRect();
      if (c.left < -0.5 || c.right > vw + 0.5) out.push(`${name(card)} spans ${Math.round(c.left)}..${Math.round(c.right)}, window 0..${vw}`);
      for (const el of Array.from(card.querySelectorAll('*'))) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
        // Inside a box that clips or scrolls, only that box counts (it is checked itself).
        let clipped = false;
        for (let a = el.parentElement; a && a !== card; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') { clipped = true; break; }
        if (clipped) continue;
        if (r.left < c.left - 0.5 || r.right > c.right + 0.5) out.push(`${name(el)} in ${name(card)}: ${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(c.left)}..${Math.round(c.right)}`);
      }
      // A value starts where its label's column ends (the inline start of its cell), not at the far side of the cell.
      const rtl = getComputedStyle(card).direction === 'rtl';
      for (const dd of Array.from(card.querySelectorAll('dl.kv > dd'))) {
        const box = dd.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(dd);
        const txt = range.getBoundingClientRect();
        if (!txt.width || !box.width) continue;
        const gap = rtl ? box.right - txt.right : txt.left - box.left;
        if (gap > 2) out.push(`value "${dd.textContent}" in ${name(card)} starts ${Math.round(gap)} px away from its label`);
      }
    }
    return out;
  });
}
