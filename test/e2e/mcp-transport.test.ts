import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { PeopleService } from '../../src/features/people/service';
import { identityService } from '../../src/features/identity/service';
import { keyFor, rawMcp } from './mcp-helpers';
import { signIn } from './people-helpers';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ workers: false, env: { VS_PRIVATE_ALLOWLIST: '127.0.0.0/8' } }); });
afterAll(async () => { await s?.stop(); });

const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
type Rpc = { jsonrpc: string; id: number | string | null; result?: Record<string, unknown>; error?: { code: number; message: string } };

test('GET 405 with Allow: POST (no key needed); stateless initialize issues no session id; ping and tools/list need no initialize', async () => {
  const g = await fetch(`${s.url}/mcp`);
  expect(g.status).toBe(405);
  expect(g.headers.get('allow')).toBe('POST');
  expect(g.headers.get('content-type')).toBe('application/problem+json');
  const init = await rawMcp(s, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  expect(init.status).toBe(200);
  expect(init.headers.get('content-type')).toContain('application/json');
  expect(init.headers.get('mcp-session-id')).toBeNull();
  const body = await init.json() as Rpc;
  expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', serverInfo: { name: 'viewstream' } } });
  // Older revisions the SDK knows are not offered: the answer names the newest one this API speaks.
  for (const [asked, got] of [['2024-11-05', '2025-11-25'], ['2025-03-26', '2025-03-26'], ['2026-07-28', '2025-11-25']]) {
    const r = await (await rawMcp(s, { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })).json() as Rpc;
    expect([asked, r.result!.protocolVersion]).toEqual([asked, got]);
  }
  const p = await rawMcp(s, ping('a'), { headers: { 'mcp-protocol-version': '2025-11-25' } });
  expect(await p.json()).toEqual({ jsonrpc: '2.0', id: 'a', result: {} });
  const tl = await (await rawMcp(s, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).json() as Rpc;
  expect((tl.result!.tools as unknown[]).length).toBeGreaterThan(10);
  // An unknown method is a JSON-RPC error, not an HTTP one.
  const um = await rawMcp(s, { jsonrpc: '2.0', id: 3, method: 'server/discover' });
  expect(um.status).toBe(200);
  expect(((await um.json()) as Rpc).error!.code).toBe(-32601);
});

test('notifications answer 202 with no body', async () => {
  const r = await rawMcp(s, { jsonrpc: '2.0', method: 'notifications/initialized' });
  expect(r.status).toBe(202);
  expect(await r.text()).toBe('');
});

test('keys: none or bad → 401 with WWW-Authenticate: Bearer; studio session cookies refused', async () => {
  for (const key of [null, 'vs_not_a_real_key_0000000000000000']) {
    const r = await rawMcp(s, ping(1), { key });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toStartWith('Bearer');
    expect(((await r.json()) as { type: string }).type).toEndWith('/invalid_credentials');
  }
  const def = identityService(s.ctx).tenant('default')!;
  await new PeopleService(s.ctx).createUser({ email: 'mcp-owner@example.com', name: 'Owner', password: 'a sturdy passphrase 9', tenantId: def.id, role: 'owner' });
  const studio = await signIn(s, 'mcp-owner@example.com', 'a sturdy passphrase 9');
  // The cookie works on the API...
  expect((await studio.call('GET', '/v1/me')).status).toBe(200);
  // ...but not on /mcp, even with its CSRF token.
  const r = await rawMcp(s, ping(1), { key: null, headers: { cookie: studio.cookie, 'x-csrf-token': studio.csrf } });
  expect(r.status).toBe(401);
  expect(r.headers.get('www-authenticate')).toStartWith('Bearer');
});

test('browser Origin: the appliance itself passes, another origin answers 403', async () => {
  expect((await rawMcp(s, ping(1), { headers: { origin: new URL(s.url).origin } })).status).toBe(200);
  const r = await rawMcp(s, ping(1), { headers: { origin: 'https://evil.example' } });
  expect(r.status).toBe(403);
  expect(((await r.json()) as { type: string }).type).toEndWith('/forbidden');
});

test('Accept must not exclude application/json (406); Content-Type must be JSON (415)', async () => {
  for (const accept of ['application/json', '*/*', 'application/*', 'application/json, text/event-stream', 'text/html, */*;q=0.1']) {
    expect([accept, (await rawMcp(s, ping(1), { headers: { accept } })).status]).toEqual([accept, 200]);
  }
  const none = await fetch(`${s.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' }, body: JSON.stringify(ping(1)) });
  expect(none.status).toBe(200);
  for (const accept of ['text/event-stream', 'application/json;q=0, */*', 'text/html']) {
    expect([accept, (await rawMcp(s, ping(1), { headers: { accept } })).status]).toEqual([accept, 406]);
  }
  for (const ct of ['text/plain', 'application/x-www-form-urlencoded']) {
    const r = await rawMcp(s, JSON.stringify(ping(1)), { headers: { 'content-type': ct } });
    expect(r.status).toBe(415);
  }
});

test('MCP-Protocol-Version validated when sent (400 otherwise); the SDK has no 2026-07-28 revision', async () => {
  for (const v of ['2025-11-25', '2025-06-18', '2025-03-26']) expect((await rawMcp(s, ping(1), { headers: { 'mcp-protocol-version': v } })).status).toBe(200);
  for (const v of ['2024-11-05', '2026-07-28', 'latest']) {
    const r = await rawMcp(s, ping(1), { headers: { 'mcp-protocol-version': v } });
    expect([v, r.status]).toEqual([v, 400]);
    expect(((await r.json()) as { detail: string }).detail).toContain('2025-11-25');
  }
});

test('body over 1 MiB → 413; malformed JSON → -32700; not a JSON-RPC object → -32600', async () => {
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } });
  const r = await rawMcp(s, big);
  expect(r.status).toBe(413);
  const justUnder = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: 'x'.repeat(1000 * 1000) } } });
  expect((await rawMcp(s, justUnder)).status).toBe(200);
  // Chunked bodies (no Content-Length) are read through the bounded stream read.
  const chunked = (text: string) => fetch(`${s.url}/mcp`, {
    method: 'POST', headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' }, duplex: 'half',
    body: new ReadableStream({ start(c) { const b = new TextEncoder().encode(text); for (let i = 0; i < b.length; i += 65536) c.enqueue(b.slice(i, i + 65536)); c.close(); } }),
  } as RequestInit);
  expect((await chunked(JSON.stringify(ping(5)))).status).toBe(200);
  expect((await chunked(big)).status).toBe(413);
  const bad = await rawMcp(s, '{"jsonrpc": "2.0", "id": 1, "method": ');
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as Rpc).error!.code).toBe(-32700);
  const notObj = await rawMcp(s, '"ping"');
  expect(notObj.status).toBe(400);
});

test('batches: only for 2025-03-26 (or no version header), at most 20; 21 → error', async () => {
  const h = { 'mcp-protocol-version': '2025-03-26' };
  const twenty = Array.from({ length: 20 }, (_, i) => ping(i + 1));
  const ok = await rawMcp(s, twenty, { headers: h });
  expect(ok.status).toBe(200);
  const answers = await ok.json() as Rpc[];
  expect(answers.map((a) => a.id).sort((a, b) => Number(a) - Number(b))).toEqual(twenty.map((m) => m.id));
  const over = await rawMcp(s, [...twenty, ping(21)], { headers: h });
  expect(over.status).toBe(400);
  const e = await over.json() as Rpc;
  expect(e).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  expect(e.error!.message).toContain('20');
  expect((await rawMcp(s, [ping(1), ping(2)])).status).toBe(200);
  const newer = await rawMcp(s, [ping(1), ping(2)], { headers: { 'mcp-protocol-version': '2025-06-18' } });
  expect(newer.status).toBe(400);
  expect(((await newer.json()) as Rpc).error!.code).toBe(-32600);
  expect((await rawMcp(s, [], { headers: h })).status).toBe(400);
  // A mixed batch: a call and a notification; only the call is answered.
  const mixed = await rawMcp(s, [{ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_assets', arguments: {} } }, { jsonrpc: '2.0', method: 'notifications/initialized' }], { headers: h });
  const m = await mixed.json() as Rpc | Rpc[];
  const arr = Array.isArray(m) ? m : [m];
  expect(arr.map((x) => x.id)).toEqual([7]);
});

test('oversize tool results are shortened to about 60 KB and marked _truncated', async () => {
  const editor = await keyFor(s, { role: 'editor' });
  const pad = 'ה'.repeat(3000);
  for (let i = 0; i < 15; i++) {
    const r = await s.api('POST', '/v1/assets', { source: { kind: 'url', url: `http://127.0.0.1:9/f${i}.mp4` }, title: `big ${i}`, metadata: { notes: pad } });
    expect(r.status).toBe(201);
  }
  const res = await rawMcp(s, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_assets', arguments: { limit: 200 } } }, { key: editor });
  const text = await res.text();
  expect(Buffer.byteLength(text)).toBeLessThan(64 * 1024);
  const out = (JSON.parse(text) as Rpc).result as { structuredContent: { items: unknown[]; _truncated: boolean; _omitted: number }; content: { text: string }[]; isError?: boolean };
  expect(out.isError).toBeUndefined();
  expect(out.structuredContent._truncated).toBe(true);
  expect(out.structuredContent.items.length + out.structuredContent._omitted).toBe(15);
  expect(out.structuredContent.items.length).toBeGreaterThan(0);
  expect(JSON.parse(out.content[0].text)).toEqual(out.structuredContent);
  // A small page is not marked.
  const small = await (await rawMcp(s, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_assets', arguments: { limit: 2 } } }, { key: editor })).json() as Rpc;
  expect((small.result as { structuredContent: Record<string, unknown> }).structuredContent._truncated).toBeUndefined();
});

test('pooled servers: concurrent calls with the same JSON-RPC id from keys of different scopes each get their own answer', async () => {
  // Servers are reused across requests (per allowed tool set); each request must still see only its own key and id.
  const viewer = await keyFor(s, { role: 'viewer' });
  const call = (key: string | undefined, id: number) => rawMcp(s, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'register_asset_from_url', arguments: { url: 'http://127.0.0.1:9/x.mp4' } } }, { key, headers: { 'mcp-protocol-version': '2025-11-25' } });
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => call(i % 2 ? viewer : undefined, 7).then(async (r) => ({ i, body: await r.json() as Rpc }))));
    for (const { i, body } of answers) {
      expect(body.id).toBe(7);
      const result = body.result as { isError?: boolean; content: { text: string }[] };
      // The viewer key lacks assets:write: a refusal; the owner key registers the asset.
      if (i % 2) expect([result.isError, JSON.parse(result.content[0].text).title]).toEqual([true, 'insufficient_scope']);
      else expect(result.isError ?? false).toBe(false);
    }
  }
});
