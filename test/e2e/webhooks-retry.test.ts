import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { ManualClock } from '../../src/kernel/clock';
import { tx } from '../../src/kernel/db/sqlite';
import { emitEvent } from '../../src/kernel/events/outbox';
import { WebhookDispatcher } from '../../src/features/webhooks/dispatcher';
import { startReceiver, verifyLikeACustomer, type Receiver } from './webhooks-receiver';

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let s: TestServer;
let d: WebhookDispatcher;
let rx: Receiver;
let tenant: string;

beforeAll(async () => {
  s = await startTestServer({ env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' }, clock, workers: false });
  d = new WebhookDispatcher(s.ctx, { timeoutMs: 1000 });
  rx = startReceiver(() => new Response('nope', { status: 500 }));
  tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
});
afterAll(async () => { rx.stop(); await d.stop(); await s.stop(); });

async function deliveries(id: string) {
  return (await (await s.api('GET', `/v1/webhooks/${id}/deliveries`)).json() as { items: Record<string, any>[] }).items;
}

test('retry schedule 10 s, 1 min, 5 min, 30 min, 2 h, 12 h, then dead; redeliver keeps the delivery id', async () => {
  const c = await (await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['asset.ready'] })).json() as Record<string, any>;
  // Emitted the way the media engine does: inside the transaction that marks the asset ready.
  const eventId = tx(s.ctx.db, () => emitEvent(s.ctx.db, tenant, 'asset.ready', { asset: 'a1', external_id: 'ext-1', status: 'ready' }));
  const t0 = clock.now();
  await d.tick();
  expect(rx.received.length).toBe(1);
  let [row] = await deliveries(c.id);
  expect(row).toMatchObject({ status: 'failed', attempts: 1, last_response_code: 500, event_id: eventId });
  expect(row.next_attempt_at).toBe(new Date(t0 + 10_000).toISOString());

  const delays = [10_000, 60_000, 300_000, 1_800_000, 7_200_000, 43_200_000];
  for (const [i, delay] of delays.entries()) {
    clock.advance(delay - 1);
    await d.tick();
    expect(rx.received.length, `not before retry ${i + 1}`).toBe(i + 1);
    clock.advance(1);
    await d.tick();
    expect(rx.received.length, `retry ${i + 1} at +${delay} ms`).toBe(i + 2);
  }
  [row] = await deliveries(c.id);
  expect(row).toMatchObject({ status: 'dead', attempts: 7, next_attempt_at: null, last_response_code: 500 });
  clock.advance(7 * 86_400_000);
  await d.tick();
  expect(rx.received.length).toBe(7);

  // One delivery id across all attempts; each attempt is signed with the clock's timestamp at that moment.
  expect(new Set(rx.received.map((r) => r.headers['x-vs-delivery']))).toEqual(new Set([row.id]));
  const stamps = rx.received.map((r) => Number(r.headers['x-vs-timestamp']));
  expect(stamps.slice(1).map((t, i) => (t - stamps[i]) * 1000)).toEqual(delays);
  for (const r of rx.received) expect(verifyLikeACustomer(c.secret, r.headers, r.raw, Number(r.headers['x-vs-timestamp']))).toBe(true);

  rx.respond = () => new Response(null, { status: 204 });
  const re = await s.api('POST', `/v1/webhooks/${c.id}/deliveries/${row.id}/redeliver`);
  expect(re.status).toBe(202);
  expect(await re.json()).toMatchObject({ id: row.id, status: 'pending' });
  await d.tick();
  expect(rx.received.length).toBe(8);
  expect(rx.received[7].headers['x-vs-delivery']).toBe(row.id);
  [row] = await deliveries(c.id);
  expect(row).toMatchObject({ status: 'delivered', attempts: 8, last_response_code: 204 });
  expect((await s.api('POST', `/v1/webhooks/${c.id}/deliveries/00000000-0000-7000-8000-000000000000/redeliver`)).status).toBe(404);
  const dead = await (await s.api('GET', `/v1/webhooks/${c.id}/deliveries?status=dead`)).json() as { items: unknown[] };
  expect(dead.items).toEqual([]);
});

test('a rolled-back change emits nothing; events before an endpoint existed are not sent to it', async () => {
  rx.respond = () => new Response('ok');
  const before = rx.received.length;
  tx(s.ctx.db, () => emitEvent(s.ctx.db, tenant, 'asset.failed', { asset: 'early' }));
  const c = await (await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['*'] })).json() as Record<string, any>;
  expect(() => tx(s.ctx.db, () => {
    emitEvent(s.ctx.db, tenant, 'asset.failed', { asset: 'rolled-back' });
    throw new Error('change failed');
  })).toThrow('change failed');
  tx(s.ctx.db, () => emitEvent(s.ctx.db, tenant, 'asset.failed', { asset: 'a2', external_id: null, status: 'failed', error: 'bad input' }));
  await d.tick();
  const mine = rx.received.slice(before).filter((r) => r.headers['x-vs-delivery'] && r.body.type === 'asset.failed');
  expect(mine.map((r) => r.body.data.asset)).toEqual(['a2']);
  expect((await deliveries(c.id)).length).toBe(1);
});
