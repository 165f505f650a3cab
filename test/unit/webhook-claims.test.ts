import { afterAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { startReceiver, type Receiver } from '../e2e/webhooks-receiver';
import { tx } from '../../src/kernel/db/sqlite';
import { emitEvent } from '../../src/kernel/events/outbox';
import { startWebhookDispatcher } from '../../src/features/webhooks/dispatcher';

const cleanup: (() => unknown)[] = [];
afterAll(async () => { for (const f of cleanup.reverse()) await f(); });

/**
 * Claims skip rows whose attempt is in flight or finished but not yet committed (they still look due in the table):
 * with outcomes committed rarely and in small batches, many finished rows wait uncommitted while new ones start,
 * and none is sent twice; every delivery ends delivered after one attempt.
 */
test('deliveries in flight or awaiting their commit are never claimed again', async () => {
  const s: TestServer = await startTestServer({ workers: false, env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  cleanup.push(() => s.stop());
  const rx: Receiver[] = [startReceiver(), startReceiver()];
  for (const r of rx) cleanup.push(() => r.stop());
  for (const r of rx) expect((await s.api('POST', '/v1/webhooks', { url: r.url, events: ['asset.ready'] })).status).toBe(201);
  const tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  const N = 120;
  tx(s.ctx.db, () => { for (let i = 0; i < N; i++) emitEvent(s.ctx.db, tenant, 'asset.ready', { asset: `a${i}`, external_id: null, status: 'ready' }); });
  // Four in flight per endpoint, three starts per turn; outcomes wait 150 ms and commit 7 per batch.
  const d = startWebhookDispatcher(s.ctx, { perEndpoint: 4, flushMs: 150, flushRows: 7, startsPerPump: 3, fanOutBatch: 25 });
  cleanup.push(() => d.stop());
  const delivered = () => s.ctx.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'delivered'").get()!.n;
  await waitFor('all delivered', () => delivered() === 2 * N, 60_000);
  for (const r of rx) {
    expect(r.byDelivery.size).toBe(N);
    expect([...r.byDelivery.values()].every((n) => n === 1)).toBe(true);
  }
  const attempts = s.ctx.db.query<{ n: number }, []>('SELECT MAX(attempts) AS n FROM webhook_deliveries').get()!.n;
  expect(attempts).toBe(1);
}, 90_000);
