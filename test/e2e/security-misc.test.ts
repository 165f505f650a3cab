/**
 * Issue 41 item 6 (the parts outside beacons and the consent page): the public player-session issuer is rate limited
 * per client address and its expired rows are swept; a signed inbound-hook call cannot be replayed under a new
 * X-VS-Delivery; an /mcp batch is charged per message; tokens are refused from `expires_at` exactly; unknown MCP
 * documents answer "resource not found"; titles are bidi-isolated on the watch page. Every HTTP reproduction is sent to
 * the appliance's own port and to its nginx delivery front.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { addReadyAsset } from '../helpers/ready-asset';
import { rawRequest } from '../helpers/raw-http';
import { playbackToken, pathOf, rawGet } from '../helpers/front-fixture';
import { ManualClock } from '../../src/kernel/clock';
import { newId } from '../../src/kernel/ids';
import { addressKey, SESSION_LIMITS } from '../../src/features/playback/session-limits';
import { balanceBidi } from '../../src/text/bidi';
import { keyFor, rawMcp } from './mcp-helpers';
import { launch } from './player-helpers';

const clock = new ManualClock(Date.now());
let s: TestServer;
let own: number, front: number, tenant: string, asset: string;

beforeAll(async () => {
  // Grants off: every front request asks the appliance, whose clock this test moves.
  s = await startTestServer({ clock, workers: false, env: { VS_DELIVERY_FRONT_PORT: '0', VS_DELIVERY_FRONT_GRANTS: 'off' } });
  own = Number(new URL(s.url).port);
  front = s.front!.port;
  tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  asset = addReadyAsset(s, tenant, new Uint8Array(4096).fill(7));
}, 60_000);
afterAll(async () => { await s?.stop(); }, 60_000);

/** A raw POST with a JSON body to 127.0.0.1:port. */
const rawPost = (port: number, path: string, body: string, extra: Record<string, string> = {}) =>
  rawRequest(port, `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}${Object.entries(extra).map(([k, v]) => `\r\n${k}: ${v}`).join('')}`, body);
/** Moves the manual clock to the start of a later minute (a fresh per-minute window). */
const nextMinute = () => clock.set((Math.floor(clock.now() / 60_000) + 2) * 60_000);
const sessionRows = () => s.ctx.db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM playback_sessions').get()!.n;

describe('player sessions (POST /v1/playback/session)', () => {
  const body = () => JSON.stringify({ tenant: 'default', asset, page_origin: 'https://news.example' });

  test('one address opens at most the default 120 a minute, then 429 problem details with Retry-After', async () => {
    nextMinute();
    clock.advance(15_000); // 45 s left in this minute
    const codes: number[] = [];
    for (let i = 0; i < SESSION_LIMITS.defaultPerIpPerMin; i++) codes.push((await rawPost(own, '/v1/playback/session', body())).status);
    expect(codes.every((c) => c === 200)).toBe(true);
    const over = await rawPost(own, '/v1/playback/session', body());
    expect(over.status).toBe(429);
    expect(over.headers['content-type']).toStartWith('application/problem+json');
    expect(over.headers['retry-after']).toBe('45');
    expect(JSON.parse(over.body.toString())).toMatchObject({ status: 429, type: expect.stringMatching(/\/rate_limited$/) });
    // The front serves delivery only: the issuer is not reachable there, so it is no way around the limit.
    expect((await rawPost(front, '/v1/playback/session', body())).status).toBe(404);
    clock.advance(45_000);
    expect((await rawPost(own, '/v1/playback/session', body())).status).toBe(200);
  }, 60_000);

  test('a policy figure replaces the default; IPv6 addresses count by their /64', async () => {
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'wide', sessions_per_ip_per_min: 130 })).json() as { id: string };
    expect((await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: asset })).status).toBe(200);
    nextMinute();
    const codes: number[] = [];
    for (let i = 0; i < 131; i++) codes.push((await rawPost(own, '/v1/playback/session', body())).status);
    expect(codes.slice(0, 130).every((c) => c === 200)).toBe(true);
    expect(codes[130]).toBe(429);
    expect((await s.api('DELETE', `/v1/playback/policies/${pol.id}`)).status).toBe(204);
  }, 60_000);

  test('expired session rows are swept (kept 10 minutes past expiry)', async () => {
    nextMinute();
    for (let i = 0; i < 40; i++) expect((await rawPost(own, '/v1/playback/session', body())).status).toBe(200);
    expect(sessionRows()).toBeGreaterThanOrEqual(40);
    // Every session so far expires within an hour (the default TTL); past that plus the keep time, the next issue sweeps.
    clock.advance(3600_000 + SESSION_LIMITS.keepExpiredMs + SESSION_LIMITS.sweepEveryMs);
    expect((await rawPost(own, '/v1/playback/session', body())).status).toBe(200);
    expect(sessionRows()).toBe(1);
    // A session still inside its keep time stays (beacons of a player that just stopped find it).
    clock.advance(3600_000 + 60_000);
    expect((await rawPost(own, '/v1/playback/session', body())).status).toBe(200);
    expect(sessionRows()).toBe(2);
  }, 60_000);
});

