/**
 * Geo blackouts (issue 46) with a real recording channel (SRT push), the nginx delivery front with its edge cache, and
 * MaxMind-format databases written here: viewers from 127.0.0.10 are in the US, from 127.0.0.20 in Israel, from
 * 127.0.0.30 in France. The session issuer and the delivery gate refuse blacked-out viewers, for live, catch-up and
 * cached segments alike, and for clips and live-to-VOD assets made from a blacked-out window; changes fire
 * `policy.changed`; hostile input gets problem details.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { launch } from './player-helpers';
import { IdentityService } from '../../src/features/identity/service';
import { liveEnv, type Pusher } from './live-helpers';
import { recordChannel, type Seg } from './catchup-helpers';
import { VIEWERS, from, jsonOf, writeGeoDbs } from './geo-helpers';
import { addReadyAsset } from '../helpers/ready-asset';
import { randomBytes } from 'node:crypto';

const dir = mkdtempSync(join(tmpdir(), 'vs-blackout-'));
let s: TestServer, own: number, front: number, slug: string, pusher: Pusher, segs: () => Seg[];
const { us, il, fr } = VIEWERS;
const HOUR = 3_600_000;

beforeAll(async () => {
  s = await startTestServer({ env: { ...(await liveEnv()), ...writeGeoDbs(dir), VS_DELIVERY_FRONT_PORT: '0', VS_EDGE_CACHE_FILES: 'on' } });
  own = Number(new URL(s.url).port);
  front = s.front!.port;
  const rec = await recordChannel(s, 'Match Day', 40, 3);
  slug = rec.ch.slug; pusher = rec.pusher; segs = rec.segs;
}, 90_000);
afterAll(async () => { pusher?.kill(); await s.stop(); rmSync(dir, { recursive: true, force: true }); });

const session = (ip: string, target: Record<string, unknown> = { channel: slug }) =>
  from(ip, own, 'POST', '/v1/playback/session', { json: { tenant: 'default', ...target, page_origin: 'https://news.example.com' }, headers: { origin: 'https://news.example.com' } });
const blackout = async (body: Record<string, unknown>) => {
  const r = await s.api('POST', '/v1/blackouts', { channel: slug, ...body });
  expect(r.status).toBe(201);
  return await r.json() as { id: string; active_now: boolean; countries: string[] };
};
/** The path (at the front) of a playback URL and of the first media line of its first variant. */
const paths = async (src: string, ip: string) => {
  const u = new URL(src);
  const master = await from(ip, front, 'GET', u.pathname + u.search);
  expect(master.status).toBe(200);
  const variant = new URL(master.body.toString().split('\n').find((l) => l && !l.startsWith('#'))!, u);
  const v = await from(ip, front, 'GET', variant.pathname + variant.search);
  expect(v.status).toBe(200);
  const segLines = v.body.toString().split('\n').filter((l) => l && !l.startsWith('#'));
  const seg = (i: number) => { const x = new URL(segLines.at(i)!, variant); return x.pathname + x.search; };
  return { master: u.pathname + u.search, variant: variant.pathname + variant.search, seg, count: segLines.length };
};
const events = (id: string) => s.ctx.db.query<{ data: string }, [string]>("SELECT data FROM events WHERE type = 'policy.changed' AND json_extract(data, '$.blackout') = ? ORDER BY seq").all(id).map((r) => JSON.parse(r.data) as { change: string });

