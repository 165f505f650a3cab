import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { rawRequest, type RawAnswer } from '../helpers/raw-http';
import { pathOf, playbackToken, startFront, type FrontFixture } from '../helpers/front-fixture';
import { PeopleService } from '../../src/features/people/service';
import { signIn } from './people-helpers';

// Issue 41 items 3 and 4: paths that slipped past the front and the token gate. nginx picked its location from the
// normalised URI but proxied the raw target, which Bun normalises again (`\` → `/`, `%2E%2e` → `..`), so
// `/m/x\..\..\v1\me` reached /v1/me through the front and `/m/x/%2E%2e/%2e%2E/v1/me` did on the appliance's own port;
// and `/t/<any valid token>/<any path>` served every GET/HEAD route without Cache-Control: no-store. Every request here
// goes over a raw socket (nothing normalised on the way), to the appliance's own port (main process and a delivery
// worker behind one SO_REUSEPORT port) and to the front.
let fx: FrontFixture;
let tok: string, src: string, cookie: string, csrf: string;
const SEG = randomBytes(64 * 1024);
const PW = 'correct horse battery staple';

/**
 * One raw request with the studio session and (unless `cookieOnly`) the owner key: the strongest callers a hostile
 * path could borrow (a key wins over the cookie; /v1/session answers the cookie alone).
 */
function send(port: number, method: string, target: string, body = '', cookieOnly = false): Promise<RawAnswer> {
  const json = body ? `\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}` : method === 'POST' ? '\r\nContent-Length: 0' : '';
  const key = cookieOnly ? '' : `\r\nAuthorization: Bearer ${fx.s.key}`;
  return rawRequest(port, `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}${key}\r\nCookie: ${cookie}\r\nX-CSRF-Token: ${csrf}${json}`, body);
}

