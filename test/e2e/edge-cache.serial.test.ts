import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Database } from 'bun:sqlite';
import { spawnServe } from '../helpers/proc';
import { frontFacts } from '../../src/delivery-front/public-front';
import { join } from 'node:path';
import { waitFor, type TestServer } from '../helpers/server';
import { addReadyAsset } from '../helpers/ready-asset';
import { pathOf, playbackToken, rawGet, startFront } from '../helpers/front-fixture';
import { identityService } from '../../src/features/identity/service';
import { startReceiver, verifyLikeACustomer, type Receiver } from './webhooks-receiver';

// Issue 46: the delivery front's edge cache. A segment is stored once whatever token asked (key = the file), the gate
// still decides every request (a revoked token is refused although its segment is cached), purge by asset, prefix,
// URL and tag evicts exactly the named keys (the next request is a MISS), pre-warm walks a real HLS ladder so every
// rendition's segments are HITs, fires a signed prewarm.finished, and holds 6 per minute per tenant.
let s: TestServer;
let tenant: string, asset: string, front: number;
let rx: Receiver;
const SEG = randomBytes(200 * 1024);

const get = (path: string) => rawGet(front, path);
/** waitFor for a value (null: not yet). */
const until = async <T>(what: string, fn: () => T | null | Promise<T | null>): Promise<T> => (await waitFor(what, fn))!;
const token = (body: Record<string, unknown>) => playbackToken(s, body);
/** A fresh token's segment path of `id` (a new session each time: what other viewers would ask). */
const segPath = async (id: string, file = 'seg_00001.m4s') => pathOf((await token({ asset: id })).src, file);
const jobDone = (id: string, key?: string) => until(`job ${id}`, async () => {
  const j = await (await s.api('GET', `/v1/jobs/${id}`, undefined, key ? { key } : {})).json() as Record<string, any>;
  return j.status === 'succeeded' || j.status === 'failed' ? j : null;
});
/** Waits until the tag index holds `n` keys (the fill log is read back every 100 ms). */
const indexed = (n: number) => waitFor(`${n} keys indexed`, () => (s.front!.cache()!.size() >= n ? true : null));
async function purge(body: Record<string, unknown>, key?: string) {
  const r = await s.api('POST', '/v1/purge', body, key ? { key } : {});
  return { status: r.status, json: await r.json() as Record<string, any> };
}

