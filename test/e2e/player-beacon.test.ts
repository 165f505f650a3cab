import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Ajv2020 from 'ajv/dist/2020';
import type { Browser } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { waitFor, type TestServer } from '../helpers/server';
import { launch, playsPast, serverWithAsset } from './player-helpers';
import { beaconChannel, playbackSid } from '../helpers/beacon-session';
import { identityService } from '../../src/features/identity/service';

let s: TestServer;
let asset: string;
let browser: Browser;
beforeAll(async () => {
  ({ s, asset } = await serverWithAsset(8));
  browser = await launch();
}, 180_000);
afterAll(async () => { await browser?.close(); await s?.stop(); }, 60_000);

/** The JSON Schema published in docs/beacons.md (the block after "## JSON Schema"). */
function docSchema(): object {
  const md = readFileSync('docs/beacons.md', 'utf8');
  const m = /## JSON Schema[\s\S]*?```json\n([\s\S]*?)```/.exec(md);
  return JSON.parse(m![1]);
}

const beacon = (body: unknown, headers: Record<string, string> = { 'content-type': 'text/plain' }) =>
  fetch(`${s.url}/b/v1`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('/b/v1', () => {
  test('text/plain beacon → 204 with CORS, rows in DuckDB; schema check 400; size 413; per-IP 429', async () => {
    const sid = await playbackSid(s.url, s.key, { asset });
    const body = { v: 1, sid, vid: 'viewer-1', tenant: 'default', host: 'news.example', kind: 'vod', id: asset, events: [
      { e: 'view_start', t: Date.now(), pos: 0, buf: 0 }, { e: 'first_frame', t: Date.now(), pos: 0, buf: 2, startup_ms: 420 },
      { e: 'heartbeat', t: Date.now(), pos: 15, buf: 8, level: 1, custom: 'x' }] };
    const r = await beacon(body);
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const rows = await waitFor('rows', async () => {
      const x = await s.ctx.stats.all<{ e: string; startup_ms: number | null; tenant_id: string; data: string | null; device: string }>('SELECT * FROM player_events WHERE sid = ? ORDER BY ts, e', [sid]);
      return x.length === 3 ? x : null;
    }, 10_000, 100);
    expect(rows!.map((x) => x.e).sort()).toEqual(['first_frame', 'heartbeat', 'view_start']);
    expect(rows!.find((x) => x.e === 'first_frame')!.startup_ms).toBe(420);
    expect(rows!.every((x) => x.tenant_id.length > 0)).toBe(true);
    expect(JSON.parse(rows!.find((x) => x.e === 'heartbeat')!.data!)).toEqual({ custom: 'x' });
    expect(new Ajv2020({ strict: false }).validate(docSchema(), body)).toBe(true);

    const bad = await beacon({ ...body, v: 2 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { field: string }[] }).errors[0].field).toBe('v');
    expect((await beacon({ ...body, events: [] })).status).toBe(400);
    expect((await beacon({ ...body, extra: 1 })).status).toBe(400);
    expect((await beacon('not json')).status).toBe(400);
    expect((await beacon(body, { 'content-type': 'application/xml' })).status).toBe(415);
    const big = { ...body, events: Array.from({ length: 300 }, () => ({ e: 'heartbeat', t: Date.now(), pos: 1, buf: 1, pad: 'x'.repeat(300) })) };
    expect((await beacon(big)).status).toBe(413);
  }, 60_000);
});

test('the player sends batched beacons (sendBeacon on pagehide) that match the documented schema', async () => {
  const ctx = await browser.newContext();
  const tab = await ctx.newPage();
  // Record what the page hands to sendBeacon (the browser sends it as a ping; bodies are checked here).
  await tab.addInitScript(() => {
    const w = window as unknown as { __beacons: string[] };
    w.__beacons = [];
    const orig = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url: string | URL, data?: BodyInit | null) => { if (data instanceof Blob) void data.text().then((t) => w.__beacons.push(t)); return orig(url, data); };
  });
  await tab.goto(`${s.url}/e/default/vod/${asset}?autoplay=1`);
  await playsPast(tab, 2);
  const sid = await tab.evaluate(() => (window as unknown as { VSEmbed: { players: { session: { sid: string } }[] } }).VSEmbed.players[0].session.sid);
  await tab.evaluate(() => (document.querySelector('video') as HTMLVideoElement).pause());
  await tab.evaluate(() => (window as unknown as { VSEmbed: { players: { beacon: { flush(): void } }[] } }).VSEmbed.players[0].beacon.flush());
  const sent = (await waitFor('beacon bodies', async () => { const b = await tab.evaluate(() => (window as unknown as { __beacons: string[] }).__beacons); return b.length ? b : null; }, 5000, 50))!.map((b) => JSON.parse(b));
  await tab.goto('about:blank'); // pagehide flushes
  const rows = await waitFor('beacon rows of the session', async () => {
    const x = await s.ctx.stats.all<{ e: string; kind: string; content_id: string; viewer_id: string; startup_ms: number | null; page_host: string }>('SELECT * FROM player_events WHERE sid = ?', [sid]);
    return x.some((r) => r.e === 'pause') ? x : null;
  }, 15_000, 200);
  const names = new Set(rows!.map((r) => r.e));
  for (const e of ['view_start', 'play_request', 'first_frame', 'pause']) expect(names.has(e)).toBe(true);
  expect(rows![0].kind).toBe('vod');
  expect(rows![0].content_id).toBe(asset);
  expect(rows!.find((r) => r.e === 'first_frame')!.startup_ms).toBeGreaterThan(0);
  const ajv = new Ajv2020({ strict: false });
  const validate = ajv.compile(docSchema());
  expect(sent.length).toBeGreaterThan(0);
  for (const b of sent) expect(validate(b) ? null : validate.errors).toBeNull();
  await ctx.close();
}, 60_000);

