import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { freePort, waitFor, type TestServer } from '../helpers/server';
import { pathOf, playbackToken, rawGet, startFront } from '../helpers/front-fixture';
import { rawRequest, type RawAnswer } from '../helpers/raw-http';
import { identityService } from '../../src/features/identity/service';
import { flushCdnUsage } from '../../src/features/stats/cdn-usage';

// Issue 46: CDN distributions. A CDN-only tenant's hostname on the edge proxies and caches an external origin (a
// local HTTP server, allowed by the operator's VS_CDN_ORIGIN_ALLOW) with its cache rules, purges by URL and tag, counts
// its real hits in the `cdn` report; disabled it answers 421; a private origin without the allow-list, a hostname
// another tenant holds and another tenant's id are refused. A delivery-origin distribution serves the tenant's
// playback paths (gate and cache unchanged) and nothing else.
let s: TestServer;
let front: number, tenant: string, tlsPort: number;
const certDir = mkdtempSync(join(tmpdir(), 'vs-cdn-tls-'));
let cdnKey: string, cdnTenant: string;
let origin: ReturnType<typeof Bun.serve>;
const seen: { path: string; host: string | null }[] = [];
const BLOB = randomBytes(64 * 1024);
const HOST = 'media.example.test';

/** A request through the edge with `Host: host`. */
const via = (host: string, path: string, method = 'GET', extra: Record<string, string> = {}): Promise<RawAnswer> =>
  rawRequest(front, `${method} ${path} HTTP/1.1\r\nHost: ${host}${Object.entries(extra).map(([k, v]) => `\r\n${k}: ${v}`).join('')}`);
const countOf = (p: string) => seen.filter((x) => x.path === p).length;
const json = async (r: Response) => ({ status: r.status, body: await r.json().catch(() => null) as Record<string, any> });
const asCdn = (method: string, path: string, body?: unknown) => s.api(method, path, body, { key: cdnKey }).then(json);
const until = async <T>(what: string, fn: () => T | null | Promise<T | null>): Promise<T> => (await waitFor(what, fn))!;
/** Every answer the test got from the distribution, with its cache status (the report must agree). */
const answers: string[] = [];
const record = (a: RawAnswer) => { answers.push(a.headers['x-cache-status'] ?? ''); return a; };

beforeAll(async () => {
  origin = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    fetch(req) {
      const u = new URL(req.url);
      seen.push({ path: u.pathname + u.search, host: req.headers.get('host') });
      if (u.pathname.startsWith('/base/video/')) return new Response(BLOB, { headers: { 'content-type': 'video/mp4', 'cache-control': 'public, max-age=600', 'cache-tag': 'video-a' } });
      if (u.pathname === '/base/live/now.m3u8') return new Response('#EXTM3U\n', { headers: { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': 'public, max-age=600' } });
      if (u.pathname === '/base/plain.txt') return new Response('plain');
      if (req.method === 'POST') return new Response('posted');
      return new Response('nope', { status: 404 });
    },
  });
  tlsPort = await freePort();
  ({ s, front, tenant } = await startFront(randomBytes(1024), { VS_CDN_ORIGIN_ALLOW: '127.0.0.1/32', VS_CDN_TLS_PORT: String(tlsPort), VS_EDGE_CACHE_FILES: 'on' }));
  const id = identityService(s.ctx);
  cdnTenant = id.createTenant({ name: 'Edge Only', cdnOnly: true }).id;
  cdnKey = id.createKey(cdnTenant, { scopes: ['delivery:write', 'stats:read', 'prewarm'] }).key;
}, 60_000);
afterAll(async () => { origin?.stop(true); await s?.stop(); rmSync(certDir, { recursive: true, force: true }); }, 60_000);

/** A self-signed certificate for `host` and its key (PEM files under certDir), by openssl. */
async function makeCert(name: string, host: string): Promise<{ certificate_file: string; key_file: string }> {
  const cert = join(certDir, `${name}.crt`), key = join(certDir, `${name}.key`);
  const p = Bun.spawn(['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', `/CN=${host}`, '-addext', `subjectAltName=DNS:${host}`, '-keyout', key, '-out', cert], { stdout: 'ignore', stderr: 'pipe' });
  expect(await p.exited).toBe(0);
  return { certificate_file: cert, key_file: key };
}

/** GET over TLS with SNI `host` to the edge's TLS port: the status line and the certificate's common name. */
function tlsGet(host: string, path: string): Promise<{ status: number; cn: string }> {
  return new Promise((resolve, reject) => {
    const sock = tlsConnect({ host: '127.0.0.1', port: tlsPort, servername: host, rejectUnauthorized: false }, () => {
      const cn = String(sock.getPeerCertificate().subject?.CN ?? '');
      sock.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      let got = '';
      sock.on('data', (c) => { got += c.toString('latin1'); });
      sock.on('end', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0), cn }));
    });
    sock.on('error', reject);
    sock.setTimeout(5000, () => { sock.destroy(); reject(new Error('tls request timed out')); });
  });
}

