import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { safeSend, sendTarget } from '../../src/kernel/net/safe-send';
import { allowCidrs, BlockedAddressError, FetchTimeoutError } from '../../src/kernel/net/safe-fetch';

describe('safeSend against local servers', () => {
  const allow = ['127.0.0.1/32'];
  let srv: ReturnType<typeof Bun.serve>;
  let stall: { port: number; stop(closeActive?: boolean): void };
  const seen: { host: string | null; body: string; auth: string | null; conn: number }[] = [];
  beforeAll(() => {
    srv = Bun.serve({
      port: 0, hostname: '127.0.0.1',
      async fetch(req, s) {
        const u = new URL(req.url);
        seen.push({ host: req.headers.get('host'), body: await req.text(), auth: req.headers.get('authorization'), conn: s.requestIP(req)!.port });
        switch (u.pathname) {
          case '/ok': return new Response(null, { status: 204 });
          case '/fail': return new Response('failing on purpose', { status: 500 });
          case '/moved': return Response.redirect(`http://127.0.0.2:${srv.port}/ok`, 302);
          case '/big': return new Response('x'.repeat(100_000));
          case '/chunked': return new Response(new ReadableStream({ pull(c) { c.enqueue(new TextEncoder().encode('y'.repeat(1000))); c.close(); } }));
        }
        return new Response('nope', { status: 404 });
      },
    });
    stall = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {}, open() {} } });
  });
  afterAll(() => { srv.stop(true); stall.stop(true); });
  const opts = { timeoutMs: 5000, maxBytes: 64 * 1024, allowlist: allow };

  test('posts the body, keeps the URL host in Host, answers the status; kept-alive connections are reused', async () => {
    seen.length = 0;
    for (let i = 0; i < 10; i++) {
      expect(await safeSend(`http://127.0.0.1:${srv.port}/ok`, { ...opts, method: 'POST', body: `{"n":${i}}`, headers: { 'Content-Type': 'application/json' } })).toEqual({ status: 204 });
    }
    expect(seen.map((s) => s.body)).toEqual(Array.from({ length: 10 }, (_, i) => `{"n":${i}}`));
    expect(seen.every((s) => s.host === `127.0.0.1:${srv.port}`)).toBe(true);
    expect(new Set(seen.map((s) => s.conn)).size).toBeLessThanOrEqual(2);
    expect((await safeSend(`http://127.0.0.1:${srv.port}/fail`, { ...opts, method: 'POST', body: '{}' })).status).toBe(500);
  });
  test('credentials in the URL become basic auth', async () => {
    seen.length = 0;
    await safeSend(`http://us%20er:p%40ss@127.0.0.1:${srv.port}/ok`, opts);
    expect(seen[0].auth).toBe(`Basic ${Buffer.from('us er:p@ss').toString('base64')}`);
  });
  test('a redirect is answered as is, never followed', async () => {
    seen.length = 0;
    expect((await safeSend(`http://127.0.0.1:${srv.port}/moved`, opts)).status).toBe(302);
    expect(seen).toHaveLength(1); // only /moved: the 127.0.0.2 target was never asked
  });
  test('large, chunked and small bodies all end in a status', async () => {
    expect((await safeSend(`http://127.0.0.1:${srv.port}/big`, { ...opts, maxBytes: 1000 })).status).toBe(200);
    expect((await safeSend(`http://127.0.0.1:${srv.port}/chunked`, opts)).status).toBe(200);
    expect((await safeSend(`http://127.0.0.1:${srv.port}/nothing`, opts)).status).toBe(404);
  });
  test('refused before connecting: private addresses without the allowlist, bad schemes, localhost', async () => {
    seen.length = 0;
    for (const u of [`http://127.0.0.1:${srv.port}/ok`, `http://[::1]:${srv.port}/ok`, `http://localhost:${srv.port}/ok`, 'file:///etc/passwd', `http://0x7f.1:${srv.port}/ok`]) {
      await expect(safeSend(u, { ...opts, allowlist: [] })).rejects.toBeInstanceOf(BlockedAddressError);
    }
    expect(seen).toHaveLength(0);
  });
  test('a receiver that never answers times out; an outer abort cancels', async () => {
    const t0 = Date.now();
    await expect(safeSend(`http://127.0.0.1:${stall.port}/`, { ...opts, timeoutMs: 300 })).rejects.toBeInstanceOf(FetchTimeoutError);
    expect(Date.now() - t0).toBeLessThan(3000);
    const ac = new AbortController();
    const p = safeSend(`http://127.0.0.1:${stall.port}/`, { ...opts, signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toThrow();
  });
  test('a prepared target sends like its URL; refused URLs are refused when prepared; a name is checked per attempt', async () => {
    seen.length = 0;
    const t = sendTarget(`http://us%20er:p%40ss@127.0.0.1:${srv.port}/ok?x=1`, allowCidrs(allow));
    for (let i = 0; i < 3; i++) expect(await safeSend(t, { ...opts, allowlist: [], method: 'POST', body: `${i}` })).toEqual({ status: 204 });
    expect(seen.map((s) => [s.body, s.host, s.auth])).toEqual(['0', '1', '2'].map((b) => [b, `127.0.0.1:${srv.port}`, `Basic ${Buffer.from('us er:p@ss').toString('base64')}`]));
    for (const u of [`http://127.0.0.1:${srv.port}/ok`, `http://[::ffff:127.0.0.1]:${srv.port}/ok`, `http://localhost:${srv.port}/ok`, 'ftp://example.com/']) {
      expect(() => sendTarget(u, [])).toThrow(BlockedAddressError);
    }
    // A host name is not resolved when prepared (each attempt resolves it and checks every address it gets).
    expect(sendTarget(`http://hooks.example:${srv.port}/ok`, []).literal).toBeNull();
  });
  test('a closed port is a not_ready failure naming the host', async () => {
    const closed = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    await expect(safeSend(`http://127.0.0.1:${port}/`, opts)).rejects.toThrow(`127.0.0.1:${port}`);
  });
});

