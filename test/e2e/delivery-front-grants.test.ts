import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import fc from 'fast-check';
import { waitFor, type TestServer } from '../helpers/server';
import { addReadyAsset } from '../helpers/ready-asset';
import { pathOf, playbackToken, rawGet, startFront } from '../helpers/front-fixture';
import { grantRel } from '../../src/delivery-front/grants';
import { makeClip, registerAsset, settled } from './transcode-helpers';
import { statsRuntime } from '../../src/features/stats/runtime';

// Issue 21 goal 1: the delivery front's grants. After the appliance served a VOD file to a token through the front,
// nginx sends that token's other files of the same output on its own, without asking. These tests use it from
// outside: files flow while the appliance's event loop is frozen; a grant answers only the exact token and path it
// was made for (fast-check mutations answer through the front as on the appliance's own port); revocation, key
// retirement, a policy change and expiry apply to the very next request; a trashed asset stops within the counter's
// poll; and what nginx sent on its own still reaches the origin log.
let s: TestServer;
let tenant: string, asset: string, front: number, own: number;
const SEG = randomBytes(200 * 1024);

const token = (body: Record<string, unknown>) => playbackToken(s, body);
const get = rawGet;
/** A token's first answer through the front (the appliance decides and grants), then its grant in force. */
const granted = async (body: Record<string, unknown> = { asset, ttl_s: 600 }) => {
  const t = await token(body);
  const file = join(s.front!.runDir(), 'grants', grantRel(t.token, tenant, String(body.asset), 'v1')!);
  // Asked again while a change committed just before (a revocation's counter move) drops every grant once more.
  await waitFor('the token\'s grant', async () => {
    expect((await get(front, pathOf(t.src))).status).toBe(200);
    return existsSync(file) ? true : null;
  }, 10_000, 50);
  return t;
};

beforeAll(async () => {
  ({ s, own, front, tenant, asset } = await startFront(SEG));
}, 60_000);
afterAll(async () => { await s?.stop(); }, 60_000);

