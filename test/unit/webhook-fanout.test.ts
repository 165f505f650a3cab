import { expect, test } from 'bun:test';
import { openDb, tx } from '../../src/kernel/db/sqlite';
import { emitEvent } from '../../src/kernel/events/outbox';
import { outboxCursor } from '../../src/kernel/events/cursors';
import { fanOutAll, fanOutBatch, FANOUT_CURSOR } from '../../src/features/webhooks/fanout';
import { WebhookStore } from '../../src/features/webhooks/store';

function setup() {
  const db = openDb(':memory:');
  db.query("INSERT INTO tenants (id, slug, name, cdn_only, created_at) VALUES ('t1', 't1', 'T1', 0, 0), ('t2', 't2', 'T2', 0, 0)").run();
  const store = new WebhookStore(db);
  const ep = (id: string, tenant: string, events: string[], enabled = 1, from = 0) =>
    store.insertEndpoint({ id, tenant_id: tenant, url: 'https://example.com/', events: JSON.stringify(events), secret: 's', enabled, from_seq: from, created_at: 0, updated_at: 0 });
  return { db, ep };
}
const count = (db: ReturnType<typeof openDb>, where = '1=1') => db.query<{ n: number }, []>(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE ${where}`).get()!.n;

test('fan-out queues one delivery per subscribed endpoint, by type, tenant, enabled state and creation point', () => {
  const { db, ep } = setup();
  ep('all', 't1', ['*']);
  ep('ready', 't1', ['asset.ready']);
  ep('off', 't1', ['*'], 0);
  ep('other', 't2', ['*']);
  tx(db, () => { emitEvent(db, 't1', 'asset.ready', {}); emitEvent(db, 't1', 'clip.ready', {}); emitEvent(db, 't2', 'asset.ready', {}); });
  ep('late', 't1', ['*'], 1, 3);
  tx(db, () => emitEvent(db, 't1', 'ping', { webhook_id: 'ready' }));
  expect(fanOutAll(db, 1)).toBe(4);
  const per = Object.fromEntries(db.query<{ endpoint_id: string; n: number }, []>('SELECT endpoint_id, COUNT(*) AS n FROM webhook_deliveries GROUP BY endpoint_id').all().map((r) => [r.endpoint_id, r.n]));
  expect(per).toEqual({ all: 2, ready: 2, other: 1 }); // ping goes to 'ready' only; 'late' saw nothing before it; 'off' nothing
  expect(outboxCursor(db, FANOUT_CURSOR)).toBe(4);
});

test('fan-out is atomic with its cursor and never queues an event twice for one endpoint', () => {
  const { db, ep } = setup();
  ep('a', 't1', ['*']);
  tx(db, () => { for (let i = 0; i < 25; i++) emitEvent(db, 't1', 'asset.ready', { i }); });
  expect(fanOutBatch(db, 1, 10)).toBe(10);
  expect(count(db)).toBe(10);
  // A crash after fan-out but before anything else: running again from the stored cursor continues, no repeats.
  db.query('UPDATE outbox_cursors SET seq = 5').run(); // even a cursor moved back re-inserts nothing twice
  fanOutAll(db, 1, 10);
  expect(count(db)).toBe(25);
  expect(db.query<{ n: number }, []>('SELECT COUNT(DISTINCT event_id) AS n FROM webhook_deliveries').get()!.n).toBe(25);
  // A failing fan-out transaction leaves neither rows nor cursor behind.
  tx(db, () => emitEvent(db, 't1', 'asset.ready', { late: true }));
  db.exec("CREATE TRIGGER boom BEFORE INSERT ON webhook_deliveries BEGIN SELECT RAISE(ABORT, 'disk full'); END");
  const before = outboxCursor(db, FANOUT_CURSOR);
  expect(() => fanOutAll(db, 1)).toThrow('disk full');
  expect(outboxCursor(db, FANOUT_CURSOR)).toBe(before);
  db.exec('DROP TRIGGER boom');
  fanOutAll(db, 1);
  expect(count(db)).toBe(26);
});

test('a slice is bounded by the rows it queues (whole events, at least one), and the rest follows in later slices', () => {
  const { db, ep } = setup();
  for (let i = 0; i < 10; i++) ep(`e${i}`, 't1', ['*']);
  tx(db, () => { for (let i = 0; i < 25; i++) emitEvent(db, 't1', 'asset.ready', { i }); });
  const seqs = db.query<{ seq: number }, []>('SELECT seq FROM events ORDER BY seq').all().map((r) => r.seq);
  expect(fanOutBatch(db, 1, 100, { maxRows: 25 })).toBe(3); // 10 rows per event: stops once 25 are reached
  expect(count(db)).toBe(30);
  expect(outboxCursor(db, FANOUT_CURSOR)).toBe(seqs[2]);
  expect(fanOutBatch(db, 1, 100, { maxRows: 5 })).toBe(1); // one event reaching more endpoints than the bound: whole
  expect(count(db)).toBe(40);
  expect(fanOutAll(db, 1, 100, 25)).toBe(21);
  expect(count(db)).toBe(250);
  expect(db.query<{ n: number }, []>('SELECT COUNT(DISTINCT endpoint_id || event_id) AS n FROM webhook_deliveries').get()!.n).toBe(250);
  expect(fanOutBatch(db, 1, 100, { maxRows: 25 })).toBe(0);
});
