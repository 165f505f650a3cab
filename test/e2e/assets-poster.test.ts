/**
 * PUT /v1/assets/{id}/poster on real media: a generated clip is encoded by the real pipeline, then frames are drawn
 * by ffmpeg at chosen times and become the poster (new immutable URL, old chosen ones removed, audited). Hostile
 * cases: time past the duration, wrong types, unknown fields, other tenants, not-ready assets, missing scope.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import fc from 'fast-check';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { identityService } from '../../src/features/identity/service';
import { newId } from '../../src/kernel/ids';
import { defaultTenant, makeClip, registerAsset, settled } from './transcode-helpers';

/** A picture (file path, or `src` at `atS`) as 64x36 grey pixels, decoded by ffmpeg. */
async function grey(input: string, atS?: number): Promise<Uint8Array> {
  const p = Bun.spawn(['ffmpeg', '-nostdin', '-loglevel', 'error', ...(atS === undefined ? [] : ['-ss', String(atS)]), '-i', input,
    '-frames:v', '1', '-vf', 'scale=64:36', '-pix_fmt', 'gray', '-f', 'rawvideo', 'pipe:1'], { stdout: 'pipe', stderr: 'ignore' });
  const out = new Uint8Array(await new Response(p.stdout).arrayBuffer());
  expect(await p.exited).toBe(0);
  return out;
}
/** Mean absolute difference of two grey pictures. */
const diff = (a: Uint8Array, b: Uint8Array) => a.reduce((n, v, i) => n + Math.abs(v - b[i]), 0) / a.length;

let s: TestServer;
let id = '';
let duration = 0;
let src = '';
type View = { id: string; status: string; duration_s: number; playback: Record<string, string> };
const j = async (r: Response) => r.json() as Promise<any>;

beforeAll(async () => {
  s = await startTestServer({ env: { VS_TRANSCODE_ENCODER: 'libx264' } });
  src = await makeClip(join(s.dataDir, 'poster-src.mp4'), { seconds: 4, size: '320x180' });
  id = registerAsset(s.ctx, src);
  expect((await settled(s.ctx, id, 120_000)).status).toBe('ready');
  duration = (await j(await s.api('GET', `/v1/assets/${id}`))).duration_s;
}, 180_000);
afterAll(async () => { await s?.stop(); }, 60_000);

const bytes = async (url: string) => {
  const r = await fetch(url);
  expect(r.status).toBe(200);
  return { type: r.headers.get('content-type') ?? '', cache: r.headers.get('cache-control') ?? '', body: new Uint8Array(await r.arrayBuffer()) };
};
const outDir = () => {
  const row = s.ctx.db.query<{ output: string }, [string]>('SELECT output FROM assets WHERE id = ?').get(id)!;
  return join(s.dataDir, JSON.parse(row.output).dir as string);
};

test('a frame at a chosen time becomes the poster: new URL, JPEG and WebP, earlier choice removed, audited', async () => {
  const before = await j(await s.api('GET', `/v1/assets/${id}`)) as View;
  const original = await bytes(before.playback.poster);
  const r1 = await s.api('PUT', `/v1/assets/${id}/poster`, { time_s: 3.2 });
  expect(r1.status).toBe(200);
  const a1 = await j(r1) as View;
  expect(a1.id).toBe(id);
  expect(a1.playback.poster).not.toBe(before.playback.poster);
  expect(a1.playback.poster).toMatch(/\/poster-[a-z0-9]+\.jpg$/);
  const p1 = await bytes(a1.playback.poster);
  expect(p1.type).toContain('image/jpeg');
  expect(p1.cache).toContain('immutable');
  expect([p1.body[0], p1.body[1]]).toEqual([0xff, 0xd8]);
  expect(Buffer.compare(Buffer.from(p1.body), Buffer.from(original.body))).not.toBe(0);
  // It is the frame at 3.2 s: much closer to the source's frame there than to its frame at 0.5 s.
  const file = join(s.dataDir, 'p1.jpg');
  await Bun.write(file, p1.body);
  const got = await grey(file), at = await grey(src, 3.2), early = await grey(src, 0.5);
  expect(diff(got, at)).toBeLessThan(diff(got, early) / 2);
  const webp = readdirSync(outDir()).filter((f) => /^poster-.*\.webp$/.test(f));
  expect(webp.length).toBe(1);
  // GET answers the same poster; the other playback files are unchanged.
  const again = await j(await s.api('GET', `/v1/assets/${id}`)) as View;
  expect(again.playback.poster).toBe(a1.playback.poster);
  expect(again.playback.hls).toBe(before.playback.hls);

  // The very end of the asset still gives a frame (the seek falls back a little when the last frame is passed).
  const r2 = await s.api('PUT', `/v1/assets/${id}/poster`, { time_s: duration });
  expect(r2.status).toBe(200);
  const a2 = await j(r2) as View;
  expect(a2.playback.poster).not.toBe(a1.playback.poster);
  await bytes(a2.playback.poster);
  // Only the newest chosen poster is kept on disk; the encode's own poster.jpg stays.
  const files = readdirSync(outDir()).filter((f) => f.startsWith('poster'));
  expect(files.filter((f) => f.startsWith('poster-')).length).toBe(2);
  expect(files).toContain('poster.jpg');
  expect((await fetch(a1.playback.poster)).status).toBe(404);
  expect(readdirSync(outDir()).some((f) => f.startsWith('.poster-'))).toBe(false);

  const audit = await j(await s.api('GET', '/v1/audit?limit=50'));
  const mine = (audit.items as { action: string; target: string; details: { time_s: number } }[]).filter((e) => e.action === 'asset.poster_changed');
  expect(mine.map((e) => e.details.time_s).sort()).toEqual([3.2, duration].sort());
  expect(mine.every((e) => e.target === id)).toBe(true);
}, 120_000);

