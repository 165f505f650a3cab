import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { hostname } from 'node:os';
import { assertPublicUrl, BlockedAddressError, checkUrlShape, FetchTimeoutError, FetchTooLargeError, safeFetch } from '../../src/kernel/net/safe-fetch';
import { parseIp, formatIp, blockedReason } from '../../src/kernel/net/ip';

const HOSTILE = [
  'http://127.0.0.1/', 'http://127.1/', 'http://0x7f.0.0.1/', 'http://0177.0.0.1/', 'http://2130706433/',
  'http://0x7f000001/', 'http://017700000001/', 'http://127.000.000.001/', 'http://0/', 'http://0.0.0.0/',
  'http://10.0.0.1/', 'http://172.16.5.4/', 'http://192.168.1.1/', 'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/', 'http://100.127.255.254/', 'http://224.0.0.1/', 'http://239.255.255.250/', 'http://255.255.255.255/',
  'http://[::1]/', 'http://[::]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/',
  'http://[::ffff:169.254.169.254]/', 'http://[::ffff:10.0.0.1]/', 'http://[64:ff9b::127.0.0.1]/', 'http://[64:ff9b::a9fe:a9fe]/',
  'http://[64:ff9b:1::1]/', 'http://[::127.0.0.1]/', 'http://[2002:7f00:1::]/', 'http://[fe80::1]/', 'http://[fc00::1]/',
  'http://[fd12:3456::1]/', 'http://[ff02::1]/', 'http://[fec0::1]/', 'http://[2001:db8::1]/', 'http://[2001::1]/',
  'http://localhost/', 'http://LOCALHOST:8080/', 'http://api.localhost/', 'http://localhost./',
  'https://127.0.0.1:443/', 'http://user:pw@127.0.0.1/',
];
const BAD_SCHEME = ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://example.com/', 'data:text/plain,hi', 'javascript:alert(1)', 'ws://example.com/', 'not a url', ''];

describe('address classification', () => {
  test('every hostile address form is refused by checkUrlShape', () => {
    for (const u of HOSTILE) {
      let err: unknown = null;
      try { checkUrlShape(u); } catch (e) { err = e; }
      expect({ u, blocked: err instanceof BlockedAddressError }).toEqual({ u, blocked: true });
      expect((err as BlockedAddressError).status).toBe(422);
    }
  });
  test('non-http schemes and junk are refused', () => {
    for (const u of BAD_SCHEME) expect(() => checkUrlShape(u)).toThrow(BlockedAddressError);
  });
  test('public addresses pass; the allowlist exempts exactly its CIDRs', () => {
    for (const u of ['http://8.8.8.8/', 'https://1.1.1.1/x', 'http://[2606:4700::1111]/', 'http://[::ffff:8.8.8.8]/', 'https://example.com/v.mp4']) {
      expect(() => checkUrlShape(u)).not.toThrow();
    }
    expect(() => checkUrlShape('http://127.0.0.1:9/', ['127.0.0.1/32'])).not.toThrow();
    expect(() => checkUrlShape('http://127.0.0.2:9/', ['127.0.0.1/32'])).toThrow(BlockedAddressError);
    expect(() => checkUrlShape('http://10.1.2.3/', ['10.0.0.0/8'])).not.toThrow();
    expect(() => checkUrlShape('http://[fd00::5]/', ['fd00::/8'])).not.toThrow();
  });
  test('IPv4 spellings parse to the same address', () => {
    for (const s of ['127.0.0.1', '127.1', '0x7f.1', '0177.0.0.1', '2130706433', '0x7F000001', '127.0.1']) {
      const ip = parseIp(s)!;
      expect(formatIp(ip)).toBe(s === '127.0.1' ? '127.0.0.1' : '127.0.0.1');
    }
    expect(parseIp('256.1.1.1')).toBeNull();
    expect(parseIp('1::2::3')).toBeNull();
    expect(parseIp('example.com')).toBeNull();
    expect(blockedReason(parseIp('::ffff:127.0.0.1')!)).toBe('IPv4-mapped loopback');
    expect(blockedReason(parseIp('64:ff9b::10.0.0.1')!)).toBe('NAT64 private');
    expect(blockedReason(parseIp('2002:0808:0808::1')!)).toBeNull();
  });
  test('assertPublicUrl resolves names and refuses private answers', async () => {
    // This machine's own name resolves to a loopback or private address (or not at all): refused either way.
    await expect(assertPublicUrl(`http://${hostname()}/`)).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(assertPublicUrl('http://no-such-host.invalid/')).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(assertPublicUrl('http://[::1]/')).rejects.toBeInstanceOf(BlockedAddressError);
  });
});

