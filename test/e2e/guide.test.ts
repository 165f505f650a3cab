import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { IdentityService } from '../../src/features/identity/service';
import { eventsAfter } from '../../src/kernel/events/outbox';
import { defaultTenantId } from './guide-helpers';
import { GuideService } from '../../src/features/guide/service';

let s: TestServer;
let ch: { id: string; slug: string };
const H = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();
// A fixed future day far from "now", so lock windows only matter where a test sets them.
const base = Date.parse('2031-03-10T00:00:00Z');

beforeAll(async () => {
  s = await startTestServer({ workers: false });
  // The tests below count days in UTC: this channel says so (a channel without a zone gets the tenant's).
  ch = await (await s.api('POST', '/v1/channels', { name: 'Guide One', timezone: 'UTC' })).json();
});
afterAll(async () => { await s?.stop(); });

const lastEventSeq = () => s.ctx.db.query<{ n: number | null }, []>('SELECT MAX(seq) AS n FROM events').get()?.n ?? 0;
type Version = { version: number; kind: string; changes: number; author: string | null };
const versions = async (id = ch.id) => (await (await s.api('GET', `/v1/channels/${id}/guide/versions`)).json()).items as Version[];

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
    const seq0 = lastEventSeq();
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
    const evs = eventsAfter(s.ctx.db, seq0, 100).filter((e) => e.type === 'epg.published');
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

