import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { IdentityService } from '../../src/features/identity/service';
import { eventsAfter } from '../../src/kernel/events/outbox';
import { defaultTenantId } from './guide-helpers';

let s: TestServer;
let ch: { id: string; slug: string };
const H = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();
// A fixed future day far from "now", so lock windows only matter where a test sets them.
const base = Date.parse('2031-03-10T00:00:00Z');

beforeAll(async () => {
  s = await startTestServer({ workers: false });
  ch = await (await s.api('POST', '/v1/channels', { name: 'Guide One' })).json();
});
afterAll(async () => { await s?.stop(); });

const prog = (title: string, startH: number, endH: number, extra: Record<string, unknown> = {}) =>
  s.api('POST', `/v1/channels/${ch.id}/programmes`, { title, start_at: at(base + startH * H), end_at: at(base + endH * H), ...extra });
const list = async (fromH = -24, toH = 48) => (await (await s.api('GET', `/v1/channels/${ch.id}/programmes?from=${at(base + fromH * H)}&to=${at(base + toH * H)}`)).json()).items as { id: string; title: string; start_at: string; end_at: string }[];

describe('programmes', () => {
  test('create, get, patch, delete; newest write trims what it overlaps', async () => {
    const a = await prog('Morning', 6, 9, { series: 'Daily', episode: 'E1', images: { tile_16x9: 'https://img.example/a.webp' } });
    expect(a.status).toBe(201);
    const pa = await a.json();
    expect(pa).toMatchObject({ title: 'Morning', duration_s: 3 * 3600, bounds_status: 'epg', series: 'Daily', images: { tile_16x9: 'https://img.example/a.webp' } });
    expect((await s.api('GET', `/v1/channels/${ch.id}/programmes/${pa.id}`)).status).toBe(200);
    const b = await (await prog('News', 8, 10)).json();
    const items = await list();
    expect(items.map((p) => [p.title, p.start_at, p.end_at])).toEqual([['Morning', at(base + 6 * H), at(base + 8 * H)], ['News', at(base + 8 * H), at(base + 10 * H)]]);
    // Fully covered: removed.
    await prog('Special', 5, 11);
    expect((await list()).map((p) => p.title)).toEqual(['Special']);
    expect((await s.api('GET', `/v1/channels/${ch.id}/programmes/${b.id}`)).status).toBe(404);
    const sp = (await list())[0];
    const patched = await s.api('PATCH', `/v1/channels/${ch.id}/programmes/${sp.id}`, { title: 'Special edition', end_at: at(base + 12 * H) });
    expect(patched.status).toBe(200);
    expect((await patched.json()).end_at).toBe(at(base + 12 * H));
    expect((await s.api('DELETE', `/v1/channels/${ch.id}/programmes/${sp.id}`)).status).toBe(204);
    expect(await list()).toEqual([]);
  });

  test('bad input: inverted, too long, bad times, unknown field, unknown channel, other tenant', async () => {
    expect((await prog('x', 5, 4)).status).toBe(422);
    expect((await prog('x', 0, 49)).status).toBe(422);
    expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'x', start_at: 'yesterday', end_at: at(base) })).status).toBe(422);
    expect((await prog('x', 1, 2, { colour: 'red' })).status).toBe(400);
    expect((await s.api('POST', `/v1/channels/0194e0a1-0000-7000-8000-000000000000/programmes`, { title: 'x', start_at: at(base), end_at: at(base + H) })).status).toBe(404);
    const svc = new IdentityService(s.ctx.db, s.ctx.keys);
    const t2 = svc.createTenant({ name: 'Other' });
    const k2 = svc.createKey(t2.id, { role: 'owner' }).key;
    expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'x', start_at: at(base), end_at: at(base + H) }, { key: k2 })).status).toBe(404);
    const viewer = svc.createKey(defaultTenantId(s), { role: 'viewer' }).key;
    expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'x', start_at: at(base), end_at: at(base + H) }, { key: viewer })).status).toBe(403);
  });
});

