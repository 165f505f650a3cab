/**
 * Live playlists at the edge (issue 46): a real recording channel (SRT push), the nginx delivery front with its edge
 * cache, and viewers on their own loopback addresses (MaxMind-format databases written here). The gate decides every
 * viewer's request and names the edge's copy of the playlist (`X-Accel-Redirect`), keyed by channel and rendition, never
 * by token: two viewers' tokens in the same second are a MISS then a HIT with the same bytes; a revoked token and a
 * blacked-out viewer are refused although the playlist is cached; the gate-free fill route is not reachable from
 * outside; the playlist still advances.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { liveEnv, type Pusher } from './live-helpers';
import { recordChannel } from './catchup-helpers';
import { VIEWERS, from, writeGeoDbs } from './geo-helpers';
import { rawGet } from '../helpers/front-fixture';

const dir = mkdtempSync(join(tmpdir(), 'vs-edge-live-'));
let s: TestServer, own: number, front: number, slug: string, tenant: string, pusher: Pusher;
const { us, il } = VIEWERS;
const HOUR = 3_600_000;

beforeAll(async () => {
  s = await startTestServer({ env: { ...(await liveEnv()), ...writeGeoDbs(dir), VS_DELIVERY_FRONT_PORT: '0' } });
  own = Number(new URL(s.url).port);
  front = s.front!.port;
  tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  // Long enough for the whole file (the playlist must still advance at its end), short segments.
  const rec = await recordChannel(s, 'Edge Live', 120, 2);
  slug = rec.ch.slug; pusher = rec.pusher;
}, 90_000);
afterAll(async () => { pusher?.kill(); await s?.stop(); rmSync(dir, { recursive: true, force: true }); });

/** A new viewer's token (a session of its own) for the channel: its master and `src` variant paths at the front. */
const viewer = async () => {
  const r = await s.api('POST', '/v1/playback/tokens', { channel: slug });
  expect(r.status).toBe(200);
  const t = await r.json() as { src: string; sid: string };
  const u = new URL(t.src);
  return { sid: t.sid, master: u.pathname, variant: new URL('src/index.m3u8', u).pathname };
};
const lastSegment = (body: Buffer) => body.toString().trim().split('\n').filter((l) => l && !l.startsWith('#')).at(-1);

