import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { waitFor, type TestServer } from '../helpers/server';
import { addReadyAsset } from '../helpers/ready-asset';
import { rawRequest, type RawAnswer } from '../helpers/raw-http';
import { pathOf, playbackToken, rawGet, startFront } from '../helpers/front-fixture';
import { spawnServe } from '../helpers/proc';
import { statsRuntime } from '../../src/features/stats/runtime';

// Issue 21 goal 1: the native delivery front (VS_DELIVERY_FRONT_PORT). nginx listens on a port of its own, asks the
// appliance for every delivery request over a private socket and sends the files the appliance names. Everything a
// viewer gets through it must be what the appliance decided: same bytes and headers, same refusals, the very next
// request refused after a revocation, hostile requests never reaching a file, and nginx gone with the appliance.
let s: TestServer;
let tenant: string, asset: string, hlsAsset: string, front: number, own: number;
const SEG = randomBytes(300 * 1024);

const token = (body: Record<string, unknown>) => playbackToken(s, body);
const get = rawGet;
/** The headers a viewer's player relies on (the front adds Server, Date and Connection of its own). */
const PLAYER_HEADERS = ['content-type', 'content-length', 'etag', 'last-modified', 'cache-control', 'accept-ranges', 'access-control-allow-origin', 'content-disposition', 'content-range'];
const pick = (a: RawAnswer) => Object.fromEntries(PLAYER_HEADERS.filter((h) => a.headers[h] !== undefined).map((h) => [h, a.headers[h]]));
/** Processes holding a listening TCP socket on `port` (from /proc: the socket inodes, then whose descriptors they are). */
function listeners(port: number): number[] {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const l of readFileSync(f, 'utf8').split('\n').slice(1)) { const c = l.trim().split(/\s+/); if (c[1]?.endsWith(hex) && c[3] === '0A') inodes.add(c[9]); }
  }
  const pids: number[] = [];
  for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try { if (readdirSync(`/proc/${p}/fd`).some((fd) => { try { const m = /socket:\[(\d+)\]/.exec(readlinkSync(`/proc/${p}/fd/${fd}`)); return m !== null && inodes.has(m[1]); } catch { return false; } })) pids.push(Number(p)); } catch { /* gone */ }
  }
  return pids;
}
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);

