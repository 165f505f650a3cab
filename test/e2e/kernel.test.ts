import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { IdentityService } from '../../src/features/identity/service';
import { Elysia } from 'elysia';
import { identityRoutes } from '../../src/features/identity/routes';
import { dropBodylessParse } from '../../src/kernel/http/plugin';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ workers: false }); });
afterAll(async () => { await s.stop(); });

async function problem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = await res.json() as Record<string, unknown>;
  expect(body.type).toBe(`${s.ctx.config.problemsBase}/${code}`);
  expect(body.status).toBe(status);
  expect(typeof body.detail).toBe('string');
  expect(body.request_id).toBe(res.headers.get('x-request-id')!);
  return body;
}

describe('conventions', () => {
  test('every response carries X-Request-Id; management responses are no-store', async () => {
    for (const [path, key] of [['/v1/me', s.key], ['/v1/me', null], ['/nope', null], ['/healthz', null]] as const) {
      const r = await s.api('GET', path, undefined, { key });
      expect(r.headers.get('x-request-id')).toBeTruthy();
      if (path !== '/nope') expect(r.headers.get('cache-control')).toBe('no-store');
    }
    const ids = new Set(await Promise.all([1, 2, 3].map(async () => (await s.api('GET', '/healthz')).headers.get('x-request-id'))));
    expect(ids.size).toBe(3);
  });

  test('GET /v1/me compiles to a synchronous route: a key answers without a promise, a missing key still 401s', async () => {
    // Elysia compiles a route as async when its source looks async (any parse hook, `return f(...)` in the handler);
    // the hot path must stay synchronous (issue 21) without skipping authentication.
    const app = new Elysia({ normalize: false, aot: true }).use(identityRoutes(s.ctx));
    dropBodylessParse(app);
    const ok = app.fetch(new Request(`${s.url}/v1/me`, { headers: { authorization: `Bearer ${s.key}` } }));
    expect(ok).toBeInstanceOf(Response);
    expect((ok as Response).status).toBe(200);
    expect((ok as Response).headers.get('cache-control')).toBe('no-store');
    expect((ok as Response).headers.get('x-request-id')).toBeTruthy();
    const anon = await app.fetch(new Request(`${s.url}/v1/me`));
    expect(anon.status).toBe(401);
    for (const spelling of [`Bearer ${s.key}`, `bearer ${s.key}`, `Bearer  ${s.key} `]) {
      expect((await s.api('GET', '/v1/me', undefined, { key: null, headers: { authorization: spelling } })).status).toBe(200);
    }
    expect((await s.api('GET', '/v1/me', undefined, { key: null, headers: { authorization: `Bearer ${s.key}x` } })).status).toBe(401);
  });

  test('/healthz answers {status: ok} without a key', async () => {
    const r = await s.api('GET', '/healthz', undefined, { key: null });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok' });
  });

  test('unknown route is a 404 problem', async () => {
    await problem(await s.api('GET', '/v1/definitely-not-here'), 404, 'not_found');
  });
});