/** A real two-rendition HLS ladder (fMP4) written by ffmpeg into a ready asset's output. */
async function addLadder(): Promise<string> {
  const id = addReadyAsset(s, tenant, randomBytes(16));
  const dir = join(s.dataDir, `media/${tenant}/assets/${id}/v1`);
  for (const [name, size, rate] of [['low', '160x90', '150k'], ['high', '320x180', '400k']] as const) {
    const p = Bun.spawn(['ffmpeg', '-v', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25:duration=3`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', rate, '-g', '25', '-f', 'hls', '-hls_time', '1', '-hls_playlist_type', 'vod',
      '-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', `${name}_init.mp4`, '-hls_segment_filename', join(dir, `${name}_%05d.m4s`),
      join(dir, `${name}.m3u8`)], { stderr: 'pipe' });
    expect(await p.exited).toBe(0);
  }
  writeFileSync(join(dir, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=160x90\nlow.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=500000,RESOLUTION=320x180\nhigh.m3u8\n');
  return id;
}
/**
 * Cache files of data-dir objects (`f|` keys) whose body does not start at a page boundary (cache-align.ts): nginx's
 * binary header keeps body_start as a little-endian u16 at byte 56, the key follows at byte 336.
 */
function unalignedFileObjects(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) { walk(p); continue; }
      const head = readFileSync(p).subarray(0, 600);
      if (head.subarray(336, 344).toString('latin1') !== '\nKEY: f|') continue;
      const bodyStart = head.readUInt16LE(56);
      if (bodyStart % 4096 !== 0) out.push(`${head.subarray(342, 600).toString('latin1').split('\n')[0]} at ${bodyStart}`);
    }
  };
  walk(join(s.dataDir, 'cache', 'edge'));
  return out;
}
/** Every init and media segment file of a ladder rendition (the output is flat: `<rendition>_...`). */
const filesOf = (id: string, r: string) => readdirSync(join(s.dataDir, `media/${tenant}/assets/${id}/v1`)).filter((f) => f.startsWith(`${r}_`) && /\.(m4s|mp4)$/.test(f));

beforeAll(async () => {
  // VS_EDGE_CACHE_FILES=on: the data dir's own files through the cache too (the default sends them straight from disk).
  ({ s, front, tenant, asset } = await startFront(SEG, { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32', VS_EDGE_CACHE_FILES: 'on' }));
  rx = startReceiver();
}, 60_000);
afterAll(async () => { rx?.stop(); await s?.stop(); }, 60_000);

describe('edge cache (issue 46)', () => {
  test('a segment is a MISS once, then a HIT for every token (same bytes and player headers); a revoked token stays refused', async () => {
    const a = await token({ asset });
    const first = await get(pathOf(a.src));
    expect(first.status).toBe(200);
    expect(first.headers['x-cache-status']).toBe('MISS');
    expect(Buffer.from(first.body).equals(SEG)).toBe(true);
    // Another viewer (the appliance decides, names the file; nginx has it): a HIT with the appliance's headers.
    const other = await get(await segPath(asset));
    expect(other.headers['x-cache-status']).toBe('HIT');
    expect(Buffer.from(other.body).equals(SEG)).toBe(true);
    for (const h of ['content-type', 'cache-control', 'etag', 'access-control-allow-origin']) expect(other.headers[h]).toBe(first.headers[h]);
    expect(other.headers['content-type']).toBe('video/iso.segment');
    // The cache's copy has its body on a page boundary (hits sent from an aligned offset); the padding never shows.
    expect(other.headers['x-vs-pad']).toBeUndefined();
    expect(unalignedFileObjects()).toEqual([]);
    // The first token again (its grant: nginx alone) also from the cache; a range of the cached object.
    expect((await get(pathOf(a.src))).headers['x-cache-status']).toBe('HIT');
    const range = await rawGet(front, pathOf(a.src), { Range: 'bytes=10-19' });
    expect(range.status).toBe(206);
    expect(Buffer.from(range.body).equals(SEG.subarray(10, 20))).toBe(true);
    // Revoked: refused although the object is cached, on the next request.
    expect((await s.api('POST', '/v1/security/revocations', { sid: a.sid })).status).toBe(201);
    const refused = await get(pathOf(a.src));
    expect(refused.status).toBe(403);
    expect(refused.headers['x-cache-status']).toBeUndefined();
    expect(Buffer.from(refused.body).includes(SEG.subarray(0, 64))).toBe(false);
    // A token for nothing cached and a forged token: refused before the cache too.
    expect((await get(pathOf(a.src).replace(/\.[A-Za-z0-9_-]{43}\//, `.${'A'.repeat(43)}/`))).status).toBe(403);
  });

  test('purge by asset, prefix, URL and tag: the right key counts, and the next request is a MISS', async () => {
    const id = addReadyAsset(s, tenant, randomBytes(64 * 1024));
    writeFileSync(join(s.dataDir, `media/${tenant}/assets/${id}/v1/seg_00002.m4s`), randomBytes(1000));
    const fill = async () => {
      for (const f of ['seg_00001.m4s', 'seg_00002.m4s']) { const r = await get(await segPath(id, f)); expect(r.status).toBe(200); }
      for (const f of ['seg_00001.m4s', 'seg_00002.m4s']) expect((await get(await segPath(id, f))).headers['x-cache-status']).toBe('HIT');
      await waitFor('keys of the asset indexed', () => (s.front!.cache()!.select(tenant, { asset_id: id }).length === 2 ? true : null));
    };
    const status = async (f: string) => (await get(await segPath(id, f))).headers['x-cache-status'];
    const prefix = `/m/${tenant}/assets/${id}/`;
    const cases: [string, Record<string, unknown>, number, string[]][] = [
      ['asset_id', { asset_id: id }, 2, ['seg_00001.m4s', 'seg_00002.m4s']],
      ['prefix', { prefix: `${prefix}v1/seg_00002` }, 1, ['seg_00002.m4s']],
      // A viewer's full URL (host and token are ignored).
      ['urls', { urls: [`http://127.0.0.1:${front}${await segPath(id)}`] }, 1, ['seg_00001.m4s']],
      ['tag', { tag: `asset:${id}` }, 2, ['seg_00001.m4s', 'seg_00002.m4s']],
    ];
    for (const [name, body, n, missing] of cases) {
      await fill();
      const p = await purge(body);
      expect(p.status, name).toBe(202);
      expect(p.json.keys, name).toBe(n);
      expect(p.json.prefix, name).toBe((body.prefix as string | undefined) ?? null);
      const j = await jobDone(p.json.job_id);
      expect(j.status, name).toBe('succeeded');
      expect(j.result, name).toMatchObject({ keys: n, removed: n, edge: true });
      for (const f of ['seg_00001.m4s', 'seg_00002.m4s']) expect(await status(f), `${name} ${f}`).toBe(missing.includes(f) ? 'MISS' : 'HIT');
    }
  });

  test('purge stays inside the tenant and refuses hostile bodies with problem details', async () => {
    await get(await segPath(asset));
    await indexed(1);
    const other = identityService(s.ctx).createTenant({ name: 'Other' });
    const key = identityService(s.ctx).createKey(other.id, { role: 'owner' }).key;
    const p = await purge({ prefix: `/m/${tenant}/` }, key);
    expect(p.status).toBe(202);
    expect(p.json.keys).toBe(0);
    expect((await jobDone(p.json.job_id, key)).result).toMatchObject({ keys: 0, removed: 0 });
    expect((await get(await segPath(asset))).headers['x-cache-status']).toBe('HIT');
    expect((await purge({ asset_id: asset }, key)).status).toBe(404);
    expect((await purge({ asset_id: asset, prefix: '/m/' })).status).toBe(422);
    expect((await purge({})).status).toBe(422);
    expect((await purge({ asset: asset })).status).toBe(400);
    expect((await purge({ urls: Array.from({ length: 1001 }, (_, i) => `/m/x/${i}`) })).status).toBe(422);
    expect((await purge({ urls: 'nope' })).status).toBe(422);
    expect((await purge({ prefix: 'no-slash' })).status).toBe(422);
    expect((await purge({ tag: 'a b' })).status).toBe(422);
    const viewerKey = identityService(s.ctx).createKey(tenant, { role: 'viewer' }).key;
    expect((await purge({ asset_id: asset }, viewerKey)).status).toBe(403);
    expect((await s.api('POST', '/v1/purge', { asset_id: asset }, { key: null })).status).toBe(401);
  });

  test('pre-warm walks a real ladder: every rendition\'s init and media segments are HITs after; signed prewarm.finished; lowest only', async () => {
    const hook = await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['prewarm.finished'] });
    expect(hook.status).toBe(201);
    const secret = (await hook.json() as { secret: string }).secret;
    const ladder = await addLadder();
    const low = filesOf(ladder, 'low'), high = filesOf(ladder, 'high');
    expect(low.length).toBeGreaterThanOrEqual(4);
    // Lowest only: the low rendition's files stored (and the master and its playlist: VOD playlists are files), none of the high one's.
    const lw = await s.api('POST', '/v1/prewarm', { asset_id: ladder, renditions: 'lowest' });
    expect(lw.status).toBe(202);
    const lowest = await until('lowest pre-warm', async () => {
      const v = await (await s.api('GET', `/v1/prewarm/${(await lw.clone().json() as { id: string }).id}`)).json() as Record<string, any>;
      return v.status === 'succeeded' ? v : null;
    });
    expect(lowest).toMatchObject({ stored: low.length + 2, hit: 0, failed: 0, progress: 100 });
    for (const f of low) expect((await get(await segPath(ladder, f))).headers['x-cache-status'], f).toBe('HIT');
    // All renditions: the high rendition's files are stored now, the low ones were HITs.
    const all = await s.api('POST', '/v1/prewarm', { asset_id: ladder });
    const id = (await all.json() as { id: string }).id;
    const v = await until('pre-warm', async () => { const x = await (await s.api('GET', `/v1/prewarm/${id}`)).json() as Record<string, any>; return x.status === 'succeeded' ? x : null; });
    expect(v).toMatchObject({ stored: high.length + 1, hit: low.length + 2, failed: 0 });
    expect(v.bytes).toBeGreaterThan(0);
    for (const f of [...low, ...high]) expect((await get(await segPath(ladder, f))).headers['x-cache-status'], f).toBe('HIT');
    // Inits, media segments and playlists of other types and name lengths: every stored body on a page boundary.
    expect(unalignedFileObjects()).toEqual([]);
    const got = await until('prewarm.finished webhook', () => rx.received.find((r) => r.body.type === 'prewarm.finished' && r.body.data.prewarm === id) ?? null);
    expect(verifyLikeACustomer(secret, got.headers, got.raw)).toBe(true);
    expect(got.body.data).toMatchObject({ prewarm: id, status: 'succeeded', failed: 0, hit: low.length + 2, stored: high.length + 1 });
  }, 60_000);

  test('pre-warm of urls as given; 6 per minute per tenant (429 + Retry-After), another tenant unaffected; hostile bodies', async () => {
    const other = identityService(s.ctx).createTenant({ name: 'Another' });
    const key = identityService(s.ctx).createKey(other.id, { role: 'owner' }).key;
    const seg = await segPath(asset);
    const u = await s.api('POST', '/v1/prewarm', { urls: [seg, '/m/nothing/here.m4s'] });
    expect(u.status).toBe(202);
    const uid = (await u.json() as { id: string }).id;
    const v = await until('urls pre-warm', async () => { const x = await (await s.api('GET', `/v1/prewarm/${uid}`)).json() as Record<string, any>; return x.status === 'succeeded' ? x : null; });
    expect(v).toMatchObject({ fetched: 2, hit: 1, failed: 1 });
    expect(JSON.stringify(v.failures)).not.toContain(seg.split('/')[2]!); // no token in a report
    // Six in a minute for the other tenant, then 429 with Retry-After; this tenant is unaffected.
    for (let i = 0; i < 6; i++) expect((await s.api('POST', '/v1/prewarm', { urls: ['/m/x.m4s'] }, { key })).status).toBe(202);
    const limited = await s.api('POST', '/v1/prewarm', { urls: ['/m/x.m4s'] }, { key });
    expect(limited.status).toBe(429);
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect((await limited.json() as { status: number }).status).toBe(429);
    expect((await s.api('POST', '/v1/prewarm', { urls: [seg] })).status).toBe(202);
    expect((await s.api('POST', '/v1/prewarm', { asset_id: asset }, { key })).status).toBe(404);
    expect((await s.api('POST', '/v1/prewarm', { urls: Array.from({ length: 1001 }, () => '/m/x') }, { key })).status).toBe(422);
    expect((await s.api('POST', '/v1/prewarm', { urls: ['javascript:alert(1)'] }, { key })).status).toBe(422);
    expect((await s.api('POST', '/v1/prewarm', { asset_id: asset, channel_id: 'x' }, { key })).status).toBe(422);
    expect((await s.api('POST', '/v1/prewarm', { urls: ['/m/x'], renditions: 'lowest' }, { key })).status).toBe(422);
    expect((await s.api('GET', `/v1/prewarm/${uid}`, undefined, { key })).status).toBe(404);
  });
});