describe('delivery front grants (nginx sends a decided token\'s files on its own)', () => {
  test('segments keep flowing while the appliance answers nothing; what needs it waits for it', async () => {
    const t = await granted();
    const dir = mkdtempSync(join(tmpdir(), 'vs-grants-frozen-'));
    try {
      // curl writes the body to a file and, once done, its status line to another (read synchronously below).
      const curl = (path: string, name: string) => Bun.spawn(['sh', '-c', 'curl -s -o "$1" -w "%{http_code}" "$2" > "$3.tmp" && mv "$3.tmp" "$3"', 'curl',
        join(dir, `${name}.body`), `http://127.0.0.1:${front}${path}`, join(dir, `${name}.code`)], { stdout: 'ignore', stderr: 'ignore' });
      const seg = curl(pathOf(t.src), 'seg');
      const playlist = curl(pathOf(t.src, 'master.m3u8'), 'playlist'); // answered by the appliance itself
      // This process is the appliance: its event loop stays blocked until the segment has arrived (deadline 20 s).
      const done = (name: string) => existsSync(join(dir, `${name}.code`));
      const end = Date.now() + 20_000;
      while (!done('seg') && Date.now() < end) Bun.sleepSync(10);
      const playlistWhileFrozen = done('playlist');
      expect(done('seg')).toBe(true);
      expect(readFileSync(join(dir, 'seg.code'), 'utf8')).toBe('200');
      expect(Buffer.compare(readFileSync(join(dir, 'seg.body')), SEG)).toBe(0);
      expect(playlistWhileFrozen).toBe(false);
      await Promise.all([seg.exited, playlist.exited]);
      expect(readFileSync(join(dir, 'playlist.code'), 'utf8')).toBe('200');
    } finally { rmSync(dir, { recursive: true, force: true }); }
  }, 60_000);

  test('granted answers are the appliance\'s: bytes and player headers for whole, range, suffix, HEAD, 304 and 416', async () => {
    const t = await granted();
    const p = pathOf(t.src);
    const whole = await get(own, p);
    const cases: [Record<string, string>, string][] = [
      [{}, 'GET'], [{ Range: 'bytes=100-1099' }, 'GET'], [{ Range: 'bytes=-10' }, 'GET'], [{ Range: 'bytes=0-1,5-6' }, 'GET'],
      [{ Range: `bytes=${SEG.length}-` }, 'GET'], [{ Range: 'bytes=-0' }, 'GET'], [{ 'If-None-Match': whole.headers.etag }, 'GET'],
      [{ 'If-None-Match': `W/${whole.headers.etag}` }, 'GET'], [{ 'If-Modified-Since': whole.headers['last-modified'] }, 'GET'],
      [{ 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' }, 'GET'], [{ Range: 'bytes=0-9', 'If-Range': whole.headers.etag }, 'GET'],
      [{ Range: 'bytes=0-9', 'If-Range': '"other"' }, 'GET'], [{}, 'HEAD'],
    ];
    for (const [h, m] of cases) {
      const [a, b] = [await get(front, p, h, m), await get(own, p, h, m)];
      expect({ h, m, status: a.status }).toEqual({ h, m, status: b.status });
      for (const k of ['content-type', 'content-length', 'content-range', 'etag', 'last-modified', 'cache-control', 'accept-ranges', 'access-control-allow-origin', 'content-disposition']) {
        expect({ h, m, k, v: a.headers[k] }).toEqual({ h, m, k, v: b.headers[k] });
      }
      expect(Buffer.compare(a.body, b.body)).toBe(0);
      expect(a.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9_-]{6,16}(-\d+-\d+-\d+)?$/);
    }
  });

  test('a grant opens only its exact token and path: mutated requests answer through the front as on the own port', async () => {
    const t = await granted();
    const good = pathOf(t.src);
    const tok = t.token;
    const other = crypto.randomUUID();
    const mutations = fc.oneof(
      // one character of the token changed (payload or signature)
      fc.tuple(fc.nat({ max: tok.length - 1 }), fc.constantFrom('A', 'b', '0', '_', '-', '.')).map(([i, c]) => good.replace(tok, tok.slice(0, i) + c + tok.slice(i + 1))),
      fc.nat({ max: tok.length - 2 }).map((i) => good.replace(tok, tok.slice(0, i) + tok.slice(i + 1))),
      fc.constantFrom(
        `${good}?x=1`, `${good}?_HLS_msn=1`, `${good}?`, good.replace('seg_00001', 'seg_%30%30001'), good.replace('/v1/', '/v2/'),
        good.replace('/v1/', '/preview/'), good.replace(asset, other), good.replace(tenant, other), good.replace('/m/', '//m/'),
        good.replace('seg_00001.m4s', 'download.mp4'), good.replace('seg_00001.m4s', 'master.m3u8'), good.replace('seg_00001.m4s', 'missing.m4s'),
        good.replace('seg_00001.m4s', '..%2fmaster.m3u8'), good.replace('seg_00001.m4s', '.seg.m4s'), good.replace('/v1/', '/v1/aes/'),
        `${good}/`, good.replace('seg_00001.m4s', 'SEG_00001.M4S'), good.replace('/v1/seg', '/v1/./seg'), good.replace('/t/', '/t/./'),
        good.replace(tok, tok.toUpperCase()), good.replace(`/t/${tok}/`, `/t/${tok}${tok.slice(-3)}/`),
      ),
    );
    await fc.assert(fc.asyncProperty(mutations, fc.constantFrom('GET', 'HEAD'), async (path, method) => {
      const [a, b] = [await get(front, path, {}, method), await get(own, path, {}, method)];
      expect({ path, method, status: a.status }).toEqual({ path, method, status: b.status });
      if (a.status === 200 && method === 'GET') expect(Buffer.compare(a.body, b.body)).toBe(0);
      expect(a.status).toBeLessThan(500);
    }), { numRuns: 120, seed: 21 });
    // Other methods are the appliance's to answer (405 with Allow), never a file.
    const post = await get(front, good, { 'Content-Length': '0' }, 'POST');
    expect(post.status).toBe(405);
  });

  test('revocation, key retirement and a policy change refuse the very next request that a grant would have answered', async () => {
    const a = await granted();
    expect((await get(front, pathOf(a.src))).status).toBe(200);
    expect((await s.api('POST', '/v1/security/revocations', { sid: a.sid, reason: 'grant test' })).status).toBe(201);
    expect((await get(front, pathOf(a.src))).status).toBe(403);

    const b = await granted();
    expect((await s.api('POST', '/v1/playback/signing-keys/rotate')).status).toBe(201);
    expect((await get(front, pathOf(b.src))).status).toBe(200);
    const keys = await (await s.api('GET', '/v1/playback/signing-keys')).json() as { items: { id: string; active: boolean }[] };
    for (const k of keys.items.filter((k) => !k.active)) expect((await s.api('DELETE', `/v1/playback/signing-keys/${k.id}`)).status).toBe(204);
    expect((await get(front, pathOf(b.src))).status).toBe(403);

    const c = await granted();
    const p = await (await s.api('POST', '/v1/playback/policies', { name: 'aes only', require_encryption: true })).json() as { id: string };
    expect((await s.api('POST', `/v1/playback/policies/${p.id}/attach`, { target_kind: 'asset', target_id: asset })).status).toBe(200);
    expect((await get(front, pathOf(c.src))).status).toBe(403);
    // While the rule holds, the appliance grants nothing for the asset: every request is asked.
    // An image is still served under the rule; a grant made from it would open the asset's segments too.
    writeFileSync(join(s.dataDir, `media/${tenant}/assets/${asset}/v1/poster.jpg`), SEG.subarray(0, 100));
    const d = await token({ asset, ttl_s: 600 });
    const clear = (file: string) => pathOf(d.src, file).replace('/v1/aes/', '/v1/'); // tokens now name the AES view
    expect((await get(front, clear('poster.jpg'))).status).toBe(200);
    expect(existsSync(join(s.front!.runDir(), 'grants', grantRel(d.token, tenant, asset, 'v1')!))).toBe(false);
    expect((await get(front, clear('seg_00001.m4s'))).status).toBe(403);
    expect((await s.api('DELETE', `/v1/playback/policies/${p.id}`)).status).toBe(204);
    expect((await get(front, pathOf(c.src))).status).toBe(200);
  });

  test('an IP-bound token is never granted; an expired token is refused from its first second past expiry', async () => {
    const bound = await token({ asset, ttl_s: 600, viewer_ip: '127.0.0.1' });
    expect((await get(front, pathOf(bound.src))).status).toBe(200);
    expect(existsSync(join(s.front!.runDir(), 'grants', grantRel(bound.token, tenant, asset, 'v1')!))).toBe(false);

    const short = await granted({ asset, ttl_s: 6 }); // long enough to be granted on a loaded machine (a grant needs > 2 s left)
    expect((await get(front, pathOf(short.src))).status).toBe(200);
    const exp = Date.parse(short.expires_at);
    await waitFor('the token to expire', async () => (Date.now() >= exp + 1000 ? true : null), 20_000, 50);
    expect((await get(front, pathOf(short.src))).status).toBe(403);
  }, 30_000);

  test('a trashed asset stops being sent within the grant counter\'s poll (any process\'s write)', async () => {
    const x = addReadyAsset(s, tenant, SEG);
    const t = await granted({ asset: x, ttl_s: 600 });
    expect((await get(front, pathOf(t.src))).status).toBe(200);
    expect((await s.api('DELETE', `/v1/assets/${x}`)).status).toBe(204);
    expect((await get(own, pathOf(t.src))).status).toBe(404);
    // Within the counter's poll (250 ms); the deadline here only bounds a loaded test machine.
    await waitFor('the front to refuse the trashed asset', async () => ((await get(front, pathOf(t.src))).status === 404 ? true : null), 10_000, 20);
  }, 30_000);

  test('what nginx sent on its own reaches the origin log with the token\'s session, status and bytes', async () => {
    const t = await granted();
    const p = pathOf(t.src);
    const before = Date.now();
    const first = await get(front, p, { 'User-Agent': 'grants-test' });
    expect(first.status).toBe(200);
    expect((await get(front, p, { Range: 'bytes=0-99' })).status).toBe(206);
    expect((await get(front, p, {}, 'HEAD')).status).toBe(200);
    expect((await get(front, p, { 'If-None-Match': first.headers.etag })).status).toBe(304);
    const after = Date.now();
    const rt = statsRuntime(s.ctx);
    await rt.ready;
    const rows = await waitFor('every answer in the origin log', async () => {
      await rt.flush();
      const x = await s.ctx.stats.all<{ method: string; status: number; bytes: number; source: string; kind: string; target: string; ts: string }>(
        'SELECT method, status, bytes, source, kind, target, ts FROM edge_requests WHERE sid = ? ORDER BY ts, status', [t.sid]);
      return x.length >= 5 ? x : null;
    }, 30_000, 100);
    // Each row is dated when it was answered (nginx's clock, the same machine's), not when its log line was read
    // back (up to a log buffer flush and a read tick later, after the last answer had arrived).
    for (const r of rows!) expect(Number(r.ts)).toBeGreaterThanOrEqual(before - 50);
    for (const r of rows!) expect(Number(r.ts)).toBeLessThanOrEqual(after);
    const seen = rows!.map((r) => `${r.method} ${Number(r.status)} ${Number(r.bytes)} ${r.source} ${r.kind} ${r.target === asset}`).sort();
    expect(seen).toEqual([
      `GET 200 ${SEG.length} disk asset true`, `GET 200 ${SEG.length} disk asset true`, 'GET 206 100 disk asset true', 'GET 304 0 disk asset true', 'HEAD 200 0 disk asset true',
    ].sort());
    // The spool holds no token: only its signature links a line to its session.
    const spool = readdirSync(s.front!.runDir()).filter((f) => f.startsWith('granted'));
    for (const f of spool) expect(await Bun.file(`${s.front!.runDir()}/${f}`).text()).not.toContain(t.token.slice(0, -43));
  }, 60_000);
});

describe('delivery front grants on a really transcoded asset', () => {
  test('the encode\'s own output directory is granted: its segments are then sent by nginx itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vs-grants-real-'));
    try {
      const id = registerAsset(s.ctx, await makeClip(join(dir, 'src.mp4'), { size: '320x180', seconds: 2 }));
      const a = await settled(s.ctx, id);
      expect(a.status).toBe('ready');
      const t = await token({ asset: id, ttl_s: 600 });
      const master = (await get(front, pathOf(t.src, 'master.m3u8'))).body.toString();
      const variant = master.split('\n').find((l) => l && !l.startsWith('#'))!;
      const playlistPath = pathOf(t.src, variant);
      const media = (await get(front, playlistPath)).body.toString().split('\n').find((l) => /\.m4s$/.test(l))!;
      const segPath = new URL(media, `http://x${playlistPath}`).pathname;
      const ver = /\/(v[0-9]+)\//.exec(segPath)![1];
      const first = await get(front, segPath);
      expect(first.status).toBe(200);
      const file = join(s.front!.runDir(), 'grants', grantRel(t.token, tenant, id, ver)!);
      // Sent by nginx: its request id, not the appliance's. Any write that could change a decision drops every grant
      // (front.ts: dropAll), and the encode's follow-up writes can land here on a loaded box: the appliance then answers
      // and grants again, so each nginx answer is waited for (the appliance's own answers re-grant), never assumed.
      const NGINX_ID = /^req_[A-Za-z0-9_-]{8}-\d+-\d+-\d+$/;
      const byNginx = (what: string) => waitFor(what, async () => {
        const r = await get(front, segPath);
        return existsSync(file) && NGINX_ID.test(String(r.headers['x-request-id'])) ? r : null;
      }, 10_000, 50);
      const again = (await byNginx('an answer sent by nginx from the grant'))!;
      expect(again.status).toBe(200);
      expect(Buffer.compare(again.body, first.body)).toBe(0);
      // One id per answer (worker pid, connection serial, request number on it).
      const third = (await byNginx('a second answer sent by nginx'))!;
      expect(third.headers['x-request-id']).toMatch(NGINX_ID);
      expect(third.headers['x-request-id']).not.toBe(again.headers['x-request-id']);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  }, 120_000);
});

