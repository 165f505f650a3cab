import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { addReadyAsset } from '../helpers/ready-asset';
import { rawRequest, type RawAnswer } from '../helpers/raw-http';
import { statsRuntime } from '../../src/features/stats/runtime';

// Issue 21 goal 1: delivery served by a worker process beside the main one on the same port (SO_REUSEPORT). Every
// raw request below opens a fresh connection, so the kernel spreads them over both processes; answers a worker
// gave itself carry `x-vs-served-by: worker-1` (VS_DELIVERY_TAG). Each check asks until both processes answered.
let s: TestServer;
let tenant: string, asset: string, port: number;
const SEG = randomBytes(64 * 1024);

/** Who answered: the main process or a worker. */
const who = (a: RawAnswer) => a.headers['x-vs-served-by'] ?? 'main';

/** GETs `path` on fresh connections until both processes answered; returns every answer with who gave it. */
async function fromBoth(path: string, head: Record<string, string> = {}): Promise<{ who: string; a: RawAnswer }[]> {
  const out: { who: string; a: RawAnswer }[] = [];
  const extra = Object.entries(head).map(([k, v]) => `\r\n${k}: ${v}`).join('');
  await waitFor(`both processes answered ${path}`, async () => {
    const a = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}${extra}`);
    out.push({ who: who(a), a });
    return new Set(out.map((x) => x.who)).size === 2;
  }, 30_000, 1);
  return out;
}

const token = async (body: Record<string, unknown>) => {
  const r = await s.api('POST', '/v1/playback/tokens', { asset, ...body });
  expect(r.status).toBe(200);
  return await r.json() as { src: string; sid: string };
};
const pathOf = (src: string, file = 'seg_00001.m4s') => new URL(file, src).pathname;

beforeAll(async () => {
  s = await startTestServer({ env: { VS_DELIVERY_WORKERS: '2', VS_DELIVERY_TAG: '1' }, workers: false });
  port = Number(new URL(s.url).port);
  tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  asset = addReadyAsset(s, tenant, SEG);
}, 60_000);
afterAll(async () => { await s?.stop(); }, 60_000);

describe('delivery workers (VS_DELIVERY_WORKERS=2)', () => {
  test('one worker process runs beside the main one', () => {
    expect(s.tier?.pids().length).toBe(1);
  });

  test('both processes serve the same segment, playlist and ranges through a token', async () => {
    const t = await token({ ttl_s: 600 });
    for (const x of await fromBoth(pathOf(t.src))) {
      expect(x.a.status).toBe(200);
      expect(Buffer.compare(x.a.body, SEG)).toBe(0);
      expect(x.a.headers['content-length']).toBe(String(SEG.length));
    }
    for (const x of await fromBoth(pathOf(t.src, 'master.m3u8'))) expect(x.a.body.toString()).toContain('v/index.m3u8');
    for (const x of await fromBoth(pathOf(t.src), { Range: 'bytes=10-19' })) {
      expect(x.a.status).toBe(206);
      expect(Buffer.compare(x.a.body, SEG.subarray(10, 20))).toBe(0);
    }
  });

  test('the gate refuses the same things on both (bad token, other asset, malformed target)', async () => {
    const t = await token({ ttl_s: 600 });
    const forged = pathOf(t.src).replace(/\/t\/([^/]+)\//, (_, tk: string) => `/t/${tk.slice(0, -2)}AA/`);
    for (const x of await fromBoth(forged)) expect(x.a.status).toBe(403);
    const other = pathOf(t.src).replace(asset, crypto.randomUUID());
    for (const x of await fromBoth(other)) expect(x.a.status).toBe(403);
    // Refused before routing (the worker's own canonical-target check): no process tag to tell them apart, so many tries.
    for (let i = 0; i < 12; i++) expect((await rawRequest(port, `GET /m/${tenant}/assets/${asset}/v1/%252e%252e/x HTTP/1.1\r\nHost: 127.0.0.1:${port}`)).status).toBe(400);
  });

  test('a revocation refuses the very next request on every process', async () => {
    const t = await token({ ttl_s: 600 });
    for (const x of await fromBoth(pathOf(t.src))) expect(x.a.status).toBe(200);
    expect((await s.api('POST', '/v1/security/revocations', { sid: t.sid, reason: 'test' })).status).toBe(201);
    const after = await fromBoth(pathOf(t.src));
    expect(after.map((x) => x.a.status)).toEqual(after.map(() => 403));
  });

  test('key rotation: new keys open at once, a retired key refuses the very next request on every process', async () => {
    const old = await token({ ttl_s: 600 });
    expect((await s.api('POST', '/v1/playback/signing-keys/rotate')).status).toBe(201);
    const fresh = await token({ ttl_s: 600 });
    for (const x of await fromBoth(pathOf(fresh.src))) expect(x.a.status).toBe(200);
    for (const x of await fromBoth(pathOf(old.src))) expect(x.a.status).toBe(200);
    const keys = await (await s.api('GET', '/v1/playback/signing-keys')).json() as { items: { id: string; active: boolean }[] };
    for (const k of keys.items.filter((k) => !k.active)) expect((await s.api('DELETE', `/v1/playback/signing-keys/${k.id}`)).status).toBe(204);
    const after = await fromBoth(pathOf(old.src));
    expect(after.map((x) => x.a.status)).toEqual(after.map(() => 403));
    for (const x of await fromBoth(pathOf(fresh.src))) expect(x.a.status).toBe(200);
  });

  test('a policy change applies to the next request on every process (well within 1 s)', async () => {
    const open = `/m/${tenant}/assets/${asset}/v1/seg_00001.m4s`;
    for (const x of await fromBoth(open)) expect(x.a.status).toBe(200);
    const p = await (await s.api('POST', '/v1/playback/policies', { name: 'tokens only', require_token: true })).json() as { id: string };
    expect((await s.api('POST', `/v1/playback/policies/${p.id}/attach`, { target_kind: 'asset', target_id: asset })).status).toBe(200);
    const locked = await fromBoth(open);
    expect(locked.map((x) => x.a.status)).toEqual(locked.map(() => 403));
    expect((await s.api('DELETE', `/v1/playback/policies/${p.id}`)).status).toBe(204);
    const reopened = await fromBoth(open);
    expect(reopened.map((x) => x.a.status)).toEqual(reopened.map(() => 200));
  });

  test('worker answers reach the origin request log (bytes, status, sid)', async () => {
    const t = await token({ ttl_s: 600 });
    const got = await fromBoth(pathOf(t.src), { 'User-Agent': 'delivery-workers-test' });
    const rt = statsRuntime(s.ctx);
    await rt.ready;
    const rows = await waitFor('every answer in the origin log', async () => {
      await rt.flush();
      const x = await s.ctx.stats.all<{ status: number; bytes: number; source: string }>('SELECT status, bytes, source FROM edge_requests WHERE sid = ?', [t.sid]);
      return x.length >= got.length ? x : null;
    }, 30_000, 100);
    expect(rows!.length).toBe(got.length);
    for (const r of rows!) expect({ status: Number(r.status), bytes: Number(r.bytes), source: r.source }).toEqual({ status: 200, bytes: SEG.length, source: 'disk' });
  });

  test('other requests reaching a worker are answered by the main process (API, 405 with Allow, 404)', async () => {
    const seen = new Set<string>();
    await waitFor('API answers on many connections', async () => {
      const a = await rawRequest(port, `GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${s.key}`);
      expect(a.status).toBe(200);
      expect(a.headers['x-vs-served-by']).toBeUndefined();
      seen.add(a.headers['x-request-id']);
      return seen.size >= 12;
    }, 30_000, 1);
    for (let i = 0; i < 12; i++) {
      const a = await rawRequest(port, `POST /m/${tenant}/assets/${asset}/v1/seg_00001.m4s HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0`);
      expect(a.status).toBe(405);
      expect(a.headers.allow).toContain('GET');
    }
    for (let i = 0; i < 12; i++) expect((await rawRequest(port, `GET /m/${tenant}/nothing-here HTTP/1.1\r\nHost: 127.0.0.1:${port}`)).status).toBe(404);
  });

  test('every process keeps SQLite\'s locks on the WAL index, so a new connection never rebuilds it under them', async () => {
    const t = await token({ ttl_s: 600 });
    await fromBoth(pathOf(t.src));
    const shm = `${s.ctx.db.filename}-shm`;
    const ino = statSync(shm).ino;
    // /proc/locks: "N: POSIX ADVISORY READ PID MAJ:MIN:INODE START END" per lock held.
    const holders = () => readFileSync('/proc/locks', 'utf8').split('\n').filter((l) => / POSIX /.test(l) && l.includes(`:${ino} `)).map((l) => Number(l.split(/\s+/)[4]));
    for (const pid of [process.pid, ...s.tier!.pids()]) expect(holders()).toContain(pid);
    // Another process (a CLI command beside the server) opens the database and commits: every process still holds its
    // locks after it (the test reads nothing of the index itself: opening and closing it here would drop this process's).
    const cli = Bun.spawn(['bun', '-e', `const { Database } = require('bun:sqlite'); const d = new Database(${JSON.stringify(s.ctx.db.filename)}); d.exec('PRAGMA busy_timeout = 5000'); d.exec('UPDATE playback_state_version SET v = v WHERE id = 1'); d.close();`], { stderr: 'pipe' });
    expect(await cli.exited).toBe(0);
    for (const pid of [process.pid, ...s.tier!.pids()]) expect(holders()).toContain(pid);
  });
});
