/**
 * Studio integrations: an inbound hook is created and its secret shown once (and it signs a real call); the events
 * inbox shows a webhook test ping and a server event as they happen, filters by type, counts unread; in Hebrew too.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { Browser } from 'playwright-core';
import { createHmac } from 'node:crypto';
import { waitFor, type TestServer } from '../helpers/server';
import { startReceiver, type Receiver } from './webhooks-receiver';
import { expectRtl, shot, startStudio, studioTab } from './studio-helpers';
import { emitEvent } from '../../src/kernel/events/outbox';
import { tx } from '../../src/kernel/db/sqlite';
import { identityService } from '../../src/features/identity/service';

let s: TestServer;
let browser: Browser;
let rx: Receiver;
beforeAll(async () => { ({ s, browser } = await startStudio()); rx = startReceiver(); }, 60_000);
afterAll(async () => { await browser?.close(); rx?.stop(); await s?.stop(); }, 60_000);

test('inbound hook: the address and secret are shown once, the secret signs a real call, the list keeps only a hint; delete', async () => {
  const page = await studioTab(browser, s);
  page.on('dialog', (d) => void d.accept());
  try {
    await page.click('a[href="/studio/integrations"]');
    await page.fill('#hook-path', 'article.videos.*.ref');
    await page.click('#hook-form button[type=submit]');
    await page.waitForSelector('#new-hook');
    const values = await page.locator('#new-hook .copy-value').allTextContents();
    const address = values.find((v) => v.includes('/v1/hooks/'))!, secret = values.find((v) => v.startsWith('hksec_'))!;
    expect(address).toBeTruthy();
    expect(secret).toBeTruthy();
    await shot(page, 'integrations-hook-en');
    // The content system calls the address signed with that secret.
    const body = JSON.stringify({ article: { videos: [{ ref: 'not-in-library' }] } });
    const ts = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
    const r = await fetch(`${s.url}${new URL(address).pathname}`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-vs-timestamp': String(ts), 'x-vs-signature': `sha256=${sig}`, 'x-vs-delivery': 'studio-1' } });
    expect(r.status).toBe(200);
    expect((await r.json() as { unknown: string[] }).unknown).toEqual(['not-in-library']);
    // Done: the secret is gone from the page for good (also after a reload); the list shows the hint.
    await page.click('#hook-done');
    await page.waitForSelector('#new-hook', { state: 'detached' });
    await page.waitForSelector('#hooks >> text=article.videos.*.ref');
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.waitForSelector('#hooks >> text=article.videos.*.ref');
    expect(await page.content()).not.toContain(secret);
    await page.click('#hooks button.danger');
    await page.waitForSelector('#hooks', { state: 'detached' });
    expect((await fetch(`${s.url}${new URL(address).pathname}`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-vs-timestamp': String(ts), 'x-vs-signature': `sha256=${sig}`, 'x-vs-delivery': 'studio-2' } })).status).toBe(404);
  } finally { await page.context().close(); }
}, 120_000);

test('events inbox: a test ping and a server event arrive live, newest first; filter by type; unread and mark read; Hebrew', async () => {
  const wh = await (await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['*'] })).json() as { id: string };
  expect(wh.id).toBeTruthy();
  const page = await studioTab(browser, s);
  try {
    await page.click('a[href="/studio/integrations"]');
    await page.waitForSelector('#inbox-title');
    await page.waitForSelector('#webhooks');
    // Mark whatever is there as read, so only what happens now counts as unread.
    if (await page.isEnabled('#inbox-read')) await page.click('#inbox-read');
    // The person sends a test ping from the webhooks panel: it shows in the inbox without a reload.
    await page.click('#webhooks .hook button.small >> nth=0');
    await page.waitForSelector('#inbox li[data-type=ping]', { timeout: 30_000 });
    await waitFor('the ping delivered', () => rx.received.some((x) => x.body.type === 'ping'), 30_000);
    // Something happens on the server: it arrives on top.
    const tenant = identityService(s.ctx).tenant('default').id;
    tx(s.ctx.db, () => emitEvent(s.ctx.db, tenant, 'clip.ready', { clip: 'studio-inbox-clip', precision: 'segment', status: 'ready' }));
    // The line says what happened in words (the ids are in its details).
    await page.waitForSelector('#inbox li[data-type="clip.ready"] >> text=Clip ready', { timeout: 30_000 });
    expect(await page.getAttribute('#inbox li >> nth=0', 'data-type')).toBe('clip.ready');
    expect(await page.textContent('#inbox-unread')).toContain('2');
    await page.click('#inbox li[data-type="clip.ready"] button');
    expect(await page.textContent('#inbox .i-data')).toContain('"precision": "segment"');
    expect(await page.textContent('#inbox .i-data')).toContain('studio-inbox-clip');
    await page.evaluate(() => { document.querySelector('#inbox-title')!.scrollIntoView({ block: 'start' }); window.scrollBy(0, -70); });
    await shot(page, 'integrations-en');
    // Filter: only pings (from the API), and a new clip event does not slip in.
    await page.selectOption('#inbox-type', 'ping');
    await waitFor('only pings', async () => { const types = await page.$$eval('#inbox li', (ls) => ls.map((l) => l.getAttribute('data-type'))); return types.length > 0 && types.every((x) => x === 'ping'); }, 20_000, 100);
    tx(s.ctx.db, () => emitEvent(s.ctx.db, tenant, 'clip.ready', { clip: 'filtered-out' }));
    await page.click('#webhooks .hook button.small >> nth=0');
    await waitFor('a second ping', async () => (await page.locator('#inbox li[data-type=ping]').count()) >= 2, 30_000, 100);
    expect(await page.locator('#inbox >> text=filtered-out').count()).toBe(0);
    await page.click('#inbox-read');
    await page.waitForSelector('#inbox-unread', { state: 'detached' });
  } finally { await page.context().close(); }

  const he = await studioTab(browser, s, { lang: 'he' });
  try {
    await he.click('a[href="/studio/integrations"]');
    await he.waitForSelector('#inbox li[data-type="clip.ready"]');
    await expectRtl(he);
    expect(await he.textContent('#inbox-title')).toContain('תיבת אירועים');
    expect(await he.textContent('#hooks-title')).toBe('קריאות נכנסות');
    tx(s.ctx.db, () => emitEvent(s.ctx.db, identityService(s.ctx).tenant('default').id, 'asset.ready', { asset: 'he-live-asset', status: 'ready' }));
    await he.waitForSelector('#inbox li[data-type="asset.ready"] >> text=הסרטון מוכן', { timeout: 30_000 });
    await he.waitForSelector('#inbox li[data-type="asset.ready"] >> text=סרטון שכבר אינו בספרייה'); // an id that names no video
    await he.click('#inbox li[data-type="asset.ready"] button');
    await he.evaluate(() => { document.querySelector('#inbox-title')!.scrollIntoView({ block: 'start' }); window.scrollBy(0, -70); });
    await shot(he, 'integrations-he');
  } finally { await he.context().close(); }
}, 180_000);