const NEW_KEY = JSON.stringify({ name: 'via-path', role: 'viewer' });
const contentType = (a: RawAnswer) => (a.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
const problemType = (a: RawAnswer): string => { try { return String((JSON.parse(a.body.toString()) as { type?: string }).type ?? '').split('/').pop() ?? ''; } catch { return ''; } };
/** Problem types a delivery route, the gate or the front answers with (management routes add 401, 422, 429 ...). */
const DELIVERY_PROBLEMS = new Set(['bad_request', 'not_found', 'forbidden', 'method_not_allowed', 'range_not_satisfiable', 'internal_error', '']);
/** Media types of delivery answers. */
const MEDIA = new Set(['video/iso.segment', 'video/mp4', 'audio/mp4', 'application/vnd.apple.mpegurl', 'application/dash+xml', 'image/jpeg', 'image/webp', 'text/vtt', 'application/octet-stream']);

/** Why an answer cannot have come from a delivery route (null: it could have). */
function notDelivery(a: RawAnswer): string | null {
  const ct = contentType(a);
  if (a.headers['set-cookie']) return 'sets a cookie';
  if (a.body.includes('csrf_token') || a.body.includes(fx.s.key.slice(0, 12))) return 'carries session or key material';
  if (ct === 'application/problem+json') return DELIVERY_PROBLEMS.has(problemType(a)) ? null : `problem ${problemType(a)}`;
  if (a.status >= 300 && a.status < 400 && a.status !== 304) return `redirect ${a.status}`;
  if (a.status === 304) return null;
  if (a.status === 201 || a.status === 204) return `status ${a.status}`;
  if (!MEDIA.has(ct)) return `content-type ${ct || '(none)'} with ${a.status}`;
  return null;
}

/** The raw path with the overlong UTF-8 spellings of '.' read as dots (what a lenient decoder would make of them). */
const OVERLONG = /%c0%ae|%e0%80%ae/gi;
/** True when the raw target holds a dot segment in any spelling or a backslash (literal or %5c) in its path. */
function hasDotOrBackslash(target: string): boolean {
  const path = target.split('?')[0];
  if (path.includes('\\') || /%5c/i.test(path)) return true;
  return path.split('/').some((seg) => {
    let d = seg.replace(OVERLONG, '.');
    try { d = decodeURIComponent(d); } catch { d = d.replace(/%2e/gi, '.'); }
    return d === '.' || d === '..';
  });
}

beforeAll(async () => {
  // Two serving processes on the own port (main + one delivery worker), tagged so a worker's answers can be told.
  fx = await startFront(SEG, { VS_DELIVERY_WORKERS: '2', VS_DELIVERY_TAG: '1' });
  const t = await playbackToken(fx.s, { asset: fx.asset, ttl_s: 3600 });
  tok = t.token;
  src = t.src;
  const def = fx.s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  await new PeopleService(fx.s.ctx).createUser({ email: 'paths@example.com', name: 'Pat Paths', password: PW, tenantId: def, role: 'owner' });
  const st = await signIn(fx.s, 'paths@example.com', PW);
  cookie = st.cookie;
  csrf = st.csrf;
}, 90_000);
afterAll(async () => { await fx?.s.stop(); }, 60_000);

describe('issue 41 item 3: the front sends only what its location matched; the appliance judges the raw target', () => {
  test('controls: the token path and the open path play on both ports; /v1/me answers the key on the own port', async () => {
    for (const port of [fx.own, fx.front]) {
      expect((await send(port, 'GET', pathOf(src))).status).toBe(200);
      expect((await send(port, 'GET', `/m/${fx.tenant}/assets/${fx.asset}/v1/seg_00001.m4s`)).status).toBe(200);
    }
    const me = await send(fx.own, 'GET', '/v1/me');
    expect(me.status).toBe(200);
    // The oracle of the generated test below tells such an answer from a delivery one.
    expect(notDelivery(me)).not.toBeNull();
    expect(notDelivery(await send(fx.own, 'GET', '/studio/sign-in'))).not.toBeNull();
    expect(notDelivery(await send(fx.own, 'GET', pathOf(src)))).toBeNull();
  });

  test('GET /m/x\\..\\..\\v1\\me through the front: 400, not /v1/me', async () => {
    const a = await send(fx.front, 'GET', '/m/x\\..\\..\\v1\\me');
    expect({ status: a.status, type: contentType(a), problem: problemType(a) }).toEqual({ status: 400, type: 'application/problem+json', problem: 'bad_request' });
  });

  test('POST /m/x\\..\\..\\v1\\api-keys through the front: 400, and no key is created', async () => {
    const count = async () => ((await (await fx.s.api('GET', '/v1/api-keys')).json()) as { items: unknown[] }).items.length;
    const before = await count();
    const a = await send(fx.front, 'POST', '/m/x\\..\\..\\v1\\api-keys', NEW_KEY);
    expect({ status: a.status, problem: problemType(a) }).toEqual({ status: 400, problem: 'bad_request' });
    expect(await count()).toBe(before);
  });

  test('/live/x\\..\\..\\mcp and /m/x\\..\\..\\studio\\sign-in through the front: 400', async () => {
    for (const [method, target, body] of [['GET', '/live/x\\..\\..\\mcp', ''], ['POST', '/live/x\\..\\..\\mcp', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'], ['GET', '/m/x\\..\\..\\studio\\sign-in', '']]) {
      const a = await send(fx.front, method, target, body);
      expect({ method, target, status: a.status, type: contentType(a) }).toEqual({ method, target, status: 400, type: 'application/problem+json' });
    }
  });

  test('/m/x/%2E%2e/%2e%2E/v1/me and the backslash forms on the own port: 400 from every serving process', async () => {
    const targets = ['/m/x/%2E%2e/%2e%2E/v1/me', '/m/x\\..\\..\\v1\\me', '/m/x/.%2e/%2E./v1/me', '/m/x/%5c..%5c..%5cv1%5cme', '/v1/./me', '/m/x/../../v1/me'];
    // Fresh connections spread over the main process and the worker (SO_REUSEPORT): every one of them must refuse.
    for (let i = 0; i < 8; i++) {
      for (const t of targets) {
        const a = await send(fx.own, 'GET', t);
        expect({ t, status: a.status, problem: problemType(a) }).toEqual({ t, status: 400, problem: 'bad_request' });
      }
    }
    // The worker does serve on that port (its delivery answers are tagged), so the refusals above came from both.
    const servedBy = new Set<string>();
    for (let i = 0; i < 40 && servedBy.size < 2; i++) servedBy.add((await send(fx.own, 'GET', pathOf(src))).headers['x-vs-served-by'] ?? 'main');
    expect([...servedBy].sort()).toEqual(['main', 'worker-1']);
  });
});

describe('issue 41 item 4: /t/<token>/ reaches only the token\'s own delivery target', () => {
  test('/t/$TOKEN/v1/api-keys (with a key) and /t/$TOKEN/v1/session (with a session): 404 with no-store on both ports', async () => {
    for (const port of [fx.own, fx.front]) {
      for (const inner of ['/v1/api-keys', '/v1/session', '/v1/me', '/studio/sign-in', '/studio', '/docs', '/healthz', '/openapi.json', '/mcp', '/t/' + tok + '/v1/me']) {
        for (const [method, cookieOnly] of [['GET', false], ['HEAD', false], ['GET', true]] as const) {
          const a = await send(port, method, `/t/${tok}${inner}`, '', cookieOnly);
          expect({ port, inner, method, cookieOnly, status: a.status, cc: a.headers['cache-control'] }).toEqual({ port, inner, method, cookieOnly, status: 404, cc: 'no-store' });
          expect(notDelivery(a)).toBeNull();
        }
      }
    }
  });

  test('everything answered under /t/ that is not public media says no-store; the media itself stays cacheable', async () => {
    for (const port of [fx.own, fx.front]) {
      const media = await send(port, 'GET', pathOf(src));
      expect(media.headers['cache-control']).toMatch(/^public/);
      for (const file of ['master.m3u8', 'none.m4s', '../v2/seg_00001.m4s']) {
        const a = await send(port, 'GET', pathOf(src, file));
        if (!(a.headers['cache-control'] ?? '').startsWith('public')) expect({ file, cc: a.headers['cache-control'] }).toEqual({ file, cc: 'no-store' });
      }
      const forged = await send(port, 'GET', pathOf(src).replace(tok, tok.slice(0, -2) + 'AA'));
      expect({ status: forged.status, cc: forged.headers['cache-control'] }).toEqual({ status: 403, cc: 'no-store' });
    }
  });
});

describe('generated raw targets (fast-check), both ports', () => {
  test('no non-delivery route is reached under /t/, /m/, /live/ nor through the front; dot segments and backslashes are refused', async () => {
    const seps = ['/', '\\', '%5c', '%5C', '//', '/;/', '%2f', '%2F', '/./'];
    const dots = ['..', '.', '%2e%2e', '%2E%2e', '%2e%2E', '%2E%2E', '.%2e', '%2E.', '%2e', '%c0%ae%c0%ae', '%c0%ae.', '.%c0%ae', '%e0%80%ae%e0%80%ae', '..;', ';..', '%252e%252e', '..%00', '..%2f'];
    const junk = ['x', 'v1', 'm', 'live', 't', ';', '', 'a;b', '%00', '~', fx.tenant, fx.asset, 'seg_00001.m4s'];
    const tails = ['v1/me', 'v1/api-keys', 'v1/session', 'studio/sign-in', 'studio', 'docs', 'mcp', 'healthz', 'openapi.json',
      `m/${fx.tenant}/assets/${fx.asset}/v1/seg_00001.m4s`, 'v1/seg_00001.m4s', 'seg_00001.m4s', 'master.m3u8'];
    const base = pathOf(src).slice(0, pathOf(src).lastIndexOf('/'));
    const prefixes = ['/m/x', '/live/x', `/t/${tok}`, `/t/${tok}/m`, '/m', '/live', '/t', base, `/m/${fx.tenant}/assets/${fx.asset}/v1`, '/v1', ''];
    const target = fc.record({
      prefix: fc.constantFrom(...prefixes),
      parts: fc.array(fc.tuple(fc.constantFrom(...seps), fc.oneof(fc.constantFrom(...dots), fc.constantFrom(...junk))), { maxLength: 5 }),
      tailSep: fc.constantFrom(...seps),
      tail: fc.constantFrom(...tails),
      inTail: fc.constantFrom(...seps),
      query: fc.constantFrom('', '', '?x=/../..', '?c=default', '?%2e%2e'),
      // Absolute-form now and then (RFC 9112 3.2.2): the path after the authority is what both servers route.
      origin: fc.constantFrom('', '', '', 'http://127.0.0.1'),
    }).map((r) => {
      const rest = `${r.prefix}${r.parts.map(([s, p]) => s + p).join('')}${r.tailSep}${r.tail.split('/').join(r.inTail)}${r.query}`;
      return rest.startsWith('/') ? r.origin + rest : rest;
    });
    // Now and then a target that plays, so the runs hold answers as well as refusals whatever the seed.
    const plays = fc.constantFrom(pathOf(src), pathOf(src, 'master.m3u8'), `/m/${fx.tenant}/assets/${fx.asset}/v1/seg_00001.m4s`);
    const seen = new Map<string, number>();
    await fc.assert(fc.asyncProperty(fc.oneof({ arbitrary: target, weight: 9 }, { arbitrary: plays, weight: 1 }), fc.constantFrom('GET', 'HEAD', 'POST'), fc.boolean(), async (t, method, cookieOnly) => {
      const body = method === 'POST' ? NEW_KEY : '';
      const [own, front] = [await send(fx.own, method, t, body, cookieOnly), await send(fx.front, method, t, body, cookieOnly)];
      const path = t.replace(/^http:\/\/127\.0\.0\.1/, '');
      const bad = hasDotOrBackslash(path);
      const delivery = /^\/(t|m|live)\//.test(path);
      for (const [port, a] of [['own', own], ['front', front]] as const) {
        const key = `${port} ${a.status}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        expect({ port, t, method, status: a.status < 500 }).toEqual({ port, t, method, status: true });
        if (port === 'front' || delivery) expect({ port, t, method, why: notDelivery(a) }).toEqual({ port, t, method, why: null });
        if (path.startsWith('/t/') && !(a.headers['cache-control'] ?? '').startsWith('public')) expect({ port, t, method, cc: a.headers['cache-control'] }).toEqual({ port, t, method, cc: 'no-store' });
      }
      if (bad) {
        expect({ t, method, own: own.status }).toEqual({ t, method, own: 400 });
        // The front refuses it itself (400), or its normalised URI is outside every delivery location (404).
        expect({ t, method, front: [400, 404].includes(front.status), type: contentType(front) }).toEqual({ t, method, front: true, type: 'application/problem+json' });
      }
    }), { numRuns: 300, seed: 41 });
    // The runs covered refusals and answers alike.
    expect([...seen.keys()].some((k) => k.endsWith(' 200'))).toBe(true);
    expect([...seen.keys()].some((k) => k.endsWith(' 400'))).toBe(true);
  }, 180_000);
});