describe('safeFetch against local servers', () => {
  const allow = ['127.0.0.1/32'];
  let srv: ReturnType<typeof Bun.serve>;
  let stall: { port: number; stop(closeActive?: boolean): void };
  let base = '';
  beforeAll(() => {
    srv = Bun.serve({
      port: 0, hostname: '127.0.0.1',
      async fetch(req) {
        const u = new URL(req.url);
        switch (u.pathname) {
          case '/hello': return new Response('hello ' + req.method + ' ' + req.headers.get('host'));
          case '/echo': return new Response(await req.text());
          case '/to-hello': return Response.redirect(`${base}/hello`, 302);
          case '/to-loopback': return Response.redirect(`http://127.0.0.2:${srv.port}/hello`, 302);
          case '/to-v6': return Response.redirect(`http://[::1]:${srv.port}/hello`, 307);
          case '/to-localhost': return Response.redirect(`http://localhost:${srv.port}/hello`, 301);
          case '/to-file': return Response.redirect('file:///etc/passwd', 302);
          case '/loop': return Response.redirect(`${base}/loop`, 302);
          case '/big': return new Response('x'.repeat(10_000));
          case '/big-chunked': return new Response(new ReadableStream({
            pull(c) { c.enqueue(new TextEncoder().encode('y'.repeat(1000))); if (++n > 20) c.close(); },
          }));
          case '/slow-body': return new Response(new ReadableStream({
            async start(c) { c.enqueue(new TextEncoder().encode('start')); await new Promise(() => {}); },
          }));
        }
        return new Response('nope', { status: 404 });
      },
    });
    let n = 0;
    base = `http://127.0.0.1:${srv.port}`;
    // A source that accepts the connection and never answers.
    stall = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {}, open() {} } });
  });
  afterAll(() => { srv.stop(true); stall.stop(true); });

  const opts = { timeoutMs: 5000, maxBytes: 1 << 20, maxRedirects: 3, allowlist: allow };

  test('fetches from an allowlisted server, Host keeps the name', async () => {
    const r = await safeFetch(`${base}/hello`, opts);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe(`hello GET 127.0.0.1:${srv.port}`);
    const p = await safeFetch(`${base}/echo`, { ...opts, method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } });
    expect(await p.text()).toBe('payload');
  });
  test('without the allowlist the same server is refused before connecting', async () => {
    await expect(safeFetch(`${base}/hello`, { ...opts, allowlist: [] })).rejects.toBeInstanceOf(BlockedAddressError);
  });
  test('redirects are followed and re-checked at every hop', async () => {
    const ok = await safeFetch(`${base}/to-hello`, opts);
    expect(ok.url).toBe(`${base}/hello`);
    expect(await ok.text()).toStartWith('hello GET');
    for (const p of ['/to-loopback', '/to-v6', '/to-localhost', '/to-file']) {
      await expect(safeFetch(`${base}${p}`, opts)).rejects.toBeInstanceOf(BlockedAddressError);
    }
    await expect(safeFetch(`${base}/loop`, opts)).rejects.toThrow(/redirects/);
  });
  test('maxRedirects 0 returns the 3xx as is', async () => {
    const r = await safeFetch(`${base}/to-loopback`, { ...opts, maxRedirects: 0 });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toContain('127.0.0.2');
  });
  test('a source that never answers times out', async () => {
    const t0 = Date.now();
    const err = await safeFetch(`http://127.0.0.1:${stall.port}/`, { ...opts, timeoutMs: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(FetchTimeoutError);
    expect(Date.now() - t0).toBeLessThan(3000);
  });
  test('a body that stalls mid-way times out while reading', async () => {
    const r = await safeFetch(`${base}/slow-body`, { ...opts, timeoutMs: 400 });
    expect(r.status).toBe(200);
    await expect(r.text()).rejects.toBeInstanceOf(FetchTimeoutError);
  });
  test('bodies over maxBytes fail (declared and streamed)', async () => {
    await expect(safeFetch(`${base}/big`, { ...opts, maxBytes: 1000 })).rejects.toBeInstanceOf(FetchTooLargeError);
    const r = await safeFetch(`${base}/big-chunked`, { ...opts, maxBytes: 5000 });
    await expect(r.bytes()).rejects.toBeInstanceOf(FetchTooLargeError);
  });
  test('an outer abort signal cancels the request', async () => {
    const ac = new AbortController();
    const p = safeFetch(`http://127.0.0.1:${stall.port}/`, { ...opts, signal: ac.signal });
    ac.abort();
    await expect(p).rejects.toThrow();
  });
});
