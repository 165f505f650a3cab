import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { newId } from '../../src/kernel/ids';
import { startReceiver, type Receiver } from './webhooks-receiver';

let s: TestServer;
let rx: Receiver;
let tenant: string;
let hook: { id: string; address: string; secret: string };

function seedAsset(externalId: string, status: string): string {
  const id = newId();
  s.ctx.db.query(`INSERT INTO assets (id, tenant_id, external_id, title, status, source, created_at, updated_at) VALUES (?, ?, ?, 't', ?, '{}', ?, ?)`)
    .run(id, tenant, externalId, status, Date.now(), Date.now());
  return id;
}
const published = (id: string) => s.ctx.db.query<{ published: number }, [string]>('SELECT published FROM assets WHERE id = ?').get(id)!.published;

/** Signs like the customer's CMS would (independent HMAC code). */
function signed(body: string, o: { secret?: string; ts?: number; delivery?: string; tamper?: (b: string) => string } = {}) {
  const ts = String(o.ts ?? Math.floor(Date.now() / 1000));
  const sig = 'sha256=' + createHmac('sha256', o.secret ?? hook.secret).update(`${ts}.${body}`).digest('hex');
  return fetch(hook.address, {
    method: 'POST', body: o.tamper ? o.tamper(body) : body,
    headers: { 'content-type': 'application/json', 'x-vs-timestamp': ts, 'x-vs-signature': sig, 'x-vs-delivery': o.delivery ?? newId() },
  });
}

beforeAll(async () => {
  s = await startTestServer({ env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  rx = startReceiver();
  tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  expect((await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['asset.published'] })).status).toBe(201);
  const r = await s.api('POST', '/v1/inbound-hooks', { kind: 'cms_publish', mapping: { path: 'article.videos.*.ref' } });
  expect(r.status).toBe(201);
  hook = await r.json() as typeof hook;
});
afterAll(async () => { rx.stop(); await s.stop(); });

test('creation answers an address and an hksec_ secret; the list shows only a hint', async () => {
  expect(hook.secret).toMatch(/^hksec_/);
  expect(hook.address).toBe(`${s.url}/v1/hooks/${hook.id}`);
  const list = await (await s.api('GET', '/v1/inbound-hooks')).json() as { items: Record<string, unknown>[] };
  expect(list.items[0]).toMatchObject({ id: hook.id, kind: 'cms_publish', mapping: { match: 'external_id', path: 'article.videos.*.ref' } });
  expect(list.items[0].secret).toBeUndefined();
  expect((await s.api('POST', '/v1/inbound-hooks', { kind: 'other', mapping: { path: 'a' } })).status).toBe(422);
  expect((await s.api('POST', '/v1/inbound-hooks', { kind: 'cms_publish', mapping: { path: 'a..b' } })).status).toBe(422);
});

test('a signed call publishes matched ready assets once; replays are ignored', async () => {
  const ready = seedAsset('story-1', 'ready');
  const encoding = seedAsset('story-2', 'encoding');
  const body = JSON.stringify({ article: { videos: [{ ref: 'story-1' }, { ref: 'story-2' }, { ref: 'nope' }] } });
  const delivery = newId();
  const r = await signed(body, { delivery });
  expect(r.status).toBe(200);
  const out = await r.json() as Record<string, unknown>;
  expect(out).toEqual({ delivery_id: delivery, duplicate: false, published: [ready], already_published: [], not_ready: [encoding], unknown: ['nope'] });
  expect(published(ready)).toBe(1);
  expect(published(encoding)).toBe(0);
  const ev = await waitFor('asset.published webhook', () => rx.received.find((x) => x.body.data.asset === ready));
  expect(ev!.body.type).toBe('asset.published');
  // The same delivery id again: nothing done, first result answered.
  const again = await signed(body, { delivery });
  expect(again.status).toBe(200);
  expect(await again.json()).toMatchObject({ duplicate: true, published: [ready] });
  const n = s.ctx.db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM events WHERE type = 'asset.published' AND json_extract(data, '$.asset') = ?").get(ready)!.n;
  expect(n).toBe(1);
  // A new call (new delivery id, another signed body) for the same article: already published. (The very same
  // signature under a new delivery id is a replay: security-misc.test.ts.)
  expect(await (await signed(JSON.stringify({ ...JSON.parse(body), revision: 2 }))).json()).toMatchObject({ duplicate: false, published: [], already_published: [ready] });
});

test('tampered body, old timestamp, wrong secret, missing headers and unknown hook are refused', async () => {
  const target = seedAsset('story-3', 'ready');
  const body = JSON.stringify({ article: { videos: [{ ref: 'story-3' }] } });
  const cases: [string, Response, number][] = [
    ['tampered', await signed(body, { tamper: (b) => b.replace('story-3', 'story-1') }), 401],
    ['old timestamp', await signed(body, { ts: Math.floor(Date.now() / 1000) - 301 }), 401],
    ['future timestamp', await signed(body, { ts: Math.floor(Date.now() / 1000) + 301 }), 401],
    ['wrong secret', await signed(body, { secret: 'hksec_not-the-secret' }), 401],
    ['no signature', await fetch(hook.address, { method: 'POST', body, headers: { 'content-type': 'application/json' } }), 401],
    ['unknown hook', await fetch(`${s.url}/v1/hooks/${newId()}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }), 404],
  ];
  for (const [name, r, status] of cases) expect(r.status, name).toBe(status);
  expect(published(target)).toBe(0);
  const noDelivery = await fetch(hook.address, {
    method: 'POST', body,
    headers: {
      'content-type': 'application/json', 'x-vs-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-vs-signature': 'sha256=' + createHmac('sha256', hook.secret).update(`${Math.floor(Date.now() / 1000)}.${body}`).digest('hex'),
    },
  });
  expect(noDelivery.status).toBe(400);
  expect(published(target)).toBe(0);
  const ok = await signed(body);
  expect(ok.status).toBe(200);
  expect(published(target)).toBe(1);
  expect((await s.api('DELETE', `/v1/inbound-hooks/${hook.id}`)).status).toBe(204);
  expect((await signed(body)).status).toBe(404);
});
