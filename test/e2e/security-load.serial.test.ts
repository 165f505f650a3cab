import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServe, type ServeProc } from '../helpers/proc';
import { rawRequest } from '../helpers/raw-http';
import { waitFor } from '../helpers/server';
import { freePort } from '../../src/kernel/net/ports';
import { startTestServer } from '../helpers/server';
import { serveApp } from '../../src/kernel/http/server';
import { forwarder, PEER_HEADER } from '../../src/delivery-worker/forward';
import { hold, holdMany, startMany, type Held, type HeldHead } from '../helpers/held-http';

// Issue 41 item 5: the worker → main forwarder could be choked. `serve` runs as shipped (a main process and one
// delivery worker on the same port, SO_REUSEPORT, so fresh connections land on both); answers the worker gives itself
// carry `x-vs-served-by: worker-1` (VS_DELIVERY_TAG). Before the fix: no stream cap (the 3rd stream of a key was 200),
// a slow body was never cut (no answer in 8 s), and ~300 event streams through the worker took all of Bun's 256
// fetch places, so streams and /healthz, /v1/me probes that landed on the worker hung.

const dirs: string[] = [];
const servers: ServeProc[] = [];

async function serve(env: Record<string, string>): Promise<{ port: number; key: string; proc: ServeProc }> {
  const dir = mkdtempSync(join(tmpdir(), 'vs-secload-'));
  dirs.push(dir);
  const proc = await spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dir], {
    VS_DELIVERY_WORKERS: '2', VS_DELIVERY_TAG: '1', VS_LOG_LEVEL: 'error', VS_RTMP_PORT: String(await freePort('127.0.0.1')), VS_ANALYTICS: 'off', ...env,
  }, 60_000);
  servers.push(proc);
  return { port: Number(new URL(proc.url).port), key: proc.key!, proc };
}

/** A new viewer key (events:read) of the default tenant. */
async function viewerKey(port: number, owner: string): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${port}/v1/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' }, body: JSON.stringify({ role: 'viewer', name: 'load' }) });
  expect(r.status).toBe(201);
  return (await r.json() as { key: string }).key;
}

const streamHead = (port: number, key: string) => `GET /v1/events/stream?heartbeat_s=30 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}`;
const slowBeacon = (port: number, declared = 200) => `POST /b/v1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/plain\r\nContent-Length: ${declared}`;
/** The head of a held answer, or status -1 when none came within `ms`. */
const within = (h: Held, ms: number): Promise<HeldHead> => Promise.race([h.head, Bun.sleep(ms).then(() => ({ status: -1, headers: {}, ms }))]);
const who = (h: { headers: Record<string, string> }) => h.headers['x-vs-served-by'] ?? 'main';

