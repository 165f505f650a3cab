import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { canonicalize, isCleanPath, rawSegmentsClean, rawTargetPatterns, RAW_MAX_SEGMENTS, type KnownTarget } from '../../src/kernel/http/canonical';
import { serveApp, type HttpServer } from '../../src/kernel/http/server';
import { ExactPaths, exactSafe } from '../../src/kernel/http/exact-routes';
import { FastLanes } from '../../src/kernel/http/fast-lane';
import { rawRequest } from '../helpers/raw-http';

// Issue 41 item 3: Bun's request.url is already normalised (`\` → `/`, `%2E%2e` → `..` resolved), so the canonical
// check used to see `/v1/me` for `/m/x/%2E%2e/%2e%2E/v1/me`. serveApp now judges the raw target through Bun's router,
// which matches the unnormalised target. A bare server with an echo handler shows the rule on its own.

describe('canonical rules (pure)', () => {
  test('rawSegmentsClean: dot segments and backslashes in any raw segment are refused', () => {
    expect(rawSegmentsClean(undefined)).toBe(true);
    expect(rawSegmentsClean({})).toBe(true);
    expect(rawSegmentsClean({ s0: 'm', s1: 'x.y', s2: '...', s3: '.hidden', s4: 'a;b' })).toBe(true);
    for (const bad of ['.', '..', 'x\\..\\v1', '\\', 'a\\b']) expect({ bad, ok: rawSegmentsClean({ s0: 'm', s1: bad }) }).toEqual({ bad, ok: false });
  });

  test('rawTargetPatterns: root, then every depth up to the limit with and without a trailing slash', () => {
    const p = rawTargetPatterns();
    expect(p[0]).toBe('/');
    expect(p).toHaveLength(1 + 2 * RAW_MAX_SEGMENTS);
    expect(p).toContain('/:s0');
    expect(p).toContain('/:s0/:s1/');
    expect(new Set(p).size).toBe(p.length);
  });

  test('isCleanPath: a delivery path is never percent-encoded; other paths may be', () => {
    for (const p of ['/m/a/seg_%30.m4s', '/t/tok/m/a/b%2fc', '/live/a/%61/master.m3u8']) expect({ p, ok: isCleanPath(p) }).toEqual({ p, ok: false });
    for (const p of ['/m/a/seg_0.m4s', '/v1/assets/%61', '/docs/x%20y', '/mx/%61']) expect({ p, ok: isCleanPath(p) }).toEqual({ p, ok: true });
  });

  test('canonicalize with remembered URLs answers exactly as without, asked once or twice; refusals are never remembered', () => {
    const known = new Map<string, KnownTarget>();
    const view = (c: ReturnType<typeof canonicalize>) => (typeof c === 'string' ? c : { path: c.path, query: c.query, url: c.request.url });
    const host = fc.constantFrom('127.0.0.1:8080', 'example.com', 'a.b.c', '');
    const seg = fc.constantFrom('s', 'v1', 'x', '.', '..', '%2e', '%2E%2e', '%252e', 'a%2fb', 'a b', '%', '%zz', '', 'é', 'a\\b', '%5c', 'q?x=1', 'y#z');
    const target = fc.tuple(fc.array(seg, { maxLength: 6 }), fc.constantFrom('', '?a=1', '?a=1#f', '?sections=6&b=%2e')).map(([s, q]) => `/${s.join('/')}${q}`);
    fc.assert(fc.property(host, target, (h, t) => {
      let req: Request;
      try { req = new Request(`http://${h || 'x'}${t}`, { headers: h ? { host: h } : {} }); } catch { return; }
      const plain = view(canonicalize(req));
      expect(view(canonicalize(req, undefined, known))).toEqual(plain);
      expect(view(canonicalize(req, undefined, known))).toEqual(plain);
      if (typeof plain === 'string') expect(known.has(req.url)).toBe(false);
    }), { numRuns: 400 });
    expect(known.size).toBeGreaterThan(0);
  });
});