test('a live blackout: refused by the issuer and the gate (cached segments too), allowed elsewhere; policy.changed fires', async () => {
  // Before any blackout both viewers get sessions; a token from the API plays through the front, the segment is cached.
  expect((await session(us.ip)).status).toBe(200);
  const tok = await (await s.api('POST', '/v1/playback/tokens', { channel: slug })).json() as { src: string };
  const live = await paths(tok.src, il.ip);
  const first = await from(il.ip, front, 'GET', live.seg(-1));
  const again = await from(il.ip, front, 'GET', live.seg(-1));
  expect([first.status, again.status]).toEqual([200, 200]);
  expect(again.headers['x-cache-status']).toBe('HIT');

  const b = await blackout({ name: 'home market', starts_at: new Date(Date.now() - HOUR).toISOString(), ends_at: new Date(Date.now() + HOUR).toISOString(), countries: ['us'] });
  expect(b.active_now).toBe(true);
  expect(b.countries).toEqual(['US']);
  expect(events(b.id).map((e) => e.change)).toEqual(['blackout.created']);

  const refused = await session(us.ip);
  expect(refused.status).toBe(403);
  expect(refused.headers['content-type']).toContain('application/problem+json');
  expect(refused.headers['x-vs-refusal']).toBe('blackout');
  expect(refused.headers['access-control-allow-origin']).toBe('https://news.example.com');
  expect(jsonOf<{ detail: string }>(refused).detail).toContain('(US)');
  expect((await session(il.ip)).status).toBe(200);
  // The token API names the viewer: the same rule.
  expect((await s.api('POST', '/v1/playback/tokens', { channel: slug, viewer_ip: us.ip })).status).toBe(403);

  // The gate: every live playlist and the segment already in the edge cache are refused to the US viewer.
  for (const p of [live.master, live.variant, live.seg(-1)]) {
    const r = await from(us.ip, front, 'GET', p);
    expect(`${p} ${r.status} ${r.headers['x-vs-refusal']}`).toBe(`${p} 403 blackout`);
  }
  expect((await from(il.ip, front, 'GET', live.seg(-1))).headers['x-cache-status']).toBe('HIT');
  // Only the socket address counts: headers naming an Israeli address change nothing, at the front or the issuer.
  const spoof = { 'x-real-ip': il.ip, 'x-forwarded-for': il.ip, 'x-vs-peer': il.ip };
  expect((await from(us.ip, front, 'GET', live.seg(-1), { headers: spoof })).status).toBe(403);
  expect((await from(us.ip, own, 'POST', '/v1/playback/session', { json: { tenant: 'default', channel: slug, page_origin: 'https://news.example.com' }, headers: spoof })).status).toBe(403);
  expect((await from(fr.ip, front, 'GET', live.variant)).status).toBe(200);

  // `out`: only Israel may watch; a viewer of unknown country (127.0.0.1) is refused too.
  const patched = await s.api('PATCH', `/v1/blackouts/${b.id}`, { applies_to: 'out', countries: ['IL'] });
  expect(patched.status).toBe(200);
  expect((await from(us.ip, front, 'GET', live.variant)).status).toBe(403);
  expect((await from(fr.ip, front, 'GET', live.variant)).status).toBe(403);
  expect((await from('127.0.0.1', front, 'GET', live.variant)).status).toBe(403);
  expect((await from(il.ip, front, 'GET', live.variant)).status).toBe(200);

  expect((await s.api('DELETE', `/v1/blackouts/${b.id}`)).status).toBe(204);
  expect((await session(us.ip)).status).toBe(200);
  expect((await from(us.ip, front, 'GET', live.seg(-1))).status).toBe(200);
  expect(events(b.id).map((e) => e.change)).toEqual(['blackout.created', 'blackout.updated', 'blackout.deleted']);
}, 60_000);

test('catch-up: what aired inside the window stays blacked out after it ended; the rest of the recording plays', async () => {
  const all = segs();
  expect(all.length).toBeGreaterThanOrEqual(3);
  const [a, bSeg] = all;
  // The window covered the first segment's air time only, and has ended.
  const b = await blackout({ starts_at: new Date(a.start_ms).toISOString(), ends_at: new Date(a.start_ms + a.duration_ms).toISOString(), countries: ['US'] });
  expect(b.active_now).toBe(false);
  const whole = { catchup: { channel: slug, start: a.start_ms, end: all[2].start_ms + all[2].duration_ms } };
  const later = { catchup: { channel: slug, start: bSeg.start_ms, end: all[2].start_ms + all[2].duration_ms } };
  expect((await session(us.ip, whole)).status).toBe(403);
  expect((await session(us.ip, later)).status).toBe(200);
  expect((await session(il.ip, whole)).status).toBe(200);

  const tok = await (await s.api('POST', '/v1/playback/tokens', whole)).json() as { src: string };
  const cu = await paths(tok.src, il.ip);
  expect(cu.count).toBeGreaterThanOrEqual(3);
  // Played by the Israeli viewer first (catch-up segments are rebased in memory, not edge-cached): refused to the US one.
  expect((await from(il.ip, front, 'GET', cu.seg(0))).status).toBe(200);
  expect((await from(us.ip, front, 'GET', cu.master)).status).toBe(403);
  const seg0 = await from(us.ip, front, 'GET', cu.seg(0));
  expect([seg0.status, seg0.headers['x-vs-refusal']]).toEqual([403, 'blackout']);
  // Live air time now is outside the window: the live playlist plays for the US viewer.
  const tokLive = await (await s.api('POST', '/v1/playback/tokens', { channel: slug })).json() as { src: string };
  expect((await from(us.ip, front, 'GET', new URL(tokLive.src).pathname)).status).toBe(200);
  expect((await s.api('DELETE', `/v1/blackouts/${b.id}`)).status).toBe(204);
  expect((await from(us.ip, front, 'GET', cu.seg(0))).status).toBe(200);
}, 60_000);

