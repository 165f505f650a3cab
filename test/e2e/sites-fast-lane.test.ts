/**
 * The kernel's fast lane (src/kernel/http/fast-lane.ts) as Sites Delivery uses it: a kept answer (or its 304) leaves
 * before the token entry and the router, byte for byte the answer the app's own path gives (apart from the request
 * id), and only after every check `serveApp` makes of a request (raw target, canonical target, Host). A manual clock
 * holds kept answers fresh (they live a second) until a test moves it.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server';
import { ManualClock } from '../../src/kernel/clock';
import { FastLanes, fastLanes } from '../../src/kernel/http/fast-lane';

let s: TestServer;
let port: number;
let pageId: string;
let siteId: string;
const clock = new ManualClock();
const LANE = '/s/v1/';

/** One raw exchange: the status line and header block exactly as sent (CRLF-joined) and the body. */
function raw(head: string): Promise<{ status: number; head: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => { sock.destroy(); reject(new Error(`no answer: ${head.split('\r\n')[0]}`)); }, 10_000);
    const done = (v: { status: number; head: string; body: Buffer }) => { clearTimeout(timer); sock.destroy(); resolve(v); };
    sock.on('connect', () => sock.write(`${head}\r\n\r\n`));
    sock.on('error', (e) => { clearTimeout(timer); reject(e); });
    sock.on('data', (d: Buffer) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return;
      const text = all.subarray(0, end).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const len = Number(/\r\ncontent-length: (\d+)/i.exec(text)?.[1] ?? 0);
      const body = all.subarray(end + 4);
      if (head.startsWith('HEAD ') || status === 304 || body.length >= len) done({ status, head: text, body: body.subarray(0, head.startsWith('HEAD ') ? 0 : len) });
    });
  });
}

const get = (target: string, extra: string[] = [], method = 'GET') => raw([`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...extra].join('\r\n'));
/** The header block with the per-request parts (date, request id value) blanked; everything else must match. */
const stable = (head: string) => head.replace(/\r\ndate: [^\r]*/i, '\r\ndate: -').replace(/\r\nx-request-id: [^\r]*/i, '\r\nx-request-id: -');
const answered = () => fastLanes(s.ctx).answered(LANE);
let fresh = 0;
/** A target no earlier request kept (an extra query parameter the routes ignore). */
const unkept = (path: string) => `/s/v1/fl${path}${path.includes('?') ? '&' : '?'}n=${++fresh}`;

beforeAll(async () => {
  s = await startTestServer({ workers: false, clock });
  port = Number(new URL(s.url).port);
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await s.api(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<Record<string, any>>;
  };
  siteId = (await call('POST', '/v1/sites', { slug: 'fl', name: 'Fast lane' })).id;
  await call('POST', `/v1/sites/${siteId}/shows`, { slug: 'daily', title: 'חדשות היום', published: true });
  pageId = (await call('POST', `/v1/sites/${siteId}/pages`, {
    path: '/', title: 'בית', sections: [{ type: 'hero', items: [{ type: 'show', slug: 'daily' }] }, { type: 'rail', title: 'תוכניות', item_type: 'show' }, { type: 'text', text: 'שלום' }],
  })).id;
  await call('POST', `/v1/sites/${siteId}/pages/${pageId}/publish`);
}, 120_000);
afterAll(async () => { await s.stop(); });

/** The first request of `target` (the app builds and keeps it), then the same again (the fast lane): both answers. */
async function pair(target: string, extra: string[] = [], method = 'GET') {
  const before = answered();
  const slow = await get(target, extra, method);
  expect(answered()).toBe(before);
  const fast = await get(target, extra, method);
  expect(answered()).toBe(before + 1);
  return { slow, fast };
}

test('a kept answer leaves from the fast lane with the same status, header block (order included) and body as from the app', async () => {
  const origin = new URL(s.url).origin; // the studio's origin: always allowed CORS
  const cases: [string, string[], string?][] = [
    [unkept(`/pages/${pageId}?sections=6`), []],
    [unkept('/route?path=/'), []],
    [unkept('/config'), []],
    [unkept('/entities/show/daily'), []],
    [unkept('/robots'), []],
    [unkept(`/pages/${pageId}`), [], 'HEAD'],
    [unkept(`/pages/${pageId}`), [`Origin: ${origin}`]],
    [unkept('/config'), ['Origin: https://elsewhere.example']],
  ];
  for (const [target, extra, method] of cases) {
    const { slow, fast } = await pair(target, extra, method);
    expect(slow.status).toBe(200);
    expect(stable(fast.head)).toBe(stable(slow.head));
    expect(fast.body.equals(slow.body)).toBe(true);
    // Every header a Sites Delivery answer carries (from the kernel: the request id), on both paths.
    const names = fast.head.split('\r\n').slice(1).map((l) => l.slice(0, l.indexOf(':')).toLowerCase()).sort();
    const cors = extra.some((h) => h === `Origin: ${origin}`) ? ['access-control-allow-origin', 'access-control-expose-headers'] : [];
    // (Bun sends no Date with a HEAD answer.)
    const date = method === 'HEAD' ? [] : ['date'];
    expect(names).toEqual([...cors, ...date, 'cache-control', 'cache-tag', 'content-length', 'content-type', 'etag', 'vary', 'x-request-id', 'x-vs-sites-api'].sort());
    const id = (h: string) => /\r\nx-request-id: (\S+)/i.exec(h)?.[1];
    expect(id(fast.head)).toMatch(/^req_/);
    expect(id(fast.head)).not.toBe(id(slow.head));
  }
  // 304: a revalidation of a kept answer leaves from the lane, the same as the app's 304.
  const target = unkept(`/pages/${pageId}?sections=6`);
  const etag = /\r\netag: ([^\r]+)/i.exec((await get(target)).head)![1]!;
  const { slow, fast } = await pair(unkept(`/pages/${pageId}?sections=6`), [`If-None-Match: ${etag}`]);
  expect([slow.status, fast.status]).toEqual([304, 304]);
  expect(stable(fast.head)).toBe(stable(slow.head));
  // The kernel's request id rules hold in the lane: a well-formed incoming X-Request-Id is kept.
  const kept = await get(target, ['X-Request-Id: client-chosen-id-42']);
  expect(kept.head).toContain('\r\nx-request-id: client-chosen-id-42');
});

test('the raw-target and Host checks run before the fast lane: hostile spellings of a kept target are refused', async () => {
  const target = `/s/v1/fl/pages/${pageId}?sections=6`;
  await get(target);
  const before = answered();
  expect((await get(target)).status).toBe(200);
  expect(answered()).toBe(before + 1);
  const hostile = [
    `/s/v1/fl/pages/x/../${pageId}?sections=6`, `/s/v1/fl/pages/x/%2e%2E/${pageId}?sections=6`, `/s/v1/fl/pages/x/%2e./${pageId}?sections=6`,
    `/s/v1/fl\\pages\\${pageId}?sections=6`, `/s/v1/fl/pages%5c${pageId}?sections=6`, `//s/v1/fl/pages/${pageId}?sections=6`, `/s/v1//fl/pages/${pageId}?sections=6`,
  ];
  for (const t of hostile) {
    const a = await get(t);
    expect(`${t} ${a.status}`).toBe(`${t} 400`);
    expect(a.head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
  }
  // A matrix parameter names another target (never the kept one): the app answers it.
  expect((await get(`/s/v1/fl/pages/${pageId};x?sections=6`)).status).toBe(404);
  expect((await raw(`GET ${target} HTTP/1.1\r\nHost: bad host`)).status).toBe(400);
  expect(answered()).toBe(before + 1);
});

