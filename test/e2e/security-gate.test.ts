/**
 * The delivery gate tried the way an attacker does: raw sockets with odd Host headers and request targets,
 * cross-tenant token forgery, tampered signatures, repeated query parameters, encoded traversal in every path
 * parameter of every delivery route (fast-check over the delivery table). Tenant B's content is protected by a
 * tenant-level `require_token` policy; tenant A's is open.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { Elysia } from 'elysia';
import { createGate } from '../../src/features/playback/gate';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { rawRequest } from '../helpers/raw-http';
import { makeClip, registerAsset, settled } from './transcode-helpers';
import { signToken, type Claims } from '../../src/features/playback/token';
import { IdentityService } from '../../src/features/identity/service';
import { DELIVERY, deliveryPath, type DeliveryName } from '../../src/features/playback/delivery-table';

const root = mkdtempSync(join(tmpdir(), 'vs-sec-'));
const dataDir = join(root, 'data');
const CANARY = 'CANARY-outside-the-media-root-7f3a';
let s: TestServer;
let port: number;
let tenantB: { id: string; slug: string }, keyB: string, tenantA: string;
let assetA: string, assetB: string;
let vodB: string, vodA: string;

beforeAll(async () => {
  mkdirSync(dataDir, { recursive: true });
  // Canaries: files no delivery path may ever reach (beside the data dir, and inside it but outside media roots).
  writeFileSync(join(root, 'secret.txt'), CANARY);
  mkdirSync(join(root, 'init'), { recursive: true });
  writeFileSync(join(root, 'init', '123.mp4'), CANARY);
  s = await startTestServer({ dataDir });
  port = Number(new URL(s.url).port);
  mkdirSync(join(dataDir, 'rec'), { recursive: true });
  writeFileSync(join(dataDir, 'rec', 'secret.txt'), CANARY);
  mkdirSync(join(dataDir, 'init'), { recursive: true });
  writeFileSync(join(dataDir, 'init', '123.mp4'), CANARY);
  const idn = new IdentityService(s.ctx.db, s.ctx.keys);
  tenantB = idn.createTenant({ name: 'Tenant B', slug: 't2' });
  keyB = idn.createKey(tenantB.id, { role: 'owner' }).key;
  tenantA = idn.tenant('default').id;
  const src = await makeClip(join(root, 'src.mp4'), { seconds: 2 });
  assetA = registerAsset(s.ctx, src);
  assetB = registerAsset(s.ctx, src, { tenantId: tenantB.id });
  for (const id of [assetA, assetB]) expect((await settled(s.ctx, id, 120_000)).status).toBe('ready');
  // A real (stopped) channel in each tenant: the traversal reproduction needs the channel lookup to succeed.
  expect((await s.api('POST', '/v1/channels', { name: 'News', slug: 'news' })).status).toBe(201);
  expect((await s.api('POST', '/v1/channels', { name: 'News', slug: 'news' }, { key: keyB })).status).toBe(201);
  const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'locked', require_token: true }, { key: keyB })).json() as { id: string };
  expect((await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'tenant' }, { key: keyB })).status).toBe(200);
  const v = (await (await s.api('GET', `/v1/assets/${assetB}`, undefined, { key: keyB })).json() as { playback: { download: string } }).playback;
  vodB = new URL(v.download).pathname;
  vodA = new URL((await (await s.api('GET', `/v1/assets/${assetA}`)).json() as { playback: { download: string } }).playback.download).pathname;
}, 180_000);
afterAll(async () => { await s.stop(); rmSync(root, { recursive: true, force: true }); });

/** Protected paths of tenant B, one per delivery route kind (content exists for VOD; the rest must stop at the gate). */
function protectedPaths(): string[] {
  const uuid = '01900000-0000-7000-8000-000000000000';
  return [
    vodB,
    vodB.replace('download.mp4', 'master.m3u8'),
    `/live/${tenantB.slug}/news/master.m3u8`,
    `/live/${tenantB.slug}/news/archive-1700000000-60.m3u8`,
    `/live/${tenantB.slug}/news/src/init/1700000000000.mp4`,
    `/m/catchup/news/1700000000000/1700000060000/master.m3u8?c=${tenantB.slug}`,
    `/m/startover/news/${uuid}/master.m3u8?c=${tenantB.slug}`,
    `/m/clips/${uuid}/master.m3u8?c=${tenantB.slug}`,
  ];
}