describe('token expiry', () => {
  test('a token is refused from expires_at exactly, on the own port and through the front', async () => {
    const t = await playbackToken(s, { asset, ttl_s: 60 });
    const exp = Date.parse(t.expires_at);
    const path = pathOf(t.src);
    const both = async () => [(await rawGet(own, path)).status, (await rawGet(front, path)).status];
    clock.set(exp - 1);
    expect(await both()).toEqual([200, 200]);
    clock.set(exp);
    expect(await both()).toEqual([403, 403]);
    clock.set(exp + 999);
    expect(await both()).toEqual([403, 403]);
  }, 30_000);
});

describe('inbound hook replays', () => {
  let hook: { id: string; secret: string };
  const seed = (ext: string) => {
    const id = newId();
    s.ctx.db.query(`INSERT INTO assets (id, tenant_id, external_id, title, status, source, created_at, updated_at) VALUES (?, ?, ?, 't', 'ready', '{}', ?, ?)`).run(id, tenant, ext, Date.now(), Date.now());
    return id;
  };
  const published = (id: string) => s.ctx.db.query<{ published: number }, [string]>('SELECT published FROM assets WHERE id = ?').get(id)!.published;
  const events = (id: string) => s.ctx.db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM events WHERE type = 'asset.published' AND json_extract(data, '$.asset') = ?").get(id)!.n;
  const hmac = (msg: string) => createHmac('sha256', hook.secret).update(msg).digest('hex');
  const call = (port: number, body: string, h: Record<string, string>) => rawPost(port, `/v1/hooks/${hook.id}`, body, h);

  beforeAll(async () => {
    const r = await s.api('POST', '/v1/inbound-hooks', { kind: 'cms_publish', mapping: { path: 'videos.*' } });
    expect(r.status).toBe(201);
    hook = await r.json() as typeof hook;
  });

  test('the same sha256= signature under a new X-VS-Delivery does nothing again', async () => {
    const a = seed('replay-1');
    const body = JSON.stringify({ videos: ['replay-1'] });
    const ts = String(Math.floor(clock.now() / 1000));
    const sig = `sha256=${hmac(`${ts}.${body}`)}`;
    const first = await call(own, body, { 'x-vs-timestamp': ts, 'x-vs-signature': sig, 'x-vs-delivery': 'cms-1' });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body.toString())).toMatchObject({ delivery_id: 'cms-1', duplicate: false, published: [a] });
    // An editor takes the video down; an eavesdropper re-sends the captured call with a fresh delivery id.
    s.ctx.db.query('UPDATE assets SET published = 0 WHERE id = ?').run(a);
    clock.advance(200_000);
    const replay = await call(own, body, { 'x-vs-timestamp': ts, 'x-vs-signature': sig, 'x-vs-delivery': 'attacker-2' });
    expect(replay.status).toBe(200);
    expect(JSON.parse(replay.body.toString())).toMatchObject({ delivery_id: 'cms-1', duplicate: true, published: [a] });
    expect(published(a)).toBe(0);
    expect(events(a)).toBe(1);
    // Through the front: the hook address is not served there at all.
    expect((await call(front, body, { 'x-vs-timestamp': ts, 'x-vs-signature': sig, 'x-vs-delivery': 'attacker-3' })).status).toBe(404);
    expect(published(a)).toBe(0);
    // Past the window the timestamp is stale anyway.
    clock.advance(101_000);
    expect((await call(own, body, { 'x-vs-timestamp': ts, 'x-vs-signature': sig, 'x-vs-delivery': 'attacker-4' })).status).toBe(401);
  });

  test('a v2= signature covers the delivery id: another id does not verify', async () => {
    const a = seed('replay-2');
    const body = JSON.stringify({ videos: ['replay-2'] });
    const ts = String(Math.floor(clock.now() / 1000));
    const sig = `v2=${hmac(`${ts}.cms-9.${body}`)}`;
    const ok = await call(own, body, { 'x-vs-timestamp': ts, 'x-vs-signature': sig, 'x-vs-delivery': 'cms-9' });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body.toString())).toMatchObject({ delivery_id: 'cms-9', duplicate: false, published: [a] });
    s.ctx.db.query('UPDATE assets SET published = 0 WHERE id = ?').run(a);
    const other = await call(own, body, { 'x-vs-timestamp': ts, 'x-vs-signature': sig, 'x-vs-delivery': 'cms-10' });
    expect(other.status).toBe(401);
    expect(JSON.parse(other.body.toString())).toMatchObject({ status: 401, detail: 'signature does not match' });
    // The same id again is the documented idempotent repeat.
    expect(JSON.parse((await call(own, body, { 'x-vs-timestamp': ts, 'x-vs-signature': sig, 'x-vs-delivery': 'cms-9' })).body.toString())).toMatchObject({ duplicate: true });
    expect(published(a)).toBe(0);
  });
});

