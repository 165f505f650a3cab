import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { ManualClock } from '../../src/kernel/clock';
import { tx } from '../../src/kernel/db/sqlite';
import { emitEvent } from '../../src/kernel/events/outbox';
import { WebhookDispatcher } from '../../src/features/webhooks/dispatcher';
import { startRawReceiver, startReceiver } from './webhooks-receiver';
import { identityService } from '../../src/features/identity/service';

/** A fresh owner key on a restarted appliance (the bootstrap key is only printed on first start). */
function ownerKey(x: TestServer, tenantId: string): string {
  return identityService(x.ctx).createKey(tenantId, { role: 'owner' }).key;
}

const ENV = { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' };
const clock = new ManualClock(Date.parse('2031-05-05T00:00:00Z'));
let s: TestServer;
let d: WebhookDispatcher;
let tenant: string;
const cleanup: (() => void)[] = [];

beforeAll(async () => {
  s = await startTestServer({ env: ENV, clock, workers: false });
  d = new WebhookDispatcher(s.ctx, { timeoutMs: 600 });
  tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
});
afterAll(async () => { for (const c of cleanup) c(); await d.stop(); await s.stop(); });

async function endpoint(url: string, type: string): Promise<string> {
  const r = await s.api('POST', '/v1/webhooks', { url, events: [type] });
  expect(r.status).toBe(201);
  return (await r.json() as { id: string }).id;
}
async function only(id: string) {
  const items = (await (await s.api('GET', `/v1/webhooks/${id}/deliveries`)).json() as { items: Record<string, any>[] }).items;
  expect(items.length).toBe(1);
  return items[0];
}

test('500, timeout, reset, redirect and a dripping receiver each fail and are scheduled for +10 s', async () => {
  const hang = startReceiver(() => new Promise<Response>(() => {}));
  const target = startReceiver();
  const redirect = startReceiver(() => new Response(null, { status: 302, headers: { location: target.url } }));
  const err = startReceiver(() => new Response('boom', { status: 500 }));
  const reset = await startRawReceiver('reset');
  const drip = await startRawReceiver('drip');
  cleanup.push(hang.stop, target.stop, redirect.stop, err.stop, reset.stop, drip.stop);
  const cases = [
    { name: 'timeout', url: hang.url, type: 'clip.ready', code: null, error: /no answer within 600 ms/ },
    { name: 'redirect', url: redirect.url, type: 'clip.final', code: 302, error: /redirect 302 not followed/ },
    { name: '500', url: err.url, type: 'policy.changed', code: 500, error: /HTTP 500/ },
    { name: 'reset', url: reset.url, type: 'epg.published', code: null, error: /./ },
    { name: 'drip', url: drip.url, type: 'alert.firing', code: null, error: /no answer within 600 ms/ },
  ];
  const ids = [];
  for (const c of cases) ids.push(await endpoint(c.url, c.type));
  tx(s.ctx.db, () => { for (const c of cases) emitEvent(s.ctx.db, tenant, c.type, { case: c.name }); });
  const t0 = clock.now();
  const started = Date.now();
  await d.tick();
  expect(Date.now() - started).toBeLessThan(5000);
  for (const [i, c] of cases.entries()) {
    const row = await only(ids[i]);
    expect(row.status, c.name).toBe('failed');
    expect(row.attempts, c.name).toBe(1);
    expect(row.last_response_code, c.name).toBe(c.code);
    expect(row.last_error, c.name).toMatch(c.error);
    expect(row.next_attempt_at, c.name).toBe(new Date(t0 + 10_000).toISOString());
  }
  expect(hang.received.length).toBe(1);
  expect(redirect.received.length).toBe(1);
  expect(target.received.length).toBe(0); // the redirect was not followed
  expect(reset.hits()).toBe(1);
  expect(drip.hits()).toBe(1);
});

test('a URL that turns private after creation is refused at delivery and nothing reaches it', async () => {
  const rx = startReceiver();
  cleanup.push(rx.stop);
  const dataDir = s.dataDir;
  // Created while 127.0.0.1 was acceptable (stands for a host whose DNS later points at a private address)...
  const lab = await startTestServer({ env: ENV, clock, workers: false, dataDir: `${dataDir}-dns` });
  const id = (await (await lab.api('POST', '/v1/webhooks', { url: rx.url, events: ['asset.ready'] })).json() as { id: string }).id;
  const t = lab.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  await lab.stop();
  // ...then delivered by an appliance whose policy refuses it: the check runs again at every attempt.
  const strict = await startTestServer({ clock, workers: false, dataDir: `${dataDir}-dns` });
  try {
    const sd = new WebhookDispatcher(strict.ctx, { timeoutMs: 600 });
    tx(strict.ctx.db, () => emitEvent(strict.ctx.db, t, 'asset.ready', { asset: 'x' }));
    await sd.tick();
    const row = (await (await strict.api('GET', `/v1/webhooks/${id}/deliveries`, undefined, { key: ownerKey(strict, t) })).json() as { items: Record<string, any>[] }).items[0];
    expect(row.status).toBe('failed');
    expect(row.last_error).toMatch(/^refused: .*127\.0\.0\.1/);
    expect(rx.received.length).toBe(0);
    await sd.stop();
  } finally {
    await strict.stop();
    require('node:fs').rmSync(`${dataDir}-dns`, { recursive: true, force: true });
  }
});

test('one slow endpoint never delays the others', async () => {
  const live = await startTestServer({ env: ENV });
  try {
    const stuck = startReceiver(() => new Promise<Response>(() => {}));
    const fast = startReceiver();
    cleanup.push(stuck.stop, fast.stop);
    for (const u of [stuck.url, fast.url]) expect((await live.api('POST', '/v1/webhooks', { url: u, events: ['clip.ready'] })).status).toBe(201);
    const t = live.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
    for (let i = 0; i < 100; i++) tx(live.ctx.db, () => emitEvent(live.ctx.db, t, 'clip.ready', { clip: `c${i}` }));
    await waitFor('fast receiver gets all 100', () => fast.byDelivery.size === 100, 5000);
    expect(stuck.received.length).toBeGreaterThan(0);
    expect(stuck.received.length).toBeLessThanOrEqual(16); // per-endpoint limit: the stuck one holds only its own slots
  } finally {
    await live.stop();
  }
});

test('the retry schedule survives a restart', async () => {
  const dir = `${s.dataDir}-restart`;
  const rx = startReceiver(() => new Response('down', { status: 503 }));
  cleanup.push(rx.stop);
  const a = await startTestServer({ env: ENV, clock, workers: false, dataDir: dir });
  const id = (await (await a.api('POST', '/v1/webhooks', { url: rx.url, events: ['asset.published'] })).json() as { id: string }).id;
  const t = a.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  tx(a.ctx.db, () => emitEvent(a.ctx.db, t, 'asset.published', { asset: 'p' }));
  const da = new WebhookDispatcher(a.ctx, { timeoutMs: 600 });
  await da.tick();
  clock.advance(10_000);
  await da.tick();
  expect(rx.received.length).toBe(2); // two failures: next retry is +1 min
  await da.stop();
  await a.stop();
  rx.respond = () => new Response('ok');
  const b = await startTestServer({ env: ENV, clock, workers: false, dataDir: dir });
  try {
    const db = new WebhookDispatcher(b.ctx, { timeoutMs: 600 });
    clock.advance(59_000);
    await db.tick();
    expect(rx.received.length).toBe(2);
    clock.advance(1_000);
    await db.tick();
    expect(rx.received.length).toBe(3);
    const row = (await (await b.api('GET', `/v1/webhooks/${id}/deliveries`, undefined, { key: ownerKey(b, t) })).json() as { items: Record<string, any>[] }).items[0];
    expect(row).toMatchObject({ status: 'delivered', attempts: 3 });
    await db.stop();
  } finally {
    await b.stop();
    require('node:fs').rmSync(dir, { recursive: true, force: true });
  }
});
