import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { identityService } from '../../src/features/identity/service';
import { startReceiver, verifyLikeACustomer, type Receiver } from './webhooks-receiver';

const ENV = { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' };
let s: TestServer;
let rx: Receiver;

beforeAll(async () => {
  s = await startTestServer({ env: ENV });
  rx = startReceiver();
});
afterAll(async () => { rx.stop(); await s.stop(); });

async function create(body: unknown, key?: string) {
  const r = await s.api('POST', '/v1/webhooks', body, key ? { key } : {});
  return { status: r.status, json: await r.json() as Record<string, any> };
}

describe('webhook endpoints', () => {
  test('create answers 201 with the secret once; list shows only a hint and the event types', async () => {
    const c = await create({ url: rx.url, events: ['asset.ready'] });
    expect(c.status).toBe(201);
    expect(c.json.secret).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
    expect(c.json.enabled).toBe(true);
    const list = await (await s.api('GET', '/v1/webhooks')).json() as Record<string, any>;
    const item = list.items.find((i: any) => i.id === c.json.id);
    expect(item.secret).toBeUndefined();
    expect(item.secret_hint).toBe(`whsec_…${c.json.secret.slice(-4)}`);
    expect(list.event_types).toContain('asset.ready');
    expect(list.event_types).toContain('ping');
    expect(list.event_types).toContain('channel.programme_started');
    const one = await (await s.api('GET', `/v1/webhooks/${c.json.id}`)).json() as Record<string, any>;
    expect(one.secret).toBeUndefined();
  });

  test('refuses private, non-https, malformed and unknown input', async () => {
    const bad = [
      { url: 'http://10.0.0.5/hook', events: ['*'] },
      { url: 'https://127.0.0.2/hook', events: ['*'] },
      { url: 'http://localhost:1/x', events: ['*'] },
      { url: 'https://169.254.169.254/latest', events: ['*'] },
      { url: 'ftp://example.com/x', events: ['*'] },
      { url: 'not a url', events: ['*'] },
      { url: rx.url, events: ['asset.exploded'] },
      { url: rx.url, events: ['*', 'asset.ready'] },
    ];
    for (const b of bad) {
      const c = await create(b);
      expect(c.status, JSON.stringify(b)).toBe(422);
      expect(c.json.errors[0].field).toMatch(/url|events/);
    }
    expect((await create({ url: rx.url, events: [] })).status).toBe(422);
    expect((await create({ url: rx.url, events: ['*'], extra: 1 })).status).toBe(400);
  });

  test('plain http to a public-looking address is refused even with an allowlist', async () => {
    const c = await create({ url: 'http://8.8.8.8/hook', events: ['*'] });
    expect(c.status).toBe(422);
    expect(c.json.errors[0].detail).toContain('https');
  });

  test('scopes: a viewer key cannot manage webhooks', async () => {
    const viewer = identityService(s.ctx).createKey(s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id, { role: 'viewer' });
    const c = await create({ url: rx.url, events: ['*'] }, viewer.key);
    expect(c.status).toBe(403);
    expect(c.json.detail).toBe('webhooks:manage');
    expect((await s.api('GET', '/v1/webhooks', undefined, { key: null })).status).toBe(401);
  });

  test('another tenant sees 404 for our endpoint', async () => {
    const c = await create({ url: rx.url, events: ['*'] });
    const other = identityService(s.ctx).createTenant({ name: 'Other Co' });
    const k = identityService(s.ctx).createKey(other.id, { role: 'owner' });
    for (const [m, p] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/test'], ['GET', '/deliveries']] as const) {
      const r = await s.api(m, `/v1/webhooks/${c.json.id}${p}`, m === 'PATCH' ? { enabled: false } : undefined, { key: k.key });
      expect(r.status, `${m} ${p}`).toBe(404);
    }
    const list = await (await s.api('GET', '/v1/webhooks', undefined, { key: k.key })).json() as Record<string, any>;
    expect(list.items).toEqual([]);
  });

  test('test sends a signed ping with the documented envelope and headers; deliveries show it', async () => {
    const c = await create({ url: rx.url, events: ['asset.ready'] });
    const r = await s.api('POST', `/v1/webhooks/${c.json.id}/test`);
    expect(r.status).toBe(202);
    const ping = await r.json() as { event_id: string; delivery_id: string };
    const got = (await waitFor('ping', () => rx.received.find((x) => x.headers['x-vs-delivery'] === ping.delivery_id)))!;
    expect(got.headers['x-vs-event']).toBe('ping');
    expect(got.headers['user-agent']).toBe('ViewStream-Webhooks/1');
    expect(got.headers['content-type']).toContain('application/json');
    expect(verifyLikeACustomer(c.json.secret, got.headers, got.raw)).toBe(true);
    expect(verifyLikeACustomer(c.json.secret, got.headers, got.raw + ' ')).toBe(false);
    expect(verifyLikeACustomer('whsec_wrong', got.headers, got.raw)).toBe(false);
    expect(Object.keys(got.body).sort()).toEqual(['at', 'customer_id', 'data', 'id', 'type']);
    expect(got.body.id).toBe(ping.event_id);
    expect(got.body.type).toBe('ping');
    expect(got.body.data).toEqual({ webhook_id: c.json.id });
    const me = await (await s.api('GET', '/v1/me')).json() as Record<string, any>;
    expect(got.body.customer_id).toBe(me.current_tenant.id);
    expect(new Date(got.body.at).toISOString()).toBe(got.body.at);
    const d = await waitFor('delivered status', async () => {
      const list = await (await s.api('GET', `/v1/webhooks/${c.json.id}/deliveries`)).json() as Record<string, any>;
      return list.items.find((i: any) => i.id === ping.delivery_id && i.status === 'delivered');
    });
    expect(d).toMatchObject({ event_type: 'ping', attempts: 1, last_response_code: 200, next_attempt_at: null });
    expect(d.delivered_at).toBeString();
    // A ping goes only to the endpoint it was sent for, not to every `*` subscriber.
    expect(rx.received.filter((x) => x.body.id === ping.event_id).length).toBe(1);
  });

  test('disabled endpoints get nothing new; PATCH changes events; DELETE removes', async () => {
    const c = await create({ url: rx.url, events: ['asset.published'] });
    const id = c.json.id as string;
    const p = await s.api('PATCH', `/v1/webhooks/${id}`, { enabled: false });
    expect(p.status).toBe(200);
    expect((await p.json() as any).enabled).toBe(false);
    expect((await s.api('POST', `/v1/webhooks/${id}/test`)).status).toBe(409);
    const p2 = await s.api('PATCH', `/v1/webhooks/${id}`, { enabled: true, events: ['clip.ready', 'clip.final'] });
    expect((await p2.json() as any).events).toEqual(['clip.ready', 'clip.final']);
    expect((await s.api('PATCH', `/v1/webhooks/${id}`, { url: 'https://10.1.2.3/x' })).status).toBe(422);
    expect((await s.api('PATCH', `/v1/webhooks/${id}`, { secret: 'x' })).status).toBe(400);
    expect((await s.api('DELETE', `/v1/webhooks/${id}`)).status).toBe(204);
    expect((await s.api('GET', `/v1/webhooks/${id}`)).status).toBe(404);
    expect((await s.api('DELETE', `/v1/webhooks/${id}`)).status).toBe(404);
  });

  test('the OpenAPI document lists the routes and documents each event type\'s data', async () => {
    const d = await (await fetch(`${s.url}/openapi.json`)).json() as Record<string, any>;
    const list = d.paths['/v1/webhooks'].get;
    expect(list.description).toContain('`asset.ready`');
    expect(list.description).toContain('{asset, external_id, status, error?, playback?}');
    expect(d.paths['/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver']).toBeDefined();
    expect(d.paths['/v1/webhooks'].post.description).toContain('X-VS-Signature');
  });
});