test('a clip and a live-to-VOD asset made from a blacked-out window: refused to that country by the issuer and the gate (no grant), played elsewhere', async () => {
  const [a] = segs();
  const iso = (ms: number) => new Date(ms).toISOString();
  const ch = s.ctx.db.query<{ id: string; tenant_id: string }, [string]>('SELECT id, tenant_id FROM channels WHERE slug = ?').get(slug)!;
  // A clip of the first segment's air time (segment precision: ready at once over the recording).
  const made = await s.api('POST', '/v1/clips', { channel_id: ch.id, start_at: iso(a.start_ms), end_at: iso(a.start_ms + a.duration_ms) });
  expect(made.status).toBe(201);
  const clip = (await made.json() as { id: string }).id;
  // A ready asset recorded from the same window, as the vod.publish job writes its source and metadata.
  const asset = addReadyAsset(s, ch.tenant_id, randomBytes(4096));
  s.ctx.db.query('UPDATE assets SET source = ?, metadata = ? WHERE id = ?').run(JSON.stringify({ kind: 'live', channel_id: ch.id, programme_id: null }),
    JSON.stringify({ channel_id: ch.id, recorded_from: iso(a.start_ms), recorded_to: iso(a.start_ms + a.duration_ms) }), asset);
  const b = await blackout({ starts_at: iso(a.start_ms), ends_at: iso(a.start_ms + a.duration_ms), countries: ['US'] });
  for (const target of [{ clip }, { asset }]) {
    const r = await session(us.ip, target);
    expect(`${JSON.stringify(target)} ${r.status} ${r.headers['x-vs-refusal']}`).toBe(`${JSON.stringify(target)} 403 blackout`);
    expect((await session(il.ip, target)).status).toBe(200);
  }
  const clipTok = await (await s.api('POST', '/v1/playback/tokens', { clip })).json() as { src: string };
  const clipMaster = new URL(clipTok.src).pathname + new URL(clipTok.src).search;
  expect((await from(il.ip, front, 'GET', clipMaster)).status).toBe(200);
  const cr = await from(us.ip, front, 'GET', clipMaster);
  expect([cr.status, cr.headers['x-vs-refusal']]).toEqual([403, 'blackout']);
  // The asset's segment twice for Israel (no grant is made, so nginx cannot answer the US viewer on its own), then US.
  const seg = new URL('seg_00001.m4s', (await (await s.api('POST', '/v1/playback/tokens', { asset })).json() as { src: string }).src).pathname;
  expect([(await from(il.ip, front, 'GET', seg)).status, (await from(il.ip, front, 'GET', seg)).status]).toEqual([200, 200]);
  const ar = await from(us.ip, front, 'GET', seg);
  expect([ar.status, ar.headers['x-vs-refusal']]).toEqual([403, 'blackout']);
  expect((await s.api('DELETE', `/v1/blackouts/${b.id}`)).status).toBe(204);
  expect([(await from(us.ip, front, 'GET', clipMaster)).status, (await from(us.ip, front, 'GET', seg)).status]).toEqual([200, 200]);
}, 60_000);