/**
 * What safeSend relies on in Bun's fetch client for https: with the checked IP in the URL and `tls.serverName`, the
 * certificate is verified against the name, and a connection kept alive for one name is never reused for another.
 */
describe('fetch client TLS by server name (the runtime behaviour safeSend relies on)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-test-tls-'));
  const made = Bun.spawnSync(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    '-days', '1', '-subj', '/CN=hooks.test', '-addext', 'subjectAltName=DNS:hooks.test'], { stderr: 'pipe' }).exitCode === 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  test.skipIf(!made)('verified against serverName; no pooled connection crosses names', async () => {
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const conns = new Set<number>();
    const s = Bun.serve({ port: 0, hostname: '127.0.0.1', tls: { cert, key: readFileSync(join(dir, 'key.pem'), 'utf8') }, fetch: (req, srv) => { conns.add(srv.requestIP(req)!.port); return new Response(req.headers.get('host')); } });
    try {
      const go = (name: string) => fetch(`https://127.0.0.1:${s.port}/`, { headers: { host: `${name}:${s.port}` }, tls: { serverName: name, ca: cert } } as RequestInit)
        .then(async (r) => `${r.status} ${await r.text()}`, (e: Error & { code?: string }) => `error ${e.code ?? e.message}`);
      expect(await go('hooks.test')).toBe(`200 hooks.test:${s.port}`);
      expect(await go('hooks.test')).toBe(`200 hooks.test:${s.port}`);
      expect(conns.size).toBe(1);
      expect(await go('other.test')).toStartWith('error'); // the kept-alive connection for hooks.test is not reused
      expect(await go('hooks.test')).toStartWith('200');
    } finally { s.stop(true); }
  });
});