test('beacons bind to the session the issuer created for that tenant and content: forged ones change no figures and are counted as dropped', async () => {
  // Tenant B with a channel and one real viewer session; tenant A (default) with its asset and a session of its own.
  const b = identityService(s.ctx).createTenant({ name: 'Beacon B', slug: 'beacon-b' });
  const keyB = identityService(s.ctx).createKey(b.id, { role: 'owner' }).key;
  const chB = await beaconChannel(s.url, keyB, 'B news');
  const realB = await playbackSid(s.url, keyB, { channel: chB });
  const sidA = await playbackSid(s.url, s.key, { asset });
  const now = () => Date.now();
  const playing = () => [{ e: 'play_request', t: now() - 2000, pos: 0, buf: 0 }, { e: 'heartbeat', t: now(), pos: 2, buf: 6 }];
  const asB = (sid: string, vid: string, x: Record<string, unknown> = {}) => ({ v: 1, sid, vid, tenant: 'beacon-b', host: 'forged.example', kind: 'live', id: chB, events: playing(), ...x });
  const realtimeB = async () => (await (await s.api('GET', '/v1/stats/realtime', undefined, { key: keyB })).json()) as { concurrent: number };
  const realtimeA = async () => (await (await s.api('GET', '/v1/stats/realtime')).json()) as { concurrent: number; by_content: { id: string }[] };
  const aBefore = (await realtimeA()).concurrent;

  expect((await beacon(asB(realB, 'real-viewer'))).status).toBe(204);
  await waitFor('B: one viewer now', async () => (await realtimeB()).concurrent === 1, 10_000, 100);
  // 20 forged beacons, answered like any other (204), four ways: a sid no issuer created, tenant A's session named as
  // B's, B's session about other content, and B's real session from other viewers.
  const forged = [
    ...Array.from({ length: 5 }, (_, i) => asB(crypto.randomUUID(), `forger-${i}`)),
    ...Array.from({ length: 5 }, (_, i) => asB(sidA, `forger-a-${i}`, { kind: 'vod', id: asset })),
    ...Array.from({ length: 5 }, (_, i) => asB(realB, 'real-viewer', { kind: 'vod', id: `other-${i}` })),
    ...Array.from({ length: 5 }, (_, i) => asB(realB, `forger-v-${i}`)),
  ];
  for (const f of forged) expect((await beacon(f)).status).toBe(204);
  const counts = await waitFor('drops counted', async () => {
    const c = (await (await s.api('GET', '/v1/stats/beacons', undefined, { key: keyB })).json()) as { audience: number; dropped: Record<string, number> };
    return c.dropped.unbound + c.dropped.tenant + c.dropped.content + c.dropped.viewer === 20 ? c : null;
  }, 10_000, 100);
  expect(counts).toMatchObject({ audience: 1, studio: 0, dropped: { unbound: 5, tenant: 5, content: 5, viewer: 5 } });
  // B's figures are its one real viewer; A's are not moved by its session being named for B either.
  expect((await realtimeB()).concurrent).toBe(1);
  expect((await realtimeA()).concurrent).toBe(aBefore);
  const rowsB = await waitFor('B rows written', async () => {
    const x = await s.ctx.stats.all<{ sid: string; viewer_id: string; kind: string; content_id: string }>('SELECT DISTINCT sid, viewer_id, kind, content_id FROM player_events WHERE tenant_id = ?', [b.id]);
    return x.length ? x : null;
  }, 10_000, 100);
  expect(rowsB).toEqual([{ sid: realB, viewer_id: 'real-viewer', kind: 'live', content_id: chB }]);
  expect((await s.ctx.stats.all('SELECT sid FROM player_events WHERE viewer_id LIKE ?', ['forger%'])).length).toBe(0);
  // A beacon that names no tenant or content takes both from its session (a tokenised bare source).
  const bare = await playbackSid(s.url, keyB, { channel: chB });
  expect((await beacon({ v: 1, sid: bare, vid: 'bare-viewer', events: playing() })).status).toBe(204);
  await waitFor('B: two viewers now', async () => (await realtimeB()).concurrent === 2, 10_000, 100);
}, 60_000);

test('per-IP rate limit: 429 with Retry-After (runs last: it spends the allowance of this address)', async () => {
  const body = { v: 1, sid: 'rl', vid: 'v', events: [{ e: 'heartbeat', t: Date.now(), pos: 1, buf: 1 }] };
  let limited: Response | null = null;
  for (let i = 0; i < 130 && !limited; i++) { const x = await beacon(body); if (x.status === 429) limited = x; }
  expect(limited?.headers.get('retry-after')).toBeTruthy();
  expect(limited?.headers.get('access-control-allow-origin')).toBe('*');
}, 30_000);