describe('delivery front with grants off (VS_DELIVERY_FRONT_GRANTS=off)', () => {
  test('every request is asked: no grant is made and answers are the same', async () => {
    const { s: off, front: port, asset: id } = await startFront(SEG, { VS_DELIVERY_FRONT_GRANTS: 'off' });
    try {
      expect(off.front!.grants()).toBeNull();
      const t = await playbackToken(off, { asset: id, ttl_s: 600 });
      for (let i = 0; i < 3; i++) {
        const a = await get(port, pathOf(t.src));
        expect(a.status).toBe(200);
        expect(Buffer.compare(a.body, SEG)).toBe(0);
      }
    } finally { await off.stop(); }
  }, 60_000);
});

describe('delivery front send buffer (VS_DELIVERY_FRONT_SNDBUF)', () => {
  /** The kernel's send buffer (`tb`, bytes) of the front's end of the established connections to `port` from `peer`, from `ss`. */
  const sendBuffers = (port: number, peer: number): number[] => {
    const r = Bun.spawnSync(['ss', '-tmnH', 'state', 'established', `( sport = :${port} and dport = :${peer} )`], { stdout: 'pipe', stderr: 'pipe' });
    return [...r.stdout.toString().matchAll(/\btb(\d+)/g)].map((m) => Number(m[1]));
  };

  test('a fixed size is set on the viewer connections nginx accepts, and files still flow whole', async () => {
    const { s: fixed, front: port, asset: id } = await startFront(SEG, { VS_DELIVERY_FRONT_SNDBUF: '256k' });
    let sock: ReturnType<typeof connect> | null = null;
    try {
      const t = await playbackToken(fixed, { asset: id, ttl_s: 600 });
      // The appliance's answer, then nginx's own (the grant).
      for (let i = 0; i < 2; i++) {
        const a = await get(port, pathOf(t.src));
        expect(a.status).toBe(200);
        expect(Buffer.compare(a.body, SEG)).toBe(0);
      }
      // A connection held open: the front's end inherits the listening socket's size.
      const c = sock = connect({ host: '127.0.0.1', port });
      await new Promise<void>((resolve, reject) => { c.once('connect', resolve); c.once('error', reject); });
      // Linux doubles SO_SNDBUF for its bookkeeping: 256k asked is 512 KiB in ss.
      expect(sendBuffers(port, c.localPort!)).toEqual([512 * 1024]);
    } finally { sock?.destroy(); await fixed.stop(); }
  }, 60_000);

  test('auto (the default) leaves the size to the kernel', async () => {
    const { s: auto, front: port, asset: id } = await startFront(SEG, { VS_DELIVERY_FRONT_SNDBUF: 'auto' });
    try {
      const t = await playbackToken(auto, { asset: id, ttl_s: 600 });
      expect((await get(port, pathOf(t.src))).status).toBe(200);
      expect(readFileSync(join(auto.front!.runDir(), 'nginx.conf'), 'utf8')).not.toContain('sndbuf');
    } finally { await auto.stop(); }
  }, 60_000);
});