beforeAll(() => { expect(Bun.which('bun')).toBeTruthy(); });
afterAll(async () => {
  for (const s of servers) { s.kill('SIGTERM'); await Promise.race([s.proc.exited, Bun.sleep(10_000)]); s.kill(); }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

describe('stream caps and body deadlines', () => {
  let port: number, owner: string;
  beforeAll(async () => {
    ({ port, key: owner } = await serve({ VS_EVENT_STREAMS_PER_KEY: '2', VS_EVENT_STREAMS_PER_TENANT: '3', VS_BODY_TIMEOUT_S: '2' }));
  }, 90_000);

  test('event streams past the cap per key and per tenant answer 429 with Retry-After; a closed one frees its place', async () => {
    const [a, b] = [await viewerKey(port, owner), await viewerKey(port, owner)];
    const open: Held[] = [];
    const take = async (key: string) => { const h = hold(port, streamHead(port, key)); open.push(h); return await within(h, 10_000); };
    expect((await take(a)).status).toBe(200);
    expect((await take(a)).status).toBe(200);
    const overKey = await take(a);
    expect(overKey.status).toBe(429);
    expect(Number(overKey.headers['retry-after'])).toBeGreaterThan(0);
    expect(overKey.headers['content-type']).toContain('application/problem+json');
    expect((await take(b)).status).toBe(200);
    const overTenant = await take(b);
    expect(overTenant.status).toBe(429);
    expect(Number(overTenant.headers['retry-after'])).toBeGreaterThan(0);
    // The first stream goes away: its place is free again (released when the disconnect is seen).
    open[0].close();
    await waitFor('a place freed by a closed stream', async () => {
      const h = hold(port, streamHead(port, b));
      const got = await within(h, 5_000);
      if (got.status === 200) { open.push(h); return true; }
      h.close();
      return false;
    }, 20_000, 100);
    for (const h of open) h.close();
  }, 60_000);

  test('a slow body is cut with 408 (and the connection closed) by the worker and by the main process', async () => {
    const seen = new Set<string>();
    await waitFor('408 from both processes', async () => {
      const h = hold(port, slowBeacon(port), { bytes: 200, everyMs: 400 });
      const got = await within(h, 8_000);
      h.close();
      expect(got.status).toBe(408);
      expect(got.headers.connection).toBe('close');
      seen.add(who(got));
      return seen.size === 2;
    }, 60_000, 1);
    expect([...seen].sort()).toEqual(['main', 'worker-1']);
  }, 90_000);

  test('a slow JSON body on a key route is cut with 408 too', async () => {
    const h = hold(port, `POST /v1/api-keys HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${owner}\r\nContent-Type: application/json\r\nContent-Length: 100`, { bytes: 100, everyMs: 400 });
    const got = await within(h, 8_000);
    h.close();
    expect(got.status).toBe(408);
  }, 30_000);

  test('a body over 1 MiB streams through the worker whole; a slow one is cut with 408 through both processes', async () => {
    const data = randomBytes(3 * 1024 * 1024);
    const md5 = createHash('md5').update(data).digest('hex');
    const seen = new Set<string>();
    await waitFor('large parts stored through both processes', async () => {
      const r = await fetch(`http://127.0.0.1:${port}/v1/uploads`, { method: 'POST', headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' }, body: JSON.stringify({ filename: 'a.mp4', size_bytes: data.length }) });
      expect(r.status).toBe(201);
      const up = await r.json() as { parts: { url: string }[] };
      const part = new URL(up.parts[0].url);
      const a = await rawRequest(port, `PUT ${part.pathname}${part.search} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${owner}\r\nContent-Length: ${data.length}`, data, 30_000);
      expect(a.status).toBe(200);
      expect(a.body.toString()).toContain(md5);
      seen.add(a.headers['x-vs-forwarded-by'] ?? 'main');
      return seen.size === 2;
    }, 60_000, 50);
    const cut = new Set<string>();
    await waitFor('408 for a slow large body through both processes', async () => {
      const h = hold(port, `POST /v1/api-keys HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${owner}\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}`, { bytes: 1000, everyMs: 400 });
      const got = await within(h, 10_000);
      h.close();
      expect(got.status).toBe(408);
      cut.add(got.headers['x-vs-served-by'] ?? got.headers['x-vs-forwarded-by'] ?? 'main');
      return cut.size === 2;
    }, 60_000, 50);
  }, 120_000);

  test('a chunked body that arrives in time is read whole by whichever process takes it, and answered', async () => {
    const body = JSON.stringify({ role: 'viewer', name: 'chunked' });
    for (let i = 0; i < 8; i++) {
      const a = await rawRequest(port, `POST /v1/api-keys HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${owner}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked`, `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
      expect(a.status).toBe(201);
    }
  }, 60_000);
});

describe('the forwarder under load (caps lifted: every stream stays open)', () => {
  let port: number, owner: string;
  const STREAMS = 600, SLOW = 200;
  beforeAll(async () => {
    ({ port, key: owner } = await serve({ VS_EVENT_STREAMS_PER_KEY: '10000', VS_EVENT_STREAMS_PER_TENANT: '10000', VS_BODY_TIMEOUT_S: '60' }));
  }, 90_000);

  test(`${STREAMS} event streams over ten keys and ${SLOW} slow bodies: every stream opens, /healthz and /v1/me keep answering`, async () => {
    const keys = await Promise.all(Array.from({ length: 10 }, () => viewerKey(port, owner)));
    const slow = await startMany(SLOW, 50, () => hold(port, slowBeacon(port, 4000), { bytes: 4000, everyMs: 1000 }));
    const streams: Held[] = [];
    try {
      const { heads } = await holdMany(STREAMS, 50, (i) => {
        const h = hold(port, streamHead(port, keys[i % 10]));
        streams.push(h);
        return { ...h, head: within(h, 15_000) };
      });
      const byStatus: Record<number, number> = {};
      for (const h of heads) byStatus[h.status] = (byStatus[h.status] ?? 0) + 1;
      expect(byStatus).toEqual({ 200: STREAMS });
      // Probes on fresh connections land on both processes; each must be answered (no timing asserted: 10 s).
      const probes: { path: string; status: number }[] = [];
      for (let i = 0; i < 20; i++) {
        for (const path of ['/healthz', '/v1/me']) {
          const a = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${keys[0]}`, '', 10_000).catch((e) => ({ status: String(e) }));
          probes.push({ path, status: a.status as number });
        }
      }
      expect(probes.filter((p) => p.status !== 200)).toEqual([]);
    } finally {
      for (const h of [...streams, ...slow]) h.close();
    }
  }, 180_000);
});

describe("a worker's lanes (the forwarder over the real app's Unix socket, lanes of 2 streams and 1 large body)", () => {
  test('streams and large bodies past their lane answer 503 with Retry-After; short requests still pass; places come back', async () => {
    const s = await startTestServer({ workers: false });
    const dir = mkdtempSync(join(tmpdir(), 'vs-lanes-'));
    dirs.push(dir);
    const sock = join(dir, 'main.sock');
    const inner = serveApp(s.fetch, { port: 0, host: '', unix: sock, peerHeader: PEER_HEADER, maxBodyBytes: 70 * 1024 * 1024 });
    const fwd = forwarder(sock, s.ctx.config.problemsBase, { baseS: 2, minRate: 16 * 1024 }, { lanes: { streams: 2, bulk: 1 } });
    const auth = { authorization: `Bearer ${s.key}` };
    const stream = () => { const ac = new AbortController(); return { ac, res: fwd(new Request(`${s.url}/v1/events/stream`, { headers: auth, signal: ac.signal })) }; };
    try {
      const a = stream(), b = stream();
      expect((await a.res).status).toBe(200);
      expect((await b.res).status).toBe(200);
      expect(fwd.busy().streams).toBe(2);
      const c = await stream().res;
      expect(c.status).toBe(503);
      expect(Number(c.headers.get('retry-after'))).toBeGreaterThan(0);
      // Short requests keep their own places.
      expect((await fwd(new Request(`${s.url}/v1/me`, { headers: auth }))).status).toBe(200);
      // A large body (over 1 MiB) that trickles holds the one bulk place; a second one is refused at once.
      let push!: ReadableStreamDefaultController<Uint8Array>;
      const slow = new ReadableStream<Uint8Array>({ start(ctl) { push = ctl; ctl.enqueue(new Uint8Array(1024)); } });
      const big = fwd(new Request(`${s.url}/v1/api-keys`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) }, body: slow, duplex: 'half' } as RequestInit));
      await waitFor('the bulk place taken', () => fwd.busy().bulk === 1, 5_000, 10);
      const second = await fwd(new Request(`${s.url}/v1/api-keys`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) }, body: new Uint8Array(2 * 1024 * 1024) }));
      expect(second.status).toBe(503);
      // The trickling one is cut by the deadline (408) and gives its place back.
      expect((await big).status).toBe(408);
      try { push.close(); } catch { /* already cancelled by the forwarder: what the cut should do */ }
      await waitFor('the bulk place back', () => fwd.busy().bulk === 0, 5_000, 10);
      // A stream whose client goes away gives its place back.
      a.ac.abort();
      await waitFor('a stream place back', () => fwd.busy().streams === 1, 5_000, 10);
      const d = stream();
      expect((await d.res).status).toBe(200);
      b.ac.abort(); d.ac.abort();
      await waitFor('every stream place back', () => fwd.busy().streams === 0, 5_000, 10);
    } finally {
      await inner.stop(1);
      await s.stop();
    }
  }, 60_000);
});