test('two viewers in the same second: MISS then HIT (same bytes, no token in the key); the gate still refuses a revoked token and a blacked-out viewer', async () => {
  const a = await viewer(), b = await viewer();
  // The master playlist: the first request fills the edge's copy, the other viewer's is answered from it.
  const m1 = await from(il.ip, front, 'GET', a.master);
  expect(m1.status).toBe(200);
  expect(m1.headers['x-cache-status']).toBe('MISS');
  expect(m1.headers['content-type']).toBe('application/vnd.apple.mpegurl');
  expect(m1.headers['cache-control']).toBe('public, max-age=1');
  // The redirect and the fill's expiry stay between the appliance and nginx.
  for (const h of ['x-accel-redirect', 'x-accel-expires']) expect(m1.headers[h]).toBeUndefined();
  expect(m1.body.toString()).toContain('src/index.m3u8');
  // The variant: A then B at once (retried when a loaded box let the ~1 s copy expire in between).
  let first = '', hit: { a: Buffer; b: Buffer; rid: [string, string] } | null = null;
  for (let i = 0; i < 20 && !hit; i++) {
    const ra = await from(il.ip, front, 'GET', a.variant), rb = await from(il.ip, front, 'GET', b.variant);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    if (i === 0) first = ra.headers['x-cache-status']!;
    if (rb.headers['x-cache-status'] === 'HIT') hit = { a: ra.body, b: rb.body, rid: [ra.headers['x-request-id']!, rb.headers['x-request-id']!] };
  }
  expect(first).toBe('MISS');
  expect(hit).not.toBeNull();
  expect(hit!.b.equals(hit!.a)).toBe(true);
  // Each answer carries its own request's id (the gate's decision), not the fill's.
  expect(hit!.rid[0]).not.toBe(hit!.rid[1]);
  // One key per playlist in the tag index: the tenant's id, channel and rendition, never a token.
  const keys = await waitFor('playlist keys indexed', () => {
    const k = s.front!.cache()!.select(tenant, { prefix: `/live/` }).filter((x) => x.startsWith('p|'));
    return k.length >= 2 ? k : null;
  });
  expect(keys!.sort()).toEqual([`p|/_vs_pl/live/${tenant}/${slug}/master.m3u8`, `p|/_vs_pl/live/${tenant}/${slug}/src/index.m3u8`]);

  // Revoked: A is refused on its next request although the playlist is cached (B still gets it).
  expect((await s.api('POST', '/v1/security/revocations', { sid: a.sid })).status).toBe(201);
  for (const p of [a.master, a.variant]) {
    const r = await from(il.ip, front, 'GET', p);
    expect(`${r.status} ${r.headers['x-cache-status'] ?? '-'}`).toBe('403 -');
    expect(r.body.toString()).not.toContain('#EXTM3U');
  }
  expect((await from(il.ip, front, 'GET', b.variant)).status).toBe(200);

  // A blackout for the US: the US viewer is refused with the cached copy there; the Israeli viewer still gets it.
  const bo = await s.api('POST', '/v1/blackouts', { channel: slug, starts_at: new Date(Date.now() - HOUR).toISOString(), ends_at: new Date(Date.now() + HOUR).toISOString(), countries: ['US'] });
  expect(bo.status).toBe(201);
  const c = await viewer();
  for (const p of [c.master, c.variant]) {
    const r = await from(us.ip, front, 'GET', p);
    expect(`${r.status} ${r.headers['x-vs-refusal']} ${r.headers['x-cache-status'] ?? '-'}`).toBe('403 blackout -');
    expect(r.body.toString()).not.toContain('#EXTM3U');
  }
  const ok = await from(il.ip, front, 'GET', c.variant);
  expect(ok.status).toBe(200);
  expect(ok.headers['x-cache-status']).toMatch(/^(HIT|MISS|EXPIRED|STALE|UPDATING)$/);
  expect((await s.api('DELETE', `/v1/blackouts/${(await bo.json() as { id: string }).id}`)).status).toBe(204);

  // Purge by the playlists' prefix (the viewer's URL without its token): both keys, and the next request is a MISS.
  const prefix = c.master.replace(/^\/t\/[^/]+/, '').replace(/master\.m3u8$/, '');
  const p = await s.api('POST', '/v1/purge', { prefix });
  expect(p.status).toBe(202);
  expect((await p.json() as { keys: number }).keys).toBe(2);
  await waitFor('purged', async () => {
    const r = await from(il.ip, front, 'GET', c.master);
    return r.headers['x-cache-status'] === 'MISS' ? true : null;
  }, 10_000);
}, 60_000);

test('the fill route and the internal location are not reachable from outside', async () => {
  const v = await viewer();
  const token = v.master.split('/')[2]!;
  for (const p of [`/_vs_fill/live/${tenant}/${slug}/src/index.m3u8`, `/_vs_pl/live/${tenant}/${slug}/src/index.m3u8`,
    `/t/${token}/_vs_fill/live/${tenant}/${slug}/src/index.m3u8`, `/live/../_vs_fill/live/${tenant}/${slug}/master.m3u8`]) {
    for (const port of [front, own]) {
      const r = await rawGet(port, p);
      expect(`${port === front ? 'front' : 'appliance'} ${p} ${r.status}`).toMatch(/ (400|403|404)$/);
      expect(r.body.toString()).not.toContain('#EXTM3U');
    }
  }
  // A rendition the channel does not have: the gate's own 404, no edge copy (nor a key in the tag index).
  const none = await rawGet(front, v.variant.replace('/src/', '/nope/'));
  expect(`${none.status} ${none.headers['x-cache-status'] ?? '-'}`).toBe('404 -');
  expect(s.front!.cache()!.select(tenant, { prefix: '/live/' }).filter((k) => k.includes('/nope/'))).toEqual([]);
});

test('the cached playlist still advances: new segments appear after its max-age', async () => {
  const v = await viewer();
  const statuses = new Set<string>();
  const before = lastSegment((await from(il.ip, front, 'GET', v.variant)).body);
  expect(before).toMatch(/^seg\/\d+\.m4s$/);
  await waitFor('a new segment in the cached playlist', async () => {
    const r = await from(il.ip, front, 'GET', v.variant);
    expect(r.status).toBe(200);
    statuses.add(r.headers['x-cache-status']!);
    const last = lastSegment(r.body)!;
    return last !== before ? true : null;
  }, 30_000, 100);
  // Polled every 100 ms: most answers came from the edge's copy.
  expect(statuses.has('HIT')).toBe(true);
}, 40_000);