describe('one gate that cannot disagree with the router', () => {
  test('the normal path of protected content answers 403; the owner of open content plays', async () => {
    expect((await fetch(s.url + vodB)).status).toBe(403);
    expect((await fetch(s.url + vodA)).status).toBe(200);
  });

  test('raw sockets: Host headers of every length 0-12, absolute-form targets, // and /./ prefixes never serve protected bytes', async () => {
    const hosts = ['', ...Array.from({ length: 12 }, (_, i) => 'abcdefghijkl'.slice(0, i + 1)), 'a:1', '[::1]', 'x y', 'a/b', '127.0.0.1:1'];
    const statuses = new Map<number, number>();
    for (const p of protectedPaths()) {
      const targets = [p, `/zz${p}`, `//${p.slice(1)}`, `/.${p}`, `/./${p.slice(1)}`, `http://a${p}`, `http://abc/${p.slice(1)}`, `http://${'x'.repeat(40)}${p}`];
      for (const target of targets) {
        for (const h of hosts) {
          const r = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: ${h}`);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          expect(r.status === 200 || r.status === 206, `${target} Host=${JSON.stringify(h)} → ${r.status}`).toBe(false);
          expect(r.body.includes(CANARY)).toBe(false);
        }
        const noHost = await rawRequest(port, `GET ${target} HTTP/1.1`);
        expect(noHost.status === 200 || noHost.status === 206).toBe(false);
      }
    }
    // The answers are refusals of the gate (403) or of the target check (400/404), never content.
    for (const code of statuses.keys()) expect([400, 403, 404]).toContain(code);
    // The same short Host on open content still plays: canonicalisation changes no legitimate answer.
    expect((await rawRequest(port, `GET ${vodA} HTTP/1.1\r\nHost: a`)).status).toBe(200);
  });

  test('management answers keep Cache-Control: no-store with any Host', async () => {
    for (const h of ['a', 'ab', 'abc', 'localhost']) {
      const r = await rawRequest(port, `GET /v1/me HTTP/1.1\r\nHost: ${h}\r\nAuthorization: Bearer ${s.key}`);
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('no-store');
    }
  });

  test('an app serving a delivery path the table does not declare refuses to start', () => {
    const gate = createGate(s.ctx);
    const ok = gate.route(new Elysia(), 'liveMaster', () => new Response('x'));
    expect(() => gate.assertCovered(ok)).not.toThrow();
    const rogue = new Elysia().get('/m/:tenant/rogue/:file', () => 'leak');
    expect(() => gate.assertCovered(rogue)).toThrow(/not declared in the delivery table/);
  });
});

describe('tokens are bound to their tenant and spelled canonically', () => {
  const claimsFor = (over: Partial<Claims>): Claims => ({ v: 1, kid: '', t: tenantB.id, k: 'asset', i: assetB, e: Math.floor(Date.now() / 1000) + 600, s: 'sid-x', ...over });
  const keysOf = async (key: string) => (await (await s.api('GET', '/v1/playback/signing-keys', undefined, { key })).json() as { items: { kid?: string; id?: string; secret: string; active?: boolean }[] }).items;

  test("tenant A's own signing key cannot sign for tenant B's content", async () => {
    const [ka] = await keysOf(s.key);
    const kid = ka.kid ?? ka.id!;
    const tok = signToken(claimsFor({ kid }), Buffer.from(ka.secret, 'base64url'));
    for (const f of ['download.mp4', 'master.m3u8']) {
      const r = await fetch(`${s.url}/t/${tok}${vodB.replace('download.mp4', f)}`);
      expect(r.status).toBe(403);
    }
    // The same key signing for its own tenant's content works (the forgery fails on the tenant, not the format).
    const own = signToken(claimsFor({ kid, t: tenantA, i: assetA }), Buffer.from(ka.secret, 'base64url'));
    expect((await fetch(`${s.url}/t/${own}${vodA}`)).status).toBe(200);
  });

  test('every single-character change of a signature, and trailing junk, is refused', async () => {
    const r = await (await s.api('POST', '/v1/playback/tokens', { asset: assetB, ttl_s: 600 }, { key: keyB })).json() as { token: string };
    const good = r.token;
    expect((await fetch(`${s.url}/t/${good}${vodB}`)).status).toBe(200);
    const [v, payload, sig] = good.split('.');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const variants: string[] = [];
    for (let i = 0; i < sig.length; i++) {
      for (const ch of [alphabet[(alphabet.indexOf(sig[i]) + 1) % 64], alphabet[(alphabet.indexOf(sig[i]) + 63) % 64]]) {
        variants.push(`${v}.${payload}.${sig.slice(0, i)}${ch}${sig.slice(i + 1)}`);
      }
    }
    variants.push(`${good}=`, `${good}==`, `${good}!!`, `${good}A`, `${v}.${payload}.${sig.slice(0, -1)}`, `${v}.${payload}=.${sig}`, `${v}.${payload}.${sig}.x`);
    const codes = await Promise.all(variants.map(async (t) => (await fetch(`${s.url}/t/${encodeURIComponent(t).replace(/%2E/gi, '.')}${vodB}`)).status));
    codes.forEach((c, i) => expect(c === 200, `variant ${i}: ${variants[i].slice(-6)} → ${c}`).toBe(false));
  });
});

describe('query parameters on delivery paths are exact', () => {
  const base = `/m/catchup/news/1700000000000/1700000060000/master.m3u8`;
  test('a repeated c is 400, an unknown tenant 404, the policy is never skipped', async () => {
    expect((await fetch(`${s.url}${base}?c=t2`)).status).toBe(403);
    expect((await fetch(`${s.url}${base}?c=default&c=t2`)).status).toBe(400);
    expect((await fetch(`${s.url}${base}?c=nope&c=t2`)).status).toBe(400);
    expect((await fetch(`${s.url}${base}?c=t2&c=t2`)).status).toBe(400);
    expect((await fetch(`${s.url}${base}?c=nope`)).status).toBe(404);
    expect((await fetch(`${s.url}${base}`)).status).toBe(400);
    expect((await fetch(`${s.url}${base}?c=t2&x=1`)).status).toBe(400);
    expect((await fetch(`${s.url}${vodB}?c=default`)).status).toBe(400);
  });

  test('property: any duplicated/ordered query on a protected route is never served', async () => {
    const routes = protectedPaths().map((p) => p.split('?')[0]);
    const value = fc.constantFrom('t2', 'default', tenantB.id, tenantA, 'nope', '', 'T2', 't2%00', '%74%32');
    const pair = fc.tuple(fc.constantFrom('c', 'C', 'c[]', '_HLS_msn', 'x', 'c%00'), value);
    await fc.assert(fc.asyncProperty(fc.constantFrom(...routes), fc.array(pair, { maxLength: 4 }), async (route, pairs) => {
      const q = pairs.map(([k, v]) => `${k}=${v}`).join('&');
      const r = await fetch(`${s.url}${route}${q ? `?${q}` : ''}`);
      const body = Buffer.from(await r.arrayBuffer());
      return r.status !== 200 && r.status !== 206 && !body.includes(CANARY);
    }), { numRuns: 150 });
  });
});

describe('every path parameter is validated and every file is contained', () => {
  const hostile = ['..', '.', '%2e%2e', '%2E%2e', '%2e%2E%2f', '..%2f..%2f..%2f..%2fsecret.txt', '%252e%252e', '%5c..%5c', '%00', 'a%00b',
    '%c0%ae%c0%ae', '%e0%80%ae', '..%5c..', '....//', '%2f', 'secret.txt', '123', 't2', 'default', tenantBPlaceholder(), '%2e%2e%2f%2e%2e%2f%2e%2e%2f123'];
  function tenantBPlaceholder() { return 'TENANT_B'; }

  test('live init traversal through the rendition is refused (the reproduction)', async () => {
    for (const t of [tenantA, 'default']) {
      for (const rend of ['..%2F..%2F..%2F..%2F..', '..%2F..%2F..%2F..', '..%2f..%2f..', '%2e%2E%2f%2E%2e%2f%2e%2e', '%2e%2e']) {
        const r = await fetch(`${s.url}/live/${t}/news/${rend}/init/123.mp4`);
        expect([400, 404]).toContain(r.status);
        expect(Buffer.from(await r.arrayBuffer()).includes(CANARY)).toBe(false);
      }
    }
  });

  test('property: hostile values in every parameter of every delivery route never leave the root nor open B', async () => {
    const names = Object.keys(DELIVERY) as DeliveryName[];
    const seg = fc.oneof(fc.constantFrom(...hostile), fc.stringMatching(/^[A-Za-z0-9%._-]{1,12}$/));
    await fc.assert(fc.asyncProperty(fc.constantFrom(...names), fc.dictionary(fc.constantFrom('tenant', 'asset', 'ver', 'file', 'channel', 'rendition', 'slug', 's', 'e', 'r', 'pid', 'id'), seg), fc.boolean(), async (name, over, forB) => {
      const def = DELIVERY[name];
      const keys = [...def.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
      const legit: Record<string, string> = { tenant: forB ? tenantB.id : tenantA, asset: forB ? assetB : assetA, ver: 'v1', file: 'download.mp4', channel: 'news', rendition: 'src', slug: 'news', s: '1700000000000', e: '1700000060000', r: 'src', pid: assetA, id: assetA };
      let path = def.path;
      for (const k of keys) {
        const v = (over[k] ?? legit[k]).replace('TENANT_B', tenantB.id);
        path = path.replace(`:${k}`, over[k] !== undefined ? v : encodeURIComponent(v));
      }
      if (def.tenantIn === 'query') path += `?c=${forB ? 't2' : 'default'}`;
      const r = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: localhost`);
      if (r.body.includes(CANARY)) return false;
      if (forB && (r.status === 200 || r.status === 206)) return false;
      return r.status < 500;
    }), { numRuns: 400 });
  });

  test('the URL builders write exactly the routes the gate guards', () => {
    expect(deliveryPath('catchupMaster', { slug: 'news', s: 1, e: 'live' }, 't2')).toBe('/m/catchup/news/1/live/master.m3u8?c=t2');
    expect(deliveryPath('vodFile', { tenant: tenantA, asset: assetA, ver: 'v1', file: 'master.m3u8' })).toBe(`/m/${tenantA}/assets/${assetA}/v1/master.m3u8`);
    expect(vodA).toBe(deliveryPath('vodFile', { tenant: tenantA, asset: assetA, ver: 'v1', file: 'download.mp4' }));
  });
});