describe('serve: the front on the public port by default (issue 46)', () => {
  test('the API and delivery answer through nginx on the public port, playback URLs point at it, a segment is sent straight from the data dir (no cache copy); VS_DELIVERY_FRONT=off serves alone', async () => {
    const data = mkdtempSync(join(tmpdir(), 'vs-edge-serve-'));
    const app = await spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', data], { VS_DELIVERY_FRONT: 'auto' });
    try {
      expect(app.output()).toContain('delivery front (nginx, edge cache) with the appliance behind it');
      const me = await fetch(`${app.url}/v1/me`, { headers: { authorization: `Bearer ${app.key}` } });
      expect(me.status).toBe(200);
      expect(me.headers.get('server')).toBe('nginx');
      const ten = (await me.json() as { current_tenant: { id: string } }).current_tenant.id;
      // A ready asset written into the running appliance's database and data dir.
      const id = crypto.randomUUID(), rel = `media/${ten}/assets/${id}/v1`;
      mkdirSync(join(data, rel), { recursive: true });
      writeFileSync(join(data, rel, 'seg_00001.m4s'), SEG);
      const db = new Database(join(data, 'db', 'meta.sqlite'));
      // The appliance holds the file open and writes to it (start-up jobs): wait for its lock rather than fail SQLITE_BUSY.
      db.exec('PRAGMA busy_timeout = 15000');
      db.query(`INSERT INTO assets (id, tenant_id, title, status, source, output, created_at, updated_at) VALUES (?, ?, 'a', 'ready', '{"kind":"upload"}', ?, ?, ?)`)
        .run(id, ten, JSON.stringify({ dir: rel, version: 1, files: { hls: 'master.m3u8', dash: 'manifest.mpd', poster: 'poster.jpg', sprite: 'sprite.jpg', thumbs_vtt: 'thumbs.vtt', download: 'download.mp4' } }), Date.now(), Date.now());
      db.close();
      const tok = await (await fetch(`${app.url}/v1/playback/tokens`, { method: 'POST', headers: { authorization: `Bearer ${app.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ asset: id }) })).json() as { src: string };
      expect(tok.src.startsWith(`${app.url}/t/`)).toBe(true);
      const seg = new URL('seg_00001.m4s', tok.src).toString();
      const [a, b] = [await fetch(seg), await fetch(seg)];
      // The default (VS_EDGE_CACHE_FILES off): a local file is not copied into the cache; the second answer is nginx's own (grant).
      expect([a.status, a.headers.get('x-cache-status'), b.status, b.headers.get('x-cache-status')]).toEqual([200, null, 200, null]);
      expect(b.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9_-]+-\d+-\d+-\d+$/);
      expect(Buffer.from(await b.arrayBuffer()).equals(SEG)).toBe(true);
      await a.arrayBuffer();
      // The studio and an upload body pass through unbuffered.
      expect((await fetch(`${app.url}/studio/`)).status).toBe(200);
    } finally { app.kill('SIGTERM'); await app.proc.exited; }
    const alone = await spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', data], { VS_DELIVERY_FRONT: 'off' }).catch((e) => { throw e; });
    try {
      expect(alone.output()).not.toContain('delivery front');
      expect((await fetch(`${alone.url}/healthz`)).headers.get('server')).toBeNull();
    } finally { alone.kill('SIGTERM'); await alone.proc.exited; rmSync(data, { recursive: true, force: true }); }
  }, 90_000);

  test('doctor\'s front line: warns without nginx, refuses on=without nginx, rejects bad values', () => {
    expect(frontFacts({}, '/usr/sbin/nginx')).toMatchObject({ ok: true, mode: 'auto' });
    expect(frontFacts({}, null)).toMatchObject({ ok: false, mode: 'auto' });
    expect(frontFacts({}, null).detail).toContain('nginx is not installed');
    expect(frontFacts({ VS_DELIVERY_FRONT: 'on' }, null).detail).toContain('refuse to start');
    expect(frontFacts({ VS_DELIVERY_FRONT: 'off' }, null)).toMatchObject({ ok: true, mode: 'off' });
    expect(frontFacts({ VS_DELIVERY_FRONT: 'maybe' }, '/usr/sbin/nginx')).toMatchObject({ ok: false, mode: 'invalid' });
  });
});