test('the fast lane lets through what is not a fresh kept read: other methods, previews, a changed site, an older answer', async () => {
  const target = `/s/v1/fl/pages/${pageId}?sections=2`;
  await get(target);
  const before = answered();
  expect((await get(target, ['Content-Length: 0'], 'POST')).status).toBeGreaterThanOrEqual(400);
  expect((await get(target, [], 'OPTIONS')).status).toBe(204);
  expect((await get(`/s/v1/fl/pages/${pageId}?sections=2&preview=not-a-token`)).status).toBe(403);
  expect(answered()).toBe(before);
  // Suspending the site changes its generation: the kept answer is not served, the app answers 404.
  expect((await s.api('PATCH', `/v1/sites/${siteId}`, { status: 'suspended' })).status).toBe(200);
  expect((await get(target)).status).toBe(404);
  expect(answered()).toBe(before);
  expect((await s.api('PATCH', `/v1/sites/${siteId}`, { status: 'active' })).status).toBe(200);
  expect((await get(target)).status).toBe(200);
  expect((await get(target)).status).toBe(200);
  expect(answered()).toBe(before + 1);
  // A kept answer lives a second: after it, the app builds it again (then the lane serves the new one).
  clock.advance(1000);
  expect((await get(target)).status).toBe(200);
  expect(answered()).toBe(before + 1);
  expect((await get(target)).status).toBe(200);
  expect(answered()).toBe(before + 2);
});

test('kept answers are told apart by path and query: the lane never answers one query with another\'s answer', async () => {
  const [a, b, c] = [`/s/v1/fl/pages/${pageId}?sections=1`, `/s/v1/fl/pages/${pageId}?sections=3`, `/s/v1/fl/pages/${pageId}`];
  const appA = await get(a);
  const before = answered();
  // The same path with another query (or none) is not kept yet: the app answers both.
  const appB = await get(b), appC = await get(c);
  expect(answered()).toBe(before);
  const [laneA, laneB, laneC] = [await get(a), await get(b), await get(c)];
  expect(answered()).toBe(before + 3);
  const sections = (r: { body: Buffer }) => (JSON.parse(r.body.toString()) as { sections: unknown[] }).sections.length;
  expect([sections(laneA), sections(laneB), sections(laneC)]).toEqual([1, 3, 3]);
  for (const [app, lane] of [[appA, laneA], [appB, laneB], [appC, laneC]] as const) expect(lane.body.equals(app.body)).toBe(true);
  expect(laneA.body.equals(laneB.body)).toBe(false);
});

test('lanes are registered per path prefix and never overlap', () => {
  const l = new FastLanes();
  const ok = () => new Response('x');
  l.add('/a/b/', ok);
  expect(() => l.add('/a/', ok)).toThrow(/overlaps/);
  expect(() => l.add('/a/b/c/', ok)).toThrow(/overlaps/);
  expect(() => l.add('/x', ok)).toThrow(/prefix/);
  l.add('/a/b/', () => undefined);
  const r = new Request('http://h/a/b/c');
  expect(l.answer(r, '/a/b/c', '', 'req_1')).toBeUndefined();
  expect(l.answer(r, '/a/bc', '', 'req_1')).toBeUndefined();
  expect(l.answered('/a/b/')).toBe(0);
});