describe('serveApp judges the raw request target', () => {
  let tcp: HttpServer;
  beforeAll(() => {
    tcp = serveApp((r) => new Response(new URL(r.url).pathname), { port: 0, host: '127.0.0.1', maxBodyBytes: 1024 });
  });
  afterAll(async () => { await tcp?.stop(0); });
  const get = (target: string, method = 'GET') => rawRequest(tcp.port, `${method} ${target} HTTP/1.1\r\nHost: a${method === 'POST' ? '\r\nContent-Length: 0' : ''}`);

  test('the reproductions: dot segments in every spelling and backslashes answer 400 problem details', async () => {
    const bad = ['/m/x/%2E%2e/%2e%2E/v1/me', '/m/x\\..\\..\\v1\\me', '/m/x/%5c..%5c..%5cv1', '/a/./b', '/a/../b', '/a/%2e/b', '/a/.%2E/b',
      '/a/%2E./b', '/a/b/..', '/a/b/.', '/a\\b', '/m/x/%c0%ae%c0%ae/v1', '/m/x/%e0%80%ae/v1', '/a//../b', `/${'a/'.repeat(RAW_MAX_SEGMENTS)}b`];
    for (const t of bad) {
      for (const method of ['GET', 'HEAD', 'POST']) {
        const a = await get(t, method);
        expect({ t, method, status: a.status, type: a.headers['content-type'] }).toEqual({ t, method, status: 400, type: 'application/problem+json' });
      }
    }
  });

  test('clean targets reach the handler with exactly their path; root and trailing slashes too', async () => {
    for (const t of ['/', '/a', '/a/', '/v1/me', '/m/a/b/seg_00001.m4s', '/a;b/c', '/a/b?x=/../..', '/...', '/a/.hidden', `/${'a/'.repeat(RAW_MAX_SEGMENTS - 1)}b`]) {
      const a = await get(t);
      expect({ t, status: a.status, body: a.body.toString() }).toEqual({ t, status: 200, body: t.split('?')[0] });
    }
  });

  test('generated: a raw target holding a dot segment (any %2e case mix) or a backslash is never handled', async () => {
    const dot = fc.constantFrom('.', '..', '%2e', '%2E', '.%2e', '%2E.', '%2e%2e', '%2E%2E', '%2e%2E');
    const name = fc.constantFrom('a', 'v1', 'me', 'm', 'x.y', ';', '~');
    const seg = fc.oneof(name, dot, fc.tuple(name, fc.constantFrom('\\', '%5c', '%5C'), fc.oneof(name, dot)).map(([a, b, c]) => a + b + c));
    await fc.assert(fc.asyncProperty(fc.array(seg, { minLength: 1, maxLength: 8 }), async (segs) => {
      const t = `/${segs.join('/')}`;
      const bad = segs.some((s) => /\\|%5c/i.test(s) || ['.', '..'].includes(s.replace(/%2e/gi, '.')));
      const a = await get(t);
      expect({ t, status: a.status }).toEqual({ t, status: bad ? 400 : 200 });
    }), { numRuns: 200, seed: 4103 });
  });
});