describe('review mode, publish, rollback, lock window', () => {
  test('epg:write stages, epg:publish publishes, rollback restores, epg.published is emitted', async () => {
    const svc = new IdentityService(s.ctx.db, s.ctx.keys);
    const editor = svc.createKey(defaultTenantId(s), { role: 'editor' }).key;
    const publisher = svc.createKey(defaultTenantId(s), { role: 'publisher' }).key;
    expect((await s.api('PUT', `/v1/channels/${ch.id}/guide/settings`, { review_mode: true })).status).toBe(200);
    const first = await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Draft show', start_at: at(base + 30 * H), end_at: at(base + 31 * H) }, { key: editor });
    expect(first.status).toBe(202);
    const d = await first.json();
    expect(d.draft).toBe(true);
    expect(await list(24, 48)).toEqual([]);
    // A staged programme can be changed before it is published.
    expect((await s.api('PATCH', `/v1/channels/${ch.id}/programmes/${d.id}`, { title: 'Draft show (final)' }, { key: editor })).status).toBe(202);
    expect((await (await s.api('GET', `/v1/channels/${ch.id}/guide/draft`)).json()).items.length).toBe(2);
    expect((await s.api('POST', `/v1/channels/${ch.id}/guide/publish`, undefined, { key: editor })).status).toBe(403);
    const pub = await (await s.api('POST', `/v1/channels/${ch.id}/guide/publish`, undefined, { key: publisher })).json();
    expect(pub.changes).toBe(2);
    const v1 = pub.version;
    expect((await list(24, 48)).map((p) => p.title)).toEqual(['Draft show (final)']);
    await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Replacement', start_at: at(base + 30 * H), end_at: at(base + 32 * H) }, { key: editor });
    const v2 = (await (await s.api('POST', `/v1/channels/${ch.id}/guide/publish`, undefined, { key: publisher })).json()).version;
    expect(v2).toBe(v1 + 1);
    expect((await list(24, 48)).map((p) => p.title)).toEqual(['Replacement']);
    const rb = await s.api('POST', `/v1/channels/${ch.id}/guide/rollback`, { version: v1 }, { key: publisher });
    expect(rb.status).toBe(200);
    expect((await list(24, 48)).map((p) => [p.title, p.id])).toEqual([['Draft show (final)', d.id]]);
    expect((await s.api('POST', `/v1/channels/${ch.id}/guide/rollback`, { version: 99 }, { key: publisher })).status).toBe(404);
    const evs = eventsAfter(s.ctx.db, 0, 100).filter((e) => e.type === 'epg.published');
    expect(evs.length).toBe(3);
    expect(evs[0].data).toMatchObject({ channel_id: ch.id, version: v1 });
    await s.api('PUT', `/v1/channels/${ch.id}/guide/settings`, { review_mode: false });
  });

  test('a change reaching into the locked hours answers 409 lock_window', async () => {
    const now = Date.now();
    await s.api('PUT', `/v1/channels/${ch.id}/guide/settings`, { lock_hours: 2 });
    const r = await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Too soon', start_at: at(now + H), end_at: at(now + 3 * H) });
    expect(r.status).toBe(409);
    expect((await r.json()).type).toEndWith('/lock_window');
    expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Later', start_at: at(now + 3 * H), end_at: at(now + 4 * H) })).status).toBe(201);
    // Past programmes can still be fixed (catch-up titles).
    expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Earlier', start_at: at(now - 5 * H), end_at: at(now - 4 * H) })).status).toBe(201);
    await s.api('PUT', `/v1/channels/${ch.id}/guide/settings`, { lock_hours: 0 });
  });

  test('copy and shift a day', async () => {
    await prog('D1 a', 72, 73);
    await prog('D1 b', 73, 74.5);
    const c = await s.api('POST', `/v1/channels/${ch.id}/guide/copy`, { from_day: '2031-03-13', to_day: '2031-03-14' });
    expect(c.status).toBe(200);
    expect((await c.json()).programmes).toBe(2);
    expect((await list(96, 120)).map((p) => [p.title, p.start_at])).toEqual([['D1 a', at(base + 96 * H)], ['D1 b', at(base + 97 * H)]]);
    expect((await s.api('POST', `/v1/channels/${ch.id}/guide/shift`, { day: '2031-03-14', minutes: 30 })).status).toBe(200);
    expect((await list(96, 120)).map((p) => [p.title, p.start_at, p.end_at])).toEqual([['D1 a', at(base + 96.5 * H), at(base + 97.5 * H)], ['D1 b', at(base + 97.5 * H), at(base + 99 * H)]]);
  });
});