/** A short real HLS rendition (fMP4) written by ffmpeg itself into a ready asset's output (an independent packager). */
async function addHlsAsset(): Promise<string> {
  const id = addReadyAsset(s, tenant, randomBytes(16));
  const dir = join(s.dataDir, `media/${tenant}/assets/${id}/v1`);
  mkdirSync(dir, { recursive: true });
  const p = Bun.spawn(['ffmpeg', '-v', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=3',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-f', 'hls', '-hls_time', '1', '-hls_playlist_type', 'vod',
    '-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(dir, 'seg_%05d.m4s'),
    join(dir, 'index.m3u8')], { stderr: 'pipe' });
  expect(await p.exited).toBe(0);
  writeFileSync(join(dir, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180\nindex.m3u8\n');
  return id;
}

beforeAll(async () => {
  ({ s, own, front, tenant, asset } = await startFront(SEG));
  hlsAsset = await addHlsAsset();
}, 60_000);
afterAll(async () => { await s?.stop(); }, 60_000);

describe('native delivery front (VS_DELIVERY_FRONT_PORT, nginx)', () => {
  test('playback URLs point at the front; nginx runs as the appliance\'s child', async () => {
    const t = await token({ asset, ttl_s: 600 });
    expect(new URL(t.src).port).toBe(String(front));
    expect(s.front!.pid()).toBeGreaterThan(0);
    expect(readFileSync(`/proc/${s.front!.pid()}/cmdline`, 'utf8')).toContain('nginx');
  });

  test('nginx and its workers run under SCHED_BATCH (a wake-up does not preempt the thread running)', () => {
    // Field 41 of /proc/<pid>/stat is the policy: 3 = SCHED_BATCH. Every process listening on the front's port.
    const policy = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[38]);
    const pids = listeners(front);
    expect(pids.length).toBeGreaterThan(1); // the master and at least one worker
    expect(pids.map(policy)).toEqual(pids.map(() => 3));
  });

  test('segment, range, 304, If-Range, 416 and HEAD: the same bytes and player headers as the appliance\'s own port', async () => {
    const t = await token({ asset, ttl_s: 600 });
    const p = pathOf(t.src);
    const cases: Record<string, string>[] = [{}, { Range: 'bytes=100-1099' }, { Range: 'bytes=-10' }, { Range: 'bytes=0-' }];
    for (const h of cases) {
      const [a, b] = [await get(front, p, h), await get(own, p, h)];
      expect(a.status).toBe(b.status);
      expect(pick(a)).toEqual(pick(b));
      expect(Buffer.compare(a.body, b.body)).toBe(0);
    }
    expect(Buffer.compare((await get(front, p)).body, SEG)).toBe(0);
    const whole = await get(front, p);
    expect((await get(front, p, { 'If-None-Match': whole.headers.etag })).status).toBe(304);
    const stale = await get(front, p, { Range: 'bytes=0-9', 'If-Range': '"not-this-one"' });
    expect(stale.status).toBe(200);
    expect(stale.body.length).toBe(SEG.length);
    const fresh = await get(front, p, { Range: 'bytes=0-9', 'If-Range': whole.headers.etag });
    expect(fresh.status).toBe(206);
    expect(Buffer.compare(fresh.body, SEG.subarray(0, 10))).toBe(0);
    expect((await get(front, p, { Range: `bytes=${SEG.length}-` })).status).toBe(416);
    const head = await get(front, p, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(pick(head)).toEqual(pick(whole));
    // The file locations are nginx's own business: nothing of them reaches the viewer.
    expect(whole.headers['x-accel-redirect']).toBeUndefined();
  });

  test('refusals and playlists pass through as the appliance answers them', async () => {
    const t = await token({ asset, ttl_s: 600 });
    const forged = pathOf(t.src).replace(/\/t\/([^/]+)\//, (_, tk: string) => `/t/${tk.slice(0, -2)}AA/`);
    for (const path of [forged, pathOf(t.src).replace(asset, crypto.randomUUID())]) {
      const [a, b] = [await get(front, path), await get(own, path)];
      expect(a.status).toBe(403);
      expect(a.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(a.body.toString()).title).toBe(JSON.parse(b.body.toString()).title);
    }
    const pl = await get(front, pathOf(t.src, 'master.m3u8'));
    expect(pl.status).toBe(200);
    expect(pl.body.toString()).toContain('v/index.m3u8');
    const post = await rawRequest(front, `POST /m/${tenant}/assets/${asset}/v1/seg_00001.m4s HTTP/1.1\r\nHost: 127.0.0.1:${front}\r\nContent-Length: 0`);
    expect(post.status).toBe(405);
    expect(post.headers.allow).toContain('GET');
  });

  test('hostile requests: no file outside what the appliance named, problem details, never a 5xx', async () => {
    const t = await token({ asset, ttl_s: 600 });
    const good = pathOf(t.src);
    const base = good.slice(0, good.lastIndexOf('/') + 1);
    const hostile = [
      `/_vs_whole/media/${tenant}/assets/${asset}/v1/seg_00001.m4s`, `/_vs_range/db/meta.sqlite`, '/v1/me', '/studio/',
      `${base}..%2f..%2f..%2fdb%2fmeta.sqlite`, `${base}%2e%2e/%2e%2e/x`, `/m/${tenant}/assets/${asset}/v1/%252e%252e/x`, `${base}seg_00001.m4s%00.jpg`,
      '/t/../v1/me', '/m/../../db/meta.sqlite', `/m/${tenant}/assets/${asset}/v1/seg_00001.m4s/../../../../../db/meta.sqlite`,
    ];
    for (const path of hostile) {
      const a = await get(front, path);
      expect({ path, ok: a.status >= 400 && a.status < 500 }).toEqual({ path, ok: true });
      expect(a.headers['content-type']).toBe('application/problem+json');
      expect(a.body.includes(SEG.subarray(0, 64))).toBe(false);
    }
    // Odd Host headers: the appliance's own canonical check decides, as on its own port (malformed ones: 400).
    for (const host of ['evil..example', 'a b', '', 'x/y', '127.0.0.1:99999', 'other.example']) {
      const [a, b] = [await rawRequest(front, `GET ${good} HTTP/1.1\r\nHost: ${host}`), await rawRequest(own, `GET ${good} HTTP/1.1\r\nHost: ${host}`)];
      expect({ host, status: a.status }).toEqual({ host, status: b.status });
      if (['evil..example', 'a b', '', 'x/y'].includes(host)) expect(a.status).toBe(400);
    }
    // Generated: any path under the asset's directory, built from hostile pieces, is refused or is exactly a file the
    // appliance serves there; never a 5xx, never another file's bytes.
    const piece = fc.constantFrom('..', '%2e%2e', '%252e', '.', '', '%2f', '%5c', '\\', 'seg_00001.m4s', 'master.m3u8', 'db', 'meta.sqlite', '%00', '~', ';', '?x=1', '#', '%');
    await fc.assert(fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 6 }), async (parts) => {
      const a = await get(front, base + parts.join('/'));
      expect(a.status).toBeLessThan(500);
      if (a.status === 200 && a.body.length === SEG.length) expect(Buffer.compare(a.body, SEG)).toBe(0);
      if (a.status >= 400) expect(a.headers['content-type']).toBe('application/problem+json');
    }), { numRuns: 150 });
  });

  test('the viewer address is the socket\'s, never a header: an IP-bound token cannot be opened by claiming the address', async () => {
    const mine = await token({ asset, ttl_s: 600, viewer_ip: '127.0.0.1' });
    expect((await get(front, pathOf(mine.src))).status).toBe(200);
    const theirs = await token({ asset, ttl_s: 600, viewer_ip: '203.0.113.9' });
    const claims: Record<string, string>[] = [{}, { 'x-vs-peer': '203.0.113.9' }, { 'X-Forwarded-For': '203.0.113.9' }, { 'X-Real-IP': '203.0.113.9' }];
    for (const h of claims) {
      expect((await get(front, pathOf(theirs.src), h)).status).toBe(403);
    }
  });

  test('a revocation, a retired key and a policy change apply to the very next request through the front', async () => {
    const t = await token({ asset, ttl_s: 600 });
    expect((await get(front, pathOf(t.src))).status).toBe(200);
    expect((await s.api('POST', '/v1/security/revocations', { sid: t.sid, reason: 'test' })).status).toBe(201);
    expect((await get(front, pathOf(t.src))).status).toBe(403);
    const old = await token({ asset, ttl_s: 600 });
    expect((await s.api('POST', '/v1/playback/signing-keys/rotate')).status).toBe(201);
    expect((await get(front, pathOf(old.src))).status).toBe(200);
    const keys = await (await s.api('GET', '/v1/playback/signing-keys')).json() as { items: { id: string; active: boolean }[] };
    for (const k of keys.items.filter((k) => !k.active)) expect((await s.api('DELETE', `/v1/playback/signing-keys/${k.id}`)).status).toBe(204);
    expect((await get(front, pathOf(old.src))).status).toBe(403);
    const open = `/m/${tenant}/assets/${asset}/v1/seg_00001.m4s`;
    expect((await get(front, open)).status).toBe(200);
    const p = await (await s.api('POST', '/v1/playback/policies', { name: 'tokens only', require_token: true })).json() as { id: string };
    expect((await s.api('POST', `/v1/playback/policies/${p.id}/attach`, { target_kind: 'asset', target_id: asset })).status).toBe(200);
    expect((await get(front, open)).status).toBe(403);
    expect((await s.api('DELETE', `/v1/playback/policies/${p.id}`)).status).toBe(204);
    expect((await get(front, open)).status).toBe(200);
  });

  test('front answers reach the origin request log with their real status and bytes', async () => {
    const t = await token({ asset, ttl_s: 600 });
    expect((await get(front, pathOf(t.src), { 'User-Agent': 'delivery-front-test' })).status).toBe(200);
    expect((await get(front, pathOf(t.src), { Range: 'bytes=0-99' })).status).toBe(206);
    const rt = statsRuntime(s.ctx);
    await rt.ready;
    const rows = await waitFor('both answers in the origin log', async () => {
      await rt.flush();
      const x = await s.ctx.stats.all<{ status: number; bytes: number; source: string }>('SELECT status, bytes, source FROM edge_requests WHERE sid = ? ORDER BY status', [t.sid]);
      return x.length >= 2 ? x : null;
    }, 30_000, 100);
    expect(rows!.map((r) => ({ status: Number(r.status), bytes: Number(r.bytes), source: r.source }))).toEqual([
      { status: 200, bytes: SEG.length, source: 'disk' }, { status: 206, bytes: 100, source: 'disk' },
    ]);
  });

  test('an independent player (ffmpeg) plays the HLS rendition through the front, frame for frame as on the own port', async () => {
    const t = await token({ asset: hlsAsset, ttl_s: 600 });
    expect(new URL(t.src).pathname.endsWith('/master.m3u8')).toBe(true);
    const frames = async (url: string) => {
      const p = Bun.spawn(['ffmpeg', '-v', 'error', '-nostdin', '-i', url, '-map', '0:v', '-f', 'framemd5', '-'], { stdout: 'pipe', stderr: 'pipe' });
      const [out, err, code] = [await new Response(p.stdout).text(), await new Response(p.stderr).text(), await p.exited];
      expect({ code, err }).toEqual({ code: 0, err: '' });
      return out.split('\n').filter((l) => l && !l.startsWith('#'));
    };
    const viaFront = await frames(t.src);
    expect(viaFront.length).toBe(75);
    expect(viaFront).toEqual(await frames(t.src.replace(`:${front}/`, `:${own}/`)));
  });

  test('nginx is started again when it dies (its old workers with it), and is gone once the appliance stops', async () => {
    const t = await token({ asset, ttl_s: 600 });
    const first = s.front!.pid()!;
    const old = listeners(front);
    expect(old).toContain(first);
    process.kill(first, 'SIGKILL');
    await waitFor('a new nginx serving', async () => s.front!.pid() !== first && (await get(front, pathOf(t.src))).status === 200, 30_000, 100);
    // Killed outright, a master leaves its workers serving: the appliance stops its whole process group.
    await waitFor('the old workers gone', () => old.every((p) => !listeners(front).includes(p)), 10_000, 50);
    for (const p of listeners(front)) expect(p === s.front!.pid() || parentOf(p) === s.front!.pid()).toBe(true);
    await s.stop();
    s = null as unknown as TestServer;
    expect(listeners(front)).toEqual([]);
  }, 60_000);
});

describe('native delivery front: the appliance killed outright', () => {
  test('SIGKILL of the appliance takes nginx and its workers with it (parent-death signal)', async () => {
    const data = mkdtempSync(join(tmpdir(), 'vs-front-kill-'));
    const app = await spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', data], { VS_DELIVERY_FRONT_PORT: '0', VS_DELIVERY_WORKERS: '1' });
    try {
      const port = Number(/delivery front \(nginx\) on http:\/\/127\.0\.0\.1:(\d+)/.exec(app.output())?.[1]);
      expect(port).toBeGreaterThan(0);
      const held = listeners(port);
      expect(held.length).toBeGreaterThanOrEqual(2); // master and at least one worker
      app.kill('SIGKILL');
      await app.proc.exited;
      await waitFor('no process left on the front port', () => listeners(port).length === 0, 15_000, 50);
    } finally {
      app.kill('SIGKILL');
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});