test('hostile: past the duration, wrong types, unknown fields, other tenants, not ready, no key, viewer', async () => {
  const put = (body: unknown, o: { key?: string | null; path?: string } = {}) => s.api('PUT', o.path ?? `/v1/assets/${id}/poster`, body, { key: o.key });
  const past = await put({ time_s: duration + 0.5 });
  expect(past.status).toBe(422);
  expect((await j(past)).errors[0].field).toBe('time_s');
  for (const body of [{ time_s: -1 }, { time_s: '2' }, { time_s: null }, {}]) expect([body, (await put(body)).status]).toEqual([body, 422]);
  expect((await put({ time_s: 1, frame: 3 })).status).toBe(400);
  // Another tenant's owner sees no such asset.
  const other = identityService(s.ctx).createTenant({ name: 'Poster other' });
  const otherKey = identityService(s.ctx).createKey(other.id, { role: 'owner' }).key;
  expect((await put({ time_s: 1 }, { key: otherKey })).status).toBe(404);
  expect((await put({ time_s: 1 }, { path: `/v1/assets/${newId()}/poster` })).status).toBe(404);
  expect((await put({ time_s: 1 }, { path: '/v1/assets/not-a-uuid/poster' })).status).toBe(404);
  // Not ready (still processing, or failed): 409.
  const pending = newId();
  const tenant = defaultTenant(s.ctx);
  s.ctx.db.query(`INSERT INTO assets (id, tenant_id, title, status, source, created_at, updated_at) VALUES (?, ?, '', 'encoding', '{"kind":"upload"}', ?, ?)`).run(pending, tenant, Date.now(), Date.now());
  const busy = await put({ time_s: 0 }, { path: `/v1/assets/${pending}/poster` });
  expect(busy.status).toBe(409);
  expect((await j(busy)).detail).toContain('not ready');
  // Key first, then scope.
  expect((await put({ time_s: 1 }, { key: null })).status).toBe(401);
  const viewer = identityService(s.ctx).createKey(tenant, { role: 'viewer' }).key;
  expect((await put({ time_s: 1 }, { key: viewer })).status).toBe(403);
}, 60_000);

test('fuzzed bodies never draw a frame and never fail the server (fast-check)', async () => {
  const posterBefore = (await j(await s.api('GET', `/v1/assets/${id}`))).playback.poster;
  const bad = fc.oneof(
    fc.record({ time_s: fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.integer()), fc.object()) }),
    fc.record({ time_s: fc.double({ max: -0.001, noNaN: true }) }),
    fc.record({ time_s: fc.double({ min: duration + 0.01, max: 1e12, noNaN: true }) }),
    fc.record({ time_s: fc.double({ min: 0, max: 1, noNaN: true }), extra: fc.string() }),
    fc.anything(),
  );
  await fc.assert(fc.asyncProperty(bad, async (body) => {
    const r = await s.api('PUT', `/v1/assets/${id}/poster`, body === undefined ? 'null' : body);
    await r.arrayBuffer();
    return r.status === 400 || r.status === 422;
  }), { numRuns: 80 });
  expect((await j(await s.api('GET', `/v1/assets/${id}`))).playback.poster).toBe(posterBefore);
  expect(existsSync(outDir())).toBe(true);
}, 60_000);