describe('/mcp', () => {
  const ping = (i: number) => ({ jsonrpc: '2.0', id: i, method: 'ping' });
  const read = (uri: string, id = 1) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } });

  test('unknown documents, __proto__ and friends answer resource not found (-32002)', async () => {
    const good = await (await rawMcp(s, read('viewstream://docs/en/uploads'))).json() as { result: { contents: { text: string }[] } };
    expect(good.result.contents[0].text).toStartWith('# Uploads');
    const bad = ['viewstream://docs/en/__proto__', 'viewstream://docs/en/constructor', 'viewstream://docs/he/toString', 'viewstream://docs/en/hasOwnProperty',
      'viewstream://docs/en/nope', 'viewstream://docs/__proto__/uploads', 'viewstream://openapi/__proto__', 'viewstream://openapi/noSuchOperation'];
    for (const uri of bad) {
      const r = await rawMcp(s, read(uri));
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32002, message: expect.stringMatching(/Resource not found$/), data: { uri } } });
    }
    // The same inside a batch (the SDK's own transport).
    const batch = await (await rawMcp(s, bad.slice(0, 3).map((u, i) => read(u, i + 1)), { headers: { 'mcp-protocol-version': '2025-03-26' } })).json() as { error: { code: number } }[];
    expect(batch.map((a) => a.error.code)).toEqual([-32002, -32002, -32002]);
    expect((await rawPost(front, '/mcp', JSON.stringify(read(bad[0])), { authorization: `Bearer ${s.key}`, accept: 'application/json' })).status).toBe(404);
  });

  test('a batch of 20 is charged as 20 requests', async () => {
    const key = await keyFor(s, { role: 'viewer' });
    const { perSecond, burst } = s.ctx.config.rateLimit;
    const batch = Array.from({ length: 20 }, (_, i) => ping(i + 1));
    const t0 = performance.now();
    let accepted = 0, refused: Response | null = null;
    for (let i = 0; i < 12 && !refused; i++) {
      const r = await rawMcp(s, batch, { key, headers: { 'mcp-protocol-version': '2025-03-26' } });
      if (r.status === 200) { expect(((await r.json()) as unknown[]).length).toBe(20); accepted += 20; } else refused = r;
    }
    const elapsedS = (performance.now() - t0) / 1000;
    expect(refused?.status).toBe(429);
    expect(refused!.headers.get('content-type')).toStartWith('application/problem+json');
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Never more messages than the bucket holds plus what it refilled meanwhile (and one batch of slack).
    expect(accepted).toBeLessThanOrEqual(burst + perSecond * elapsedS + 20);
    await waitFor('the key may call again', async () => (await rawMcp(s, ping(99), { key })).status === 200, 10_000, 250);
    expect((await rawPost(front, '/mcp', JSON.stringify(batch), { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-03-26' })).status).toBe(404);
  }, 30_000);
});

describe('watch page titles', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await launch(); }, 60_000);
  afterAll(async () => { await browser?.close(); });

  test('a right-to-left override in a title is isolated in <title> and in the headings', async () => {
    const title = 'Weather \u202Etxt.exe'; // an override never closed
    const description = 'Stray \u2069 isolate close \u202Bthen an embedding';
    s.ctx.db.query('UPDATE assets SET title = ?, metadata = ? WHERE id = ?').run(title, JSON.stringify({ description }), asset);
    const page = `/w/default/vod/${asset}`;
    const r = await rawGet(own, page);
    expect(r.status).toBe(200);
    const html = r.body.toString('utf8');
    expect(html).toContain('<title>\u2068Weather \u202Etxt.exe\u202C\u2069</title>');
    expect(html).toContain('<h1><bdi>Weather \u202Etxt.exe\u202C</bdi></h1>');
    expect(html).toContain('<p><bdi>Stray  isolate close \u202Bthen an embedding\u202C</bdi></p>');
    expect(balanceBidi('\u2067a\u202Eb\u2069c')).toBe('\u2067a\u202Eb\u2069c');
    expect((await rawGet(front, page)).status).toBe(404);
    const tab = await browser.newPage();
    try {
      await tab.goto(`${s.url}${page}`);
      expect(await tab.title()).toBe('\u2068Weather \u202Etxt.exe\u202C\u2069');
      const h1 = await tab.evaluate(() => { const b = document.querySelector('h1 > bdi')!; return { text: b.textContent, bidi: getComputedStyle(b).unicodeBidi }; });
      expect(h1).toEqual({ text: 'Weather \u202Etxt.exe\u202C', bidi: 'isolate' });
    } finally { await tab.close(); }
  }, 60_000);
});