describe('authentication', () => {
  test('GET /v1/me with the owner key', async () => {
    const r = await s.api('GET', '/v1/me');
    expect(r.status).toBe(200);
    const me = await r.json() as { auth: string; user: null; tenants: { slug: string; role: string }[]; current_tenant: { slug: string; cdn_hostname: string }; scopes: string[] };
    expect(me.auth).toBe('api_key');
    expect(me.user).toBeNull();
    expect(me.tenants[0].slug).toBe('default');
    expect(me.tenants[0].role).toBe('api_key');
    expect(me.current_tenant.slug).toBe('default');
    expect(me.current_tenant.cdn_hostname).toBe(new URL(s.url).host);
    expect(me.scopes).toContain('keys:manage');
    expect(me.scopes).toContain('billing:read');
  });

  test('missing, Basic, empty bearer, malformed and unknown keys answer 401 invalid_credentials', async () => {
    await problem(await s.api('GET', '/v1/me', undefined, { key: null }), 401, 'invalid_credentials');
    for (const auth of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer not-a-key', `Bearer vs_${'A'.repeat(40)}`, `Token ${s.key}`]) {
      await problem(await s.api('GET', '/v1/me', undefined, { key: null, headers: { authorization: auth } }), 401, 'invalid_credentials');
    }
  });

  test('a key without the scope answers 403 insufficient_scope naming it', async () => {
    const r = await s.api('POST', '/v1/api-keys', { role: 'viewer', name: 'viewer' });
    expect(r.status).toBe(201);
    const viewer = await r.json() as { key: string; scopes: string[] };
    expect(viewer.scopes).toEqual(['assets:read', 'clips:read', 'channels:read', 'stats:read', 'events:read', 'sites:read', 'support:read', 'support:write', 'ai:read']);
    const body = await problem(await s.api('GET', '/v1/api-keys', undefined, { key: viewer.key }), 403, 'insufficient_scope');
    expect(body.detail).toBe('keys:manage');
  });

  test('keys are shown once, stored hashed, and revocation answers 401 at once', async () => {
    const created = await (await s.api('POST', '/v1/api-keys', { scopes: ['assets:read'], name: 'temp' })).json() as { id: string; key: string };
    expect(created.key).toStartWith('vs_');
    const row = s.ctx.db.query<{ hash: string }, [string]>('SELECT hash FROM api_keys WHERE id = ?').get(created.id)!;
    expect(row.hash).not.toContain(created.key);
    expect(JSON.stringify(s.ctx.db.query('SELECT * FROM api_keys').all())).not.toContain(created.key);
    expect((await s.api('GET', '/v1/me', undefined, { key: created.key })).status).toBe(200);
    const list = await (await s.api('GET', '/v1/api-keys')).json() as { items: Record<string, unknown>[] };
    expect(list.items.some((k) => k.id === created.id && !('key' in k))).toBe(true);
    expect((await s.api('DELETE', `/v1/api-keys/${created.id}`)).status).toBe(204);
    await problem(await s.api('GET', '/v1/me', undefined, { key: created.key }), 401, 'invalid_credentials');
    expect((await s.api("DELETE", `/v1/api-keys/${created.id}`)).status).toBe(204); // idempotent
    await problem(await s.api("DELETE", "/v1/api-keys/01a200fd-5737-7000-b8fa-c99c8742b39b"), 404, "not_found");
  });

  test('a key cannot grant scopes its caller lacks', async () => {
    const eng = await (await s.api('POST', '/v1/api-keys', { role: 'engineer' })).json() as { key: string };
    const r = await s.api('POST', '/v1/api-keys', { role: 'owner' }, { key: eng.key });
    const body = await problem(r, 403, 'insufficient_scope');
    expect(String(body.detail)).toContain('billing:read');
    expect((await s.api('POST', '/v1/api-keys', { scopes: ['assets:read'] }, { key: eng.key })).status).toBe(201);
  });

  test("another tenant's key and objects: 404 across tenants", async () => {
    const svc = new IdentityService(s.ctx.db, s.ctx.keys);
    const other = svc.createTenant({ name: 'Other Broadcaster' });
    const otherKey = svc.createKey(other.id, { role: 'owner' });
    const me = await (await s.api('GET', '/v1/me', undefined, { key: otherKey.key })).json() as { current_tenant: { slug: string } };
    expect(me.current_tenant.slug).toBe('other-broadcaster');
    const mine = await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { id: string };
    await problem(await s.api('DELETE', `/v1/api-keys/${mine.id}`, undefined, { key: otherKey.key }), 404, 'not_found');
    const list = await (await s.api('GET', '/v1/api-keys', undefined, { key: otherKey.key })).json() as { items: { id: string }[] };
    expect(list.items.map((k) => k.id)).toEqual([otherKey.id]);
  });
});

