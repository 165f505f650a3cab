import { afterAll, beforeAll, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server';
import { addReadyAsset } from '../helpers/ready-asset';

// The server answers a /t/ GET or HEAD through the gate's token entry directly (no router pass). Every answer must be
// the one the router would give: same status, headers (but the per-request id and date) and body, for good and for
// hostile requests alike.
let s: TestServer;
let asset: string, other: string;
// Below the kept-descriptor size (1 MiB): in-process readers read a path's file, not a shared descriptor's position.
const SEG = randomBytes(512 * 1024);

/** Status, headers and body without the per-request id and date (problem details carry the id too). */
async function view(res: Response): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => { if (k !== 'x-request-id' && k !== 'date') headers[k] = v; });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!headers['content-type']?.includes('json')) return { status: res.status, headers, body: bytes.toString('base64') };
  const { request_id: _, ...problem } = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  return { status: res.status, headers, body: JSON.stringify(problem) };
}

beforeAll(async () => {
  s = await startTestServer({ workers: false });
  const tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  asset = addReadyAsset(s, tenant, SEG);
  other = addReadyAsset(s, tenant, SEG);
}, 60_000);
afterAll(async () => { await s?.stop(); }, 60_000);

test('a /t/ GET or HEAD answered by the direct token entry equals the router\'s answer, good or hostile', async () => {
  const tok = await (await s.api('POST', '/v1/playback/tokens', { asset, ttl_s: 600 })).json() as { src: string; sid: string };
  const revoked = await (await s.api('POST', '/v1/playback/tokens', { asset, ttl_s: 600 })).json() as { src: string; sid: string };
  expect((await s.api('POST', '/v1/security/revocations', { sid: revoked.sid })).status).toBe(201);
  const base = new URL(tok.src);
  const t = base.pathname.split('/')[2];
  const prefix = `${base.origin}/t/${t}`;
  const inner = new URL('.', tok.src).pathname.slice(`/t/${t}`.length);
  const etag = (await fetch(new URL('seg_00001.m4s', tok.src))).headers.get('etag')!;
  const cases: { url: string; method?: string; headers?: Record<string, string> }[] = [
    { url: new URL('seg_00001.m4s', tok.src).toString() },
    { url: new URL('seg_00001.m4s', tok.src).toString(), method: 'HEAD' },
    { url: new URL('seg_00001.m4s', tok.src).toString(), headers: { range: 'bytes=100-199' } },
    { url: new URL('seg_00001.m4s', tok.src).toString(), headers: { range: 'bytes=99999999-' } },
    { url: new URL('seg_00001.m4s', tok.src).toString(), headers: { 'if-none-match': etag } },
    { url: new URL('master.m3u8', tok.src).toString() },
    { url: new URL('none.m4s', tok.src).toString() },
    { url: new URL('seg_00001.m4s', tok.src).toString() + '?x=1' },
    { url: new URL('seg_00001.m4s', revoked.src).toString() },
    { url: `${prefix}${inner.replace(asset, other)}seg_00001.m4s` }, // another asset under this token
    { url: `${base.origin}/t/${t.slice(0, -2)}AA${inner}seg_00001.m4s` }, // forged signature
    { url: `${base.origin}/t/not-a-token${inner}seg_00001.m4s` },
    { url: `${prefix}${inner}..%2f..%2fmaster.m3u8` },
    { url: `${prefix}${inner}%2e%2e/seg_00001.m4s` },
    { url: `${prefix}/m/` },
    { url: `${prefix}` },
  ];
  for (const c of cases) {
    const make = () => new Request(c.url, { method: c.method ?? 'GET', headers: c.headers });
    const direct = await view(await s.fetch(make()));
    const routed = await view(await s.app.fetch(make()));
    // A HEAD body is never sent (the server drops it): the two entries' stand-ins need not match.
    if (c.method === 'HEAD') direct.body = routed.body = '';
    expect({ url: c.url, ...direct }).toEqual({ url: c.url, ...routed });
  }
  // The cases cover answers and refusals alike.
  const statuses = new Set<number>();
  for (const c of cases) statuses.add((await s.fetch(new Request(c.url, { method: c.method ?? 'GET', headers: c.headers }))).status);
  expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 206, 304, 403, 404, 416]));
});