test('a programme blackout takes the programme\'s air time; hostile input gets problem details; scopes and tenants', async () => {
  const post = (body: unknown) => s.api('POST', '/v1/blackouts', body);
  const bad = async (body: unknown, field: string) => {
    const r = await post(body);
    expect(`${r.status}`).toBe('422');
    const j = await r.json() as { errors?: { field: string }[] };
    expect(JSON.stringify(j.errors ?? [])).toContain(field);
  };
  const chId = s.ctx.db.query<{ id: string }, [string]>('SELECT id FROM channels WHERE slug = ?').get(slug)!.id;
  const now = Date.now();
  const prog = await s.api('POST', `/v1/channels/${chId}/programmes`, { title: 'Derby', start_at: new Date(now - 60_000).toISOString(), end_at: new Date(now + HOUR).toISOString() });
  expect(prog.status).toBe(201);
  const p = await prog.json() as { id: string };
  const pb = await (await s.api('POST', '/v1/blackouts', { channel: slug, programme_id: p.id, countries: ['US'] })).json() as { id: string; name: string; active_now: boolean; starts_at: string };
  expect([pb.name, pb.active_now]).toEqual(['Derby', true]);
  expect(Math.abs(Date.parse(pb.starts_at) - (now - 60_000))).toBeLessThan(1000);
  expect((await session(us.ip)).status).toBe(403);
  expect((await session(us.ip, { startover: { channel: slug, programme: p.id } })).status).toBe(403);
  expect((await session(il.ip, { startover: { channel: slug, programme: p.id } })).status).toBe(200);
  await bad({ channel: slug, countries: ['US'], programme_id: p.id, starts_at: new Date(now).toISOString() }, 'programme_id');
  expect((await s.api('DELETE', `/v1/blackouts/${pb.id}`)).status).toBe(204);
  await bad({ channel: slug, countries: ['USA'] }, 'countries');
  await bad({ channel: slug, countries: ['US', 'ZZ', 'uk'] }, 'countries[1]');
  await bad({ channel: slug, countries: ['<script>'] }, 'countries');
  await bad({ channel: slug, countries: [] }, 'countries');
  await bad({ channel: slug, countries: Array.from({ length: 251 }, () => 'US') }, 'countries');
  await bad({ channel: slug, countries: ['US'], starts_at: '2026-01-02T00:00:00Z', ends_at: '2026-01-01T00:00:00Z' }, 'ends_at');
  await bad({ channel: slug, countries: ['US'], starts_at: 'tomorrow' }, 'starts_at');
  await bad({ channel: slug, countries: ['US'], starts_at: '+275760-09-13T00:00:00Z' }, 'starts_at');
  await bad({ channel: slug, countries: ['US'], applies_to: 'sideways' }, 'applies_to');
  await bad({ channel: slug, countries: 'US' }, 'countries');
  expect((await post({ channel: slug, countries: ['US'], colour: 'red' })).status).toBe(400);
  expect((await post({ channel: 'no-such-channel', countries: ['US'] })).status).toBe(404);
  expect((await post({ channel: slug, countries: ['US'], programme_id: crypto.randomUUID() })).status).toBe(404);
  expect((await s.api('GET', '/v1/blackouts/not-a-uuid')).status).toBe(404);
  const mine = await blackout({ countries: ['FR'], starts_at: new Date(now + 10 * HOUR).toISOString() });
  expect(mine.active_now).toBe(false);
  // Another tenant sees none of it; a viewer key reads, an editor key cannot manage; no key: 401.
  const idn = new IdentityService(s.ctx.db, s.ctx.keys);
  const other = idn.createTenant({ name: 'Other', slug: 'other-bo' });
  const otherKey = idn.createKey(other.id, { role: 'owner' }).key;
  expect((await s.api('GET', `/v1/blackouts/${mine.id}`, undefined, { key: otherKey })).status).toBe(404);
  expect((await s.api('DELETE', `/v1/blackouts/${mine.id}`, undefined, { key: otherKey })).status).toBe(404);
  expect(((await (await s.api('GET', '/v1/blackouts', undefined, { key: otherKey })).json()) as { items: unknown[] }).items).toEqual([]);
  const tenant = idn.tenant('default');
  const viewer = idn.createKey(tenant.id, { role: 'viewer' }).key;
  const list = await s.api('GET', `/v1/blackouts?channel=${slug}`, undefined, { key: viewer });
  expect(list.status).toBe(200);
  expect(((await list.json()) as { items: { id: string }[] }).items.map((i) => i.id)).toContain(mine.id);
  expect((await s.api('POST', '/v1/blackouts', { channel: slug, countries: ['US'] }, { key: viewer })).status).toBe(403);
  expect((await fetch(`${s.url}/v1/blackouts`)).status).toBe(401);
  expect((await s.api('PATCH', `/v1/blackouts/${mine.id}`, { countries: ['FRA'] })).status).toBe(422);
  expect((await s.api('PATCH', `/v1/blackouts/${mine.id}`, { ends_at: new Date(now).toISOString() })).status).toBe(422);
}, 60_000);

test('the player shows the blackout slate (Hebrew embed page, viewer of unknown country under an `out` blackout)', async () => {
  const b = await blackout({ applies_to: 'out', countries: ['IL'] });
  const browser = await launch();
  try {
    const tab = await browser.newPage();
    const refusals: string[] = [];
    tab.on('response', (r) => { if (r.url().endsWith('/v1/playback/session')) refusals.push(`${r.status()} ${r.headers()['x-vs-refusal']}`); });
    await tab.goto(`${s.url}/e/default/live/${slug}?lang=he`);
    const text = await waitFor('blackout slate', async () => (await tab.evaluate(() => document.querySelector('.vs-overlay')?.textContent ?? '')) || null, 30_000, 100);
    expect(text).toContain('התוכנית אינה זמינה באזור שלך');
    expect(refusals).toEqual(['403 blackout']);
  } finally {
    await browser.close();
    expect((await s.api('DELETE', `/v1/blackouts/${b.id}`)).status).toBe(204);
  }
}, 60_000);