describe('versions without review mode', () => {
  test('every change that goes live is a version (edit, copy, shift, import) with its author and epg.published; rollback to one', async () => {
    const c = await (await s.api('POST', '/v1/channels', { name: 'Guide Direct', timezone: 'UTC' })).json() as { id: string };
    const seq0 = lastEventSeq();
    const P = (title: string, a: number, b: number) => s.api('POST', `/v1/channels/${c.id}/programmes`, { title, start_at: at(base + a * H), end_at: at(base + b * H) });
    const a = await (await P('Late news', 23 + 20 / 60, 23 + 55 / 60)).json() as { id: string };
    expect((await s.api('PATCH', `/v1/channels/${c.id}/programmes/${a.id}`, { description: 'Headlines at night' })).status).toBe(200);
    const b = await (await P('Film', 20, 22)).json() as { id: string };
    expect((await s.api('DELETE', `/v1/channels/${c.id}/programmes/${b.id}`)).status).toBe(204);
    expect((await s.api('POST', `/v1/channels/${c.id}/guide/copy`, { from_day: '2031-03-10', to_day: '2031-03-11' })).status).toBe(200);
    expect((await s.api('POST', `/v1/channels/${c.id}/guide/shift`, { day: '2031-03-11', minutes: 5 })).status).toBe(200);
    const xml = `<tv><channel id="x"/><programme channel="x" start="20310312060000 +0000" stop="20310312070000 +0000"><title>Imported</title></programme></tv>`;
    const form = new FormData();
    form.set('file', new File([xml], 'epg.xml', { type: 'application/xml' }));
    expect((await fetch(`${s.url}/v1/channels/${c.id}/guide/import`, { method: 'POST', headers: { authorization: `Bearer ${s.key}` }, body: form })).status).toBe(200);
    const vs = await versions(c.id);
    expect(vs.map((v) => [v.version, v.kind, v.changes])).toEqual([[7, 'import', 1], [6, 'shift', 2], [5, 'copy', 1], [4, 'edit', 1], [3, 'edit', 1], [2, 'edit', 1], [1, 'edit', 1]]);
    expect(vs.every((v) => v.author?.startsWith('API key '))).toBe(true);
    const evs = eventsAfter(s.ctx.db, seq0, 100).filter((e) => e.type === 'epg.published');
    expect(evs.map((e) => (e.data as { version: number }).version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // A refused change (locked hours) is no version.
    await s.api('PUT', `/v1/channels/${c.id}/guide/settings`, { lock_hours: 2 });
    expect((await s.api('POST', `/v1/channels/${c.id}/programmes`, { title: 'Too soon', start_at: at(Date.now() + H / 2), end_at: at(Date.now() + H) })).status).toBe(409);
    await s.api('PUT', `/v1/channels/${c.id}/guide/settings`, { lock_hours: 0 });
    expect((await versions(c.id)).length).toBe(7);
    // Rolling back to version 1 (before the description and the day tools) restores it as version 8.
    const rb = await (await s.api('POST', `/v1/channels/${c.id}/guide/rollback`, { version: 1 })).json() as { version: number };
    expect(rb.version).toBe(8);
    const day = (await (await s.api('GET', `/v1/channels/${c.id}/programmes?from=${at(base)}&to=${at(base + 72 * H)}`)).json()).items as { title: string; description: string | null }[];
    expect(day.map((p) => [p.title, p.description])).toEqual([['Late news', null]]);
  });
});

describe('version snapshots are kept for the newest 100 versions', () => {
  test('a channel edited 102 times restores version 3 but not 2 (404); the list shows the newest 100', async () => {
    const c = await (await s.api('POST', '/v1/channels', { name: 'Guide Busy', timezone: 'UTC' })).json() as { id: string };
    const p = await (await s.api('POST', `/v1/channels/${c.id}/programmes`, { title: 'Busy', start_at: at(base), end_at: at(base + H) })).json() as { id: string };
    // Through the service (the API's rate limit allows a burst of 100 requests), as the PATCH route calls it.
    const svc = new GuideService(s.ctx), chRow = svc.channel(defaultTenantId(s), c.id);
    for (let i = 0; i < 101; i++) svc.patch(chRow, p.id, { description: `take ${i}` }, 'Dana Editor');
    const vs = await versions(c.id);
    expect([vs.length, vs[0].version, vs[99].version]).toEqual([100, 102, 3]);
    const kept = s.ctx.db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM guide_versions WHERE channel_id = ? AND LENGTH(snapshot) > 0").get(c.id)!.n;
    expect(kept).toBe(100);
    expect((await s.api('POST', `/v1/channels/${c.id}/guide/rollback`, { version: 2 })).status).toBe(404);
    expect((await s.api('POST', `/v1/channels/${c.id}/guide/rollback`, { version: 3 })).status).toBe(200);
    const now = (await (await s.api('GET', `/v1/channels/${c.id}/programmes/${p.id}`)).json()) as { description: string };
    expect(now.description).toBe('take 1');
  });
});

describe('a version reaches back one day', () => {
  test('rolling back restores what is ahead (and the last day), not a programme that aired days before: its catch-up fix stays', async () => {
    const c = await (await s.api('POST', '/v1/channels', { name: 'Guide Window', timezone: 'UTC' })).json() as { id: string };
    const P = async (title: string, a: number) => (await (await s.api('POST', `/v1/channels/${c.id}/programmes`, { title, start_at: at(a), end_at: at(a + H) })).json()) as { id: string };
    const title = async (id: string) => ((await (await s.api('GET', `/v1/channels/${c.id}/programmes/${id}`)).json()) as { title: string }).title;
    const aired = await P('Aired', Date.now() - 3 * 24 * H);
    const ahead = await P('Ahead', base);
    const v2 = (await versions(c.id))[0].version;
    await s.api('PATCH', `/v1/channels/${c.id}/programmes/${aired.id}`, { title: 'Aired (title fixed for catch-up)' });
    await s.api('PATCH', `/v1/channels/${c.id}/programmes/${ahead.id}`, { title: 'Ahead (bad edit)' });
    expect((await s.api('POST', `/v1/channels/${c.id}/guide/rollback`, { version: v2 })).status).toBe(200);
    expect([await title(ahead.id), await title(aired.id)]).toEqual(['Ahead', 'Aired (title fixed for catch-up)']);
  });
});

describe('guide time zone', () => {
  test('a channel created without a time zone takes the tenant\'s (Asia/Jerusalem by default, then whatever the tenant sets)', async () => {
    const tz = async (b: Record<string, unknown>) => ((await (await s.api('POST', '/v1/channels', b)).json()) as { timezone: string }).timezone;
    expect(await tz({ name: 'Zone default' })).toBe('Asia/Jerusalem');
    expect(await tz({ name: 'Zone given', timezone: 'Europe/Paris' })).toBe('Europe/Paris');
    expect((await s.api('PATCH', '/v1/settings', { time_zone: 'America/New_York' })).status).toBe(200);
    try {
      expect(await tz({ name: 'Zone follows tenant' })).toBe('America/New_York');
    } finally { await s.api('PATCH', '/v1/settings', { time_zone: 'Asia/Jerusalem' }); }
  });
});
