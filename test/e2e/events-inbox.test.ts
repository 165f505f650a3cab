/** GET /v1/events (the studio's events inbox): newest first, type and family filters, paging, tenants apart, hostile queries. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server';
import { emitEvent } from '../../src/kernel/events/outbox';
import { tx } from '../../src/kernel/db/sqlite';
import { identityService } from '../../src/features/identity/service';

let s: TestServer;
let tenant: string;
beforeAll(async () => {
  s = await startTestServer({ workers: false, validate: true });
  tenant = identityService(s.ctx).tenant('default').id;
}, 60_000);
afterAll(async () => { await s?.stop(); });

type Page = { items: { seq: number; id: string; type: string; at: string; data: Record<string, unknown> }[]; next_before: number | null; event_types: string[] };
const list = async (q: string, key?: string) => { const r = await s.api('GET', `/v1/events${q}`, undefined, key ? { key } : {}); return { status: r.status, body: await r.json() as Page & { errors?: { field: string }[] } }; };

test('newest first, filtered by type or family, paged with before; other tenants never show', async () => {
  const other = identityService(s.ctx).createTenant({ name: 'Inbox elsewhere' });
  tx(s.ctx.db, () => {
    emitEvent(s.ctx.db, tenant, 'asset.ready', { asset: 'a1' });
    emitEvent(s.ctx.db, other.id, 'asset.ready', { asset: 'foreign' });
    emitEvent(s.ctx.db, tenant, 'clip.ready', { clip: 'c1' });
    emitEvent(s.ctx.db, tenant, 'asset.failed', { asset: 'a2' });
  });
  const all = await list('?limit=10');
  expect(all.status).toBe(200);
  expect(all.body.items.map((i) => i.type)).toEqual(['asset.failed', 'clip.ready', 'asset.ready']);
  expect(all.body.items[0].seq).toBeGreaterThan(all.body.items[1].seq);
  expect(JSON.stringify(all.body)).not.toContain('foreign');
  expect(all.body.event_types).toContain('asset.ready');
  expect(all.body.next_before).toBeNull();
  expect((await list('?type=clip.ready')).body.items.map((i) => i.data.clip)).toEqual(['c1']);
  expect((await list('?type=asset.*')).body.items.map((i) => i.data.asset)).toEqual(['a2', 'a1']);
  const p1 = await list('?limit=2');
  expect(p1.body.items.length).toBe(2);
  expect(p1.body.next_before).toBe(p1.body.items[1].seq);
  const p2 = await list(`?limit=2&before=${p1.body.next_before}`);
  expect(p2.body.items.map((i) => i.data.asset)).toEqual(['a1']);
  expect(p2.body.next_before).toBeNull();
  // The other tenant's own key sees only its event.
  const k = identityService(s.ctx).createKey(other.id, { role: 'viewer' });
  expect((await list('', k.key)).body.items.map((i) => i.data.asset)).toEqual(['foreign']);
  expect(s.violations).toEqual([]);
});

test('401 without a key, 403 without events:read, 422 for bad parameters (fast-check)', async () => {
  expect((await fetch(`${s.url}/v1/events?limit=nope`)).status).toBe(401);
  const noScope = identityService(s.ctx).createKey(tenant, { scopes: ['assets:read'] });
  expect((await list('', noScope.key)).status).toBe(403);
  for (const q of ['?limit=0', '?limit=201', '?limit=x', '?before=0', '?before=-3', '?type=DROP%20TABLE', '?type=a..b', `?type=${'a'.repeat(101)}`]) {
    const r = await list(q);
    expect(`${q} ${r.status}`).toBe(`${q} 422`);
    expect(r.body.errors?.length).toBeGreaterThan(0);
  }
  await fc.assert(fc.asyncProperty(fc.string({ maxLength: 60 }), async (type) => {
    const r = await list(`?type=${encodeURIComponent(type)}`);
    expect([200, 422]).toContain(r.status);
    if (r.status === 200) expect(r.body.items.every((i) => i.type === type || (type.endsWith('.*') && i.type.startsWith(type.slice(0, -1))) || type.trim() === '' || i.type === type.trim())).toBe(true);
  }), { numRuns: 60 });
});