describe('CDN distributions (issue 46)', () => {
  let dist: string;

  test('a CDN-only tenant\'s hostname proxies and caches its external origin with the rules: MISS then HIT', async () => {
    const c = await asCdn('POST', '/v1/cdn/distributions', {
      hostnames: [HOST.toUpperCase()], origin: { kind: 'url', url: `http://127.0.0.1:${origin.port}/base` },
      cache_rules: { query_string: 'ignore', ttl_overrides: [{ path: '/live/*.m3u8', ttl_s: 0 }] },
    });
    expect(c.status).toBe(201);
    dist = c.body.id;
    expect(c.body).toMatchObject({ hostnames: [HOST], origin: { kind: 'url' }, enabled: true, allowed_methods: ['GET', 'HEAD'], tls: null });
    const first = record(await via(HOST, '/video/a.mp4?sig=1'));
    expect(first.status).toBe(200);
    expect(first.headers['x-cache-status']).toBe('MISS');
    expect(Buffer.from(first.body).equals(BLOB)).toBe(true);
    // The origin got the request under its base path, as sent, with its own Host.
    expect(seen.at(-1)).toEqual({ path: '/base/video/a.mp4?sig=1', host: `127.0.0.1:${origin.port}` });
    // query_string: ignore: another query is the same object.
    const second = record(await via(HOST, '/video/a.mp4?sig=2'));
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(Buffer.from(second.body).equals(BLOB)).toBe(true);
    expect(countOf('/base/video/a.mp4?sig=2')).toBe(0);
    // TTL override 0 on /live/*.m3u8: never stored although the origin says max-age=600.
    record(await via(HOST, '/live/now.m3u8'));
    record(await via(HOST, '/live/now.m3u8'));
    expect(countOf('/base/live/now.m3u8')).toBe(2);
  }, 30_000);

  test('PATCH reconfigures the edge before answering: a default TTL caches answers without cache headers', async () => {
    record(await via(HOST, '/plain.txt'));
    record(await via(HOST, '/plain.txt'));
    expect(countOf('/base/plain.txt')).toBe(2); // no Cache-Control, no default: not stored
    const p = await asCdn('PATCH', `/v1/cdn/distributions/${dist}`, { cache_rules: { default_ttl_s: 60 } });
    expect(p.status).toBe(200);
    expect(p.body.cache_rules).toMatchObject({ default_ttl_s: 60, query_string: 'include' });
    expect(record(await via(HOST, '/plain.txt')).headers['x-cache-status']).toBe('MISS');
    const hit = record(await via(HOST, '/plain.txt'));
    expect(hit.headers['x-cache-status']).toBe('HIT');
    expect(hit.body.toString()).toBe('plain');
    expect(countOf('/base/plain.txt')).toBe(3);
  }, 30_000);

  test('purge by URL and by tag evicts the distribution\'s objects: the next request is a MISS', async () => {
    const jobDone = (jid: string) => until(`job ${jid}`, async () => {
      const j = (await asCdn('GET', `/v1/jobs/${jid}`)).body;
      return j.status === 'succeeded' || j.status === 'failed' ? j : null;
    });
    // query_string was reset to include by the PATCH (cache_rules replaced): fill the object again.
    record(await via(HOST, '/video/a.mp4'));
    expect(record(await via(HOST, '/video/a.mp4')).headers['x-cache-status']).toBe('HIT');
    await until('fill indexed', () => (s.front!.cache()!.select(cdnTenant, { urls: ['/video/a.mp4'] }).length ? true : null));
    // Another tenant's purge of the same URL names none of it.
    const other = await s.api('POST', '/v1/purge', { urls: [`http://${HOST}/video/a.mp4`] });
    expect((await other.json() as Record<string, any>).keys).toBe(0);
    const byUrl = await asCdn('POST', '/v1/purge', { urls: [`http://${HOST}/video/a.mp4`] });
    expect(byUrl.status).toBe(202);
    expect(byUrl.body.keys).toBe(1);
    expect((await jobDone(byUrl.body.job_id)).result).toMatchObject({ keys: 1, removed: 1, edge: true });
    expect(record(await via(HOST, '/video/a.mp4')).headers['x-cache-status']).toBe('MISS');
    await until('refill indexed', () => (s.front!.cache()!.select(cdnTenant, { tag: 'video-a' }).length ? true : null));
    const byTag = await asCdn('POST', '/v1/purge', { tag: 'video-a' });
    expect(byTag.body.keys).toBeGreaterThanOrEqual(1);
    expect((await jobDone(byTag.body.job_id)).result.removed).toBeGreaterThanOrEqual(1);
    expect(record(await via(HOST, '/video/a.mp4')).headers['x-cache-status']).toBe('MISS');
  }, 30_000);

  test('the cdn report counts the distribution\'s real hits and misses and their ratio', async () => {
    const hits = answers.filter((a) => a === 'HIT').length, misses = answers.filter((a) => a === 'MISS').length;
    expect(hits).toBeGreaterThanOrEqual(4);
    const q = `/v1/stats/cdn?from=${Date.now() - 3_600_000}&to=${Date.now() + 120_000}`;
    const r = await until('usage ingested', async () => {
      s.front!.flushCdnUsage();
      await flushCdnUsage(s.ctx);
      const b = (await asCdn('GET', q)).body;
      return b.distributions?.requests === answers.length ? b : null;
    });
    expect(r.distributions).toMatchObject({ requests: answers.length, hits, misses });
    expect(r.distributions.cache_hit_ratio).toBeCloseTo(hits / answers.length, 6);
    expect(r.distributions.bytes).toBeGreaterThan(4 * BLOB.length);
    expect(r.distributions.items).toHaveLength(1);
    expect(r.distributions.items[0]).toMatchObject({ distribution_id: dist, requests: answers.length, hits });
    // The default tenant's report has none of it.
    const mine = await (await s.api('GET', q)).json() as Record<string, any>;
    expect(mine.distributions.requests).toBe(0);
  }, 30_000);

  test('pre-warm of a CDN-only tenant\'s distribution URLs goes through its hostname: afterwards a HIT', async () => {
    const r = await asCdn('POST', '/v1/prewarm', { urls: [`http://${HOST}/video/warm.mp4`, `http://${HOST}/video/warm2.mp4`] });
    expect(r.status).toBe(202);
    const done = await until('prewarm', async () => {
      const v = (await asCdn('GET', `/v1/prewarm/${r.body.id}`)).body;
      return v.status === 'succeeded' || v.status === 'failed' ? v : null;
    });
    expect(done).toMatchObject({ status: 'succeeded', fetched: 2, stored: 2, hit: 0, failed: 0 });
    expect(countOf('/base/video/warm.mp4')).toBe(1);
    expect((await via(HOST, '/video/warm.mp4')).headers['x-cache-status']).toBe('HIT');
    expect(countOf('/base/video/warm.mp4')).toBe(1);
  }, 30_000);

  test('methods outside allowed_methods answer 405; disabled answers 421; enabled again serves', async () => {
    const post = await via(HOST, '/form', 'POST', { 'Content-Length': '0' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.headers['content-type']).toBe('application/problem+json');
    expect((await asCdn('PATCH', `/v1/cdn/distributions/${dist}`, { allowed_methods: ['GET', 'POST'] })).body.allowed_methods).toEqual(['GET', 'HEAD', 'POST']);
    const posted = await via(HOST, '/form', 'POST', { 'Content-Length': '0' });
    expect(posted.status).toBe(200);
    expect(posted.body.toString()).toBe('posted');
    expect((await asCdn('PATCH', `/v1/cdn/distributions/${dist}`, { enabled: false })).body.enabled).toBe(false);
    const off = await via(HOST, '/video/a.mp4');
    expect(off.status).toBe(421);
    expect(JSON.parse(off.body.toString()).status).toBe(421);
    expect((await asCdn('PATCH', `/v1/cdn/distributions/${dist}`, { enabled: true })).status).toBe(200);
    expect((await via(HOST, '/video/a.mp4')).status).toBe(200);
  }, 30_000);

  test('TLS: certificate and key paths are checked (a key of another certificate: 422), served with SNI on the edge TLS port, never answered', async () => {
    const good = await makeCert('media', HOST), other = await makeCert('other', 'other.example.test');
    const bad = await asCdn('PATCH', `/v1/cdn/distributions/${dist}`, { tls: { certificate_file: good.certificate_file, key_file: other.key_file } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('tls.key_file');
    expect((await asCdn('PATCH', `/v1/cdn/distributions/${dist}`, { tls: { certificate_file: 'relative.pem', key_file: good.key_file } })).status).toBe(422);
    const p = await asCdn('PATCH', `/v1/cdn/distributions/${dist}`, { tls: good });
    expect(p.status).toBe(200);
    expect(p.body.tls).toMatchObject({ ...good, names: [HOST] });
    expect(Date.parse(p.body.tls.not_after)).toBeGreaterThan(Date.now());
    expect(JSON.stringify(p.body)).not.toContain('BEGIN');
    const r = await tlsGet(HOST, '/video/a.mp4');
    expect(r).toEqual({ status: 200, cn: HOST });
  }, 30_000);

  test('hostile input: private origins, bad hostnames, a taken hostname (409), another tenant\'s id (404)', async () => {
    const make = (body: Record<string, unknown>, key?: string) => s.api('POST', '/v1/cdn/distributions', body, key ? { key } : {}).then(json);
    const ok = { hostnames: ['x.example.test'], origin: { kind: 'url', url: 'http://127.0.0.1:9/' } };
    for (const url of ['http://10.1.2.3/', 'http://192.168.0.10/', 'http://[::1]:8080/', 'http://localhost:8080/', 'http://169.254.169.254/latest', 'ftp://example.com/', 'http://u:p@127.0.0.1/', 'http://127.0.0.1/a?b=1']) {
      const r = await make({ ...ok, origin: { kind: 'url', url } }, cdnKey);
      expect([url, r.status]).toEqual([url, 422]);
      expect(r.body.errors?.[0]?.field).toBe('origin.url');
    }
    for (const h of ['*.example.test', 'a b.test', '127.0.0.1', 'localhost', 'x.example.test:80', 'nodot', `${'a'.repeat(64)}.test`, 'vsgen-2.invalid']) {
      expect([h, (await make({ ...ok, hostnames: [h] }, cdnKey)).status]).toEqual([h, 422]);
    }
    expect((await make({ ...ok, hostnames: ['a.example.test', 'A.example.test'] }, cdnKey)).status).toBe(422);
    expect((await make({ ...ok, origin: { kind: 'delivery' } }, cdnKey)).status).toBe(422); // CDN-only: no delivery of its own
    expect((await make({ ...ok, surprise: 1 }, cdnKey)).status).toBe(400);
    expect((await make({ ...ok, cache_rules: { ttl_overrides: [{ path: '/a";b', ttl_s: 5 }] } }, cdnKey)).status).toBe(422);
    expect((await make({ ...ok, cache_rules: { ttl_overrides: [{ path: '/a', ttl_s: 'x' }] } }, cdnKey)).status).toBe(422);
    expect((await make({ ...ok, allowed_methods: ['POST'] }, cdnKey)).status).toBe(422);
    expect((await make({ ...ok, tls: { certificate_file: '/nonexistent/cert.pem', key_file: '/nonexistent/key.pem' } }, cdnKey)).status).toBe(422);
    // The hostname is held by the CDN-only tenant: another tenant (any case) gets 409, and so does a second one of its own.
    expect((await make({ ...ok, hostnames: ['MEDIA.example.test'] })).status).toBe(409);
    expect((await make({ ...ok, hostnames: [HOST] }, cdnKey)).status).toBe(409);
    // Another tenant's verified site domain is theirs too (verification itself: sites tests; here marked verified).
    const site = await (await s.api('POST', '/v1/sites', { slug: 'cdn-news', name: 'News' })).json() as { id: string };
    expect((await s.api('POST', `/v1/sites/${site.id}/domains`, { hostname: 'www.news.example.test' })).status).toBe(201);
    s.ctx.db.query("UPDATE site_domains SET verified_at = 1, method = 'http' WHERE hostname = 'www.news.example.test'").run();
    expect((await make({ ...ok, hostnames: ['WWW.news.example.test'] }, cdnKey)).status).toBe(409);
    const own = await make({ ...ok, hostnames: ['www.news.example.test'] }); // the site's own tenant may
    expect(own.status).toBe(201);
    expect((await s.api('DELETE', `/v1/cdn/distributions/${own.body.id}`)).status).toBe(204);
    // Another tenant's id: 404 for every operation; its list does not show it.
    for (const [m, body] of [['GET', undefined], ['PATCH', { enabled: false }], ['DELETE', undefined]] as const) {
      expect((await s.api(m, `/v1/cdn/distributions/${dist}`, body)).status).toBe(404);
    }
    expect((await (await s.api('GET', '/v1/cdn/distributions')).json() as { items: unknown[] }).items).toHaveLength(0);
    expect((await via(HOST, '/video/a.mp4')).status).toBe(200); // untouched
    // No key: 401; a key without the scope: 403.
    expect((await s.api('GET', '/v1/cdn/distributions', undefined, { key: null })).status).toBe(401);
    const viewer = identityService(s.ctx).createKey(cdnTenant, { scopes: ['assets:read'] }).key;
    expect((await s.api('GET', '/v1/cdn/distributions', undefined, { key: viewer })).status).toBe(403);
  }, 30_000);

  test('a delivery-origin distribution serves the tenant\'s playback paths through the gate and cache, nothing else', async () => {
    const c = await s.api('POST', '/v1/cdn/distributions', { hostnames: ['play.example.test'], origin: { kind: 'delivery' } }).then(json);
    expect(c.status).toBe(201);
    const asset = s.ctx.db.query<{ id: string }, [string]>('SELECT id FROM assets WHERE tenant_id = ? LIMIT 1').get(tenant)!.id;
    const tok = await playbackToken(s, { asset });
    const seg = await via('play.example.test', pathOf(tok.src));
    expect(seg.status).toBe(200);
    expect(['MISS', 'HIT']).toContain(seg.headers['x-cache-status']);
    expect((await via('play.example.test', pathOf(tok.src))).headers['x-cache-status']).toBe('HIT');
    // A forged token is refused by the gate behind it.
    expect((await via('play.example.test', pathOf(tok.src).replace(/\/t\/[^/]{8}/, '/t/AAAAAAAA'))).status).toBe(403);
    expect((await via('play.example.test', '/v1/me')).status).toBe(404);
    expect((await via('play.example.test', '/nothing')).status).toBe(404);
    // Deleted: gone from the list (the hostname then reaches the front's own server like any other name).
    expect((await s.api('DELETE', `/v1/cdn/distributions/${c.body.id}`)).status).toBe(204);
    expect((await s.api('GET', `/v1/cdn/distributions/${c.body.id}`)).status).toBe(404);
    expect((await rawGet(front, pathOf(tok.src))).status).toBe(200);
  }, 30_000);

  test('`viewstream edge config` renders the stored distributions as a start would, their origins checked again', async () => {
    const run = (env: Record<string, string>) => {
      const p = Bun.spawnSync(['bun', 'src/main.ts', 'edge', 'config', '--data', s.dataDir, '--port', '8099'], { env: { ...process.env, VS_DELIVERY_FRONT_PORT: '', ...env }, stdout: 'pipe', stderr: 'pipe' });
      expect(p.exitCode).toBe(0);
      return { out: p.stdout.toString(), err: p.stderr.toString() };
    };
    // Rendered from the database; without the operator's allow-list the loopback origin is no longer usable: its
    // hostname answers 502 instead of being proxied (the pinned upstream of an allowed origin: unit test).
    const refused = run({ VS_CDN_ORIGIN_ALLOW: '' });
    expect(refused.out).toContain(`server_name ${HOST};`);
    expect(refused.out).not.toContain(`server 127.0.0.1:${origin.port};`);
    expect(refused.err).toContain('not usable');
  }, 30_000);
});