describe('exact routes for the paths fast lanes answer most', () => {
  test('exactSafe: plain segments only — no dot segment, hidden name, route syntax or percent-encoding', () => {
    for (const p of ['/s/v1/bench/pages/0193abcd-1234', '/s/v1/a/route', '/a.b/c~d_e', '/x/a..b']) expect({ p, ok: exactSafe(p) }).toEqual({ p, ok: true });
    for (const p of ['/', '', '/s/v1/', '/a/./b', '/a/../b', '/a/.x', '/a/:id', '/a/*', '/a/%70', '/a;b', '/a//b', '/a\\b', '/a/b?x', '/שלום', `/${'a'.repeat(1100)}`]) {
      expect({ p, ok: exactSafe(p) }).toEqual({ p, ok: false });
    }
  });

  test('ExactPaths: the most answered paths over the threshold, at most max; chosen paths stay while busy; null when unchanged', () => {
    const e = new ExactPaths(2, 3);
    const answer = (p: string, n: number) => { for (let i = 0; i < n; i++) e.count(p); };
    expect(e.next()).toBeNull();
    answer('/a/one', 5); answer('/a/two', 9); answer('/a/three', 4); answer('/a/few', 2); answer('/a/%70', 50);
    expect(e.next()).toEqual(['/a/two', '/a/one']);
    expect(e.current()).toEqual(['/a/two', '/a/one']);
    // Same traffic: unchanged. A newcomer busier than a chosen path does not push out one still over the threshold.
    answer('/a/one', 3); answer('/a/two', 3); answer('/a/three', 40);
    expect(e.next()).toBeNull();
    // '/a/one' goes quiet: its place goes to the busiest other.
    answer('/a/two', 3); answer('/a/three', 40); answer('/a/one', 2);
    expect(e.next()).toEqual(['/a/two', '/a/three']);
    // Nothing answered: none chosen.
    expect(e.next()).toEqual([]);
    expect(e.next()).toBeNull();
  });

  test('a hot path gets an exact route: answered as before; hostile raw targets that resolve to it still 400', async () => {
    const lanes = new FastLanes();
    lanes.add('/s/v1/', (req, path, query, id) => (path.endsWith('/hot') ? new Response(`lane ${path}?${query}`, { headers: { 'x-request-id': id } }) : undefined));
    const srv = serveApp((r) => new Response(`app ${new URL(r.url).pathname}`), { port: 0, host: '127.0.0.1', maxBodyBytes: 1024, lanes, exactRoutes: { max: 4, minAnswers: 1, periodMs: 200 } });
    try {
      const get = (target: string, host = 'a') => rawRequest(srv.port, `GET ${target} HTTP/1.1\r\nHost: ${host}`);
      const deadline = Date.now() + 10_000;
      while (!srv.exactPaths().includes('/s/v1/site/pages/hot')) {
        if (Date.now() > deadline) throw new Error('the hot path got no exact route');
        expect((await get('/s/v1/site/pages/hot?x=1')).body.toString()).toBe('lane /s/v1/site/pages/hot?x=1');
      }
      // Each check below follows an answer on the hot path, so every 200 ms period keeps it chosen: the exact route is
      // in the router while the hostile targets are sent (asserted each time).
      const stillExact = async () => {
        expect((await get('/s/v1/site/pages/hot')).status).toBe(200);
        expect(srv.exactPaths()).toContain('/s/v1/site/pages/hot');
      };
      for (const [t, want] of [
        ['/s/v1/site/pages/hot', 'lane /s/v1/site/pages/hot?'], ['/s/v1/site/pages/hot?q=%2e', 'lane /s/v1/site/pages/hot?q=%2e'],
        ['http://b/s/v1/site/pages/hot', 'lane /s/v1/site/pages/hot?'], ['/s/v1/site/pages/cold', 'app /s/v1/site/pages/cold'],
      ] as const) {
        await stillExact();
        const a = await get(t);
        expect({ t, status: a.status, body: a.body.toString() }).toEqual({ t, status: 200, body: want });
      }
      for (const t of ['/s/v1/site/x/../pages/hot', '/s/v1/site/pages/./hot', '/s/v1/site/pages/%2e/hot', '/s/v1/x/%2E%2e/site/pages/hot',
        '/s/v1\\site/pages/hot', '/s/v1/site/pages/hot/x/..', '/s/v1/site//pages/hot']) {
        await stillExact();
        const a = await get(t);
        expect({ t, status: a.status, type: a.headers['content-type'] }).toEqual({ t, status: 400, type: 'application/problem+json' });
      }
      // Every other check still runs on an exact route: a malformed Host is refused.
      await stillExact();
      expect((await get('/s/v1/site/pages/hot', 'a b')).status).toBe(400);
    } finally { await srv.stop(0); }
  });
});