describe('request bodies', () => {
  test('unknown field answers 400 with the field named', async () => {
    const b = await problem(await s.api('POST', '/v1/api-keys', { role: 'viewer', colour: 'red' }), 400, 'unknown_field');
    expect(b.errors).toEqual([{ field: 'colour', detail: 'unknown field' }]);
  });

  test('wrong types answer 422 with errors[]', async () => {
    const b = await problem(await s.api('POST', '/v1/api-keys', { role: 7, name: ['x'] }), 422, 'validation_error');
    const fields = (b.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(['name', 'role']);
    const e = await problem(await s.api('POST', '/v1/api-keys', { role: 'emperor' }), 422, 'validation_error');
    expect((e.errors as { detail: string }[])[0].detail).toContain('one of: viewer, editor');
    await problem(await s.api('POST', '/v1/api-keys', { scopes: ['no:such'] }), 422, 'validation_error');
    await problem(await s.api('POST', '/v1/api-keys', {}), 422, 'validation_error');
  });

  test('invalid JSON answers 400 invalid_json', async () => {
    await problem(await s.api('POST', '/v1/api-keys', '{"role":'), 400, 'invalid_json');
    await problem(await s.api('POST', '/v1/api-keys', '[1,2'), 400, 'invalid_json');
  });

  test('a 2 MiB JSON body answers 413, declared or chunked', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
    await problem(await s.api('POST', '/v1/api-keys', big), 413, 'payload_too_large');
    const stream = new ReadableStream({ start(c) { const b = new TextEncoder().encode(big); for (let i = 0; i < b.length; i += 65536) c.enqueue(b.subarray(i, i + 65536)); c.close(); } });
    const r = await fetch(`${s.url}/v1/api-keys`, { method: 'POST', body: stream, headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' } });
    await problem(r, 413, 'payload_too_large');
  });
});

describe('pagination', () => {
  test('cursor pages are newest first, complete, and stable under concurrent inserts', async () => {
    const t = new IdentityService(s.ctx.db, s.ctx.keys).createTenant({ name: 'Pager' });
    const owner = new IdentityService(s.ctx.db, s.ctx.keys).createKey(t.id, { role: 'owner', name: 'k0' });
    const ids = [owner.id];
    for (let i = 1; i <= 7; i++) {
      const r = await s.api("POST", "/v1/api-keys", { role: "viewer", name: `k${i}` }, { key: owner.key });
      const text = await r.text();
      expect(`${r.status} ${text}`).toStartWith("201 ");
      ids.push(JSON.parse(text).id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const page = await (await s.api('GET', `/v1/api-keys${q}`, undefined, { key: owner.key })).json() as { items: { id: string }[]; next_cursor: string | null };
      seen.push(...page.items.map((k) => k.id));
      if (pages === 0) await s.api('POST', '/v1/api-keys', { role: 'viewer', name: 'late' }, { key: owner.key });
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect(pages).toBe(3);
  });

  test('a forged or foreign cursor answers 422', async () => {
    const page = await (await s.api('GET', '/v1/api-keys?limit=1')).json() as { next_cursor: string };
    expect(page.next_cursor).toBeTruthy();
    const [body, sig] = page.next_cursor.split('.');
    const forgedBody = Buffer.from(JSON.stringify({ s: JSON.parse(Buffer.from(body, 'base64url').toString()).s, q: 999999 })).toString('base64url');
    for (const c of [`${forgedBody}.${sig}`, 'garbage', `${body}.AAAA`, '']) {
      const r = await s.api('GET', `/v1/api-keys?limit=1&cursor=${encodeURIComponent(c)}`);
      if (c === '') { expect(r.status).toBe(200); continue; }
      await problem(r, 422, 'validation_error');
    }
    await problem(await s.api('GET', '/v1/api-keys?limit=0'), 422, 'validation_error');
    await problem(await s.api('GET', '/v1/api-keys?limit=abc'), 422, 'validation_error');
  });
});

describe('rate limit', () => {
  test('160 parallel requests on one key: some 429 with Retry-After, other keys unaffected', async () => {
    const k = await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string };
    const res = await Promise.all(Array.from({ length: 160 }, () => s.api('GET', '/v1/me', undefined, { key: k.key, headers: { 'x-forwarded-for': `10.0.0.${Math.floor(Math.random() * 250)}` } })));
    const ok = res.filter((r) => r.status === 200).length;
    const limited = res.filter((r) => r.status === 429);
    expect(ok).toBeGreaterThanOrEqual(100);
    expect(ok).toBeLessThan(160);
    expect(limited.length).toBe(160 - ok);
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await problem(limited[0], 429, 'rate_limited');
    expect((await s.api('GET', '/v1/me')).status).toBe(200);
  });
});

describe('CDN-only tenants', () => {
  test('assets, channels and uploads answer 403 feature_disabled; identity still works', async () => {
    const svc = new IdentityService(s.ctx.db, s.ctx.keys);
    const t = svc.createTenant({ name: 'Edge Only', cdnOnly: true });
    const k = svc.createKey(t.id, { role: 'owner' }).key;
    const me = await (await s.api('GET', '/v1/me', undefined, { key: k })).json() as { current_tenant: { cdn_only: boolean } };
    expect(me.current_tenant.cdn_only).toBe(true);
    for (const [m, p, b] of [['GET', '/v1/assets'], ['GET', '/v1/channels'], ['POST', '/v1/assets', { source: { kind: 'url', url: 'https://example.com/a.mp4' } }], ['POST', '/v1/uploads', { filename: 'a.mp4', size_bytes: 10, content_type: 'video/mp4' }]] as const) {
      const body = await problem(await s.api(m, p, b, { key: k }), 403, 'feature_disabled');
      expect(String(body.detail)).toContain('CDN-only');
    }
    expect((await s.api('GET', '/v1/assets')).status).toBe(200);
  });
});
