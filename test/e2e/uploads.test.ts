import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { identityService } from '../../src/features/identity/service';
import { bytes, makeMp4, md5, rawRequest, sha256 } from './uploads-helpers';

/** Response JSON, loosely typed for assertions. */
const j = (r: Response): Promise<any> => r.json();
let s: TestServer;
let mp4: Uint8Array;
let tenantId = '';
// The data dir sits three levels down in a private folder, so an escape by `..` would show up in that folder.
const sandbox = mkdtempSync(join(tmpdir(), 'vs-uploads-'));
const dataDir = join(sandbox, 'a', 'b', 'data');

beforeAll(async () => {
  mkdirSync(dataDir, { recursive: true });
  s = await startTestServer({ workers: false, dataDir });
  mp4 = await makeMp4(s.dataDir);
  tenantId = (await j(await s.api('GET', '/v1/me'))).current_tenant.id;
});
afterAll(async () => { await s.stop(); rmSync(sandbox, { recursive: true, force: true }); });

const start = async (extra: Record<string, unknown> = {}, size = mp4.length) => {
  const r = await s.api('POST', '/v1/uploads', { filename: 'clip.mp4', size_bytes: size, content_type: 'video/mp4', ...extra });
  expect(r.status).toBe(201);
  return j(r) as Promise<{ upload_id: string; key: string; part_size: number; parts: { part_number: number; url: string }[]; expires_at: string; upload_token?: string; first_part_url?: string }>;
};
const put = (url: string, body: Uint8Array, key: string | null = s.key, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'PUT', headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/octet-stream', ...headers }, body: body as BodyInit });
const jobsFor = (assetId: string) => s.ctx.db.query<{ type: string; status: string }, [string]>(`SELECT type, status FROM jobs WHERE subject_id = ?`).all(assetId);

/** Every file under a directory, relative. */
function tree(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => { const p = join(dir, n); return statSync(p).isDirectory() ? tree(p, base) : [p.slice(base.length + 1)]; });
}

describe('API-key part flow', () => {
  test('an 8-second MP4 goes in; the asset is probing with a queued asset.process job; bytes match', async () => {
    const up = await start();
    expect(up.part_size).toBe(67108864);
    expect(up.parts).toHaveLength(1);
    expect(Date.parse(up.expires_at) - Date.now()).toBeGreaterThan(59 * 60_000);
    const r = await put(up.parts[0].url, mp4);
    expect(r.status).toBe(200);
    const part = await j(r);
    expect(part).toEqual({ part_number: 1, etag: md5(mp4) });
    const c = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [part], title: 'Eight seconds', external_id: 'up:8s' });
    expect(c.status).toBe(201);
    const a = await j(c);
    expect(a.status).toBe('probing');
    expect(a.external_id).toBe('up:8s');
    expect(jobsFor(a.id)).toEqual([{ type: 'asset.process', status: 'queued' }]);
    const row = s.ctx.db.query<{ source_path: string }, [string]>('SELECT source_path FROM assets WHERE id = ?').get(a.id)!;
    expect(row.source_path).toBe(`media/${tenantId}/assets/${a.id}/source.mp4`);
    expect(await sha256(join(s.dataDir, row.source_path))).toBe(await sha256(mp4));
    expect(existsSync(join(s.dataDir, 'media', tenantId, 'uploads', up.upload_id))).toBe(false);
    // Complete twice: the same asset, nothing duplicated.
    const again = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [part], title: 'Eight seconds', external_id: 'up:8s' });
    expect(again.status).toBe(201);
    expect((await j(again)).id).toBe(a.id);
    expect(jobsFor(a.id)).toHaveLength(1);
    expect(s.ctx.db.query('SELECT COUNT(*) AS n FROM assets WHERE external_id = ?').get('up:8s')).toEqual({ n: 1 });
    // A part after completion is refused.
    expect((await put(up.parts[0].url, mp4)).status).toBe(409);
  });

  test('a part over part_size is refused from its Content-Length, before the body is read', async () => {
    const up = await start({}, 67108864 * 2);
    const u = new URL(up.parts[0].url);
    const head = `PUT ${u.pathname}${u.search} HTTP/1.1\nHost: ${u.host}\nAuthorization: Bearer ${s.key}\nContent-Type: application/octet-stream\nContent-Length: ${67108864 + 1}`;
    const t0 = Date.now();
    const res = await rawRequest(s.url, head, null);
    expect(res).toMatch(/^HTTP\/1\.1 413/);
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(s.ctx.db.query('SELECT COUNT(*) AS n FROM upload_parts WHERE upload_id = ?').get(up.upload_id)).toEqual({ n: 0 });
  });

  test('wrong sizes, a missing Content-Length and bad part numbers are refused', async () => {
    const up = await start();
    expect((await put(up.parts[0].url, mp4.subarray(0, 10))).status).toBe(422);
    expect((await put(up.parts[0].url.replace('/parts/1?', '/parts/2?'), mp4)).status).toBe(422);
    expect((await put(up.parts[0].url.replace('/parts/1?', '/parts/0?'), mp4)).status).toBe(422);
    const u = new URL(up.parts[0].url);
    const chunked = await rawRequest(s.url, `PUT ${u.pathname}${u.search} HTTP/1.1\nHost: ${u.host}\nAuthorization: Bearer ${s.key}\nTransfer-Encoding: chunked`, new TextEncoder().encode('3\r\nabc\r\n0\r\n\r\n'));
    expect(chunked).toMatch(/^HTTP\/1\.1 411/);
  });

  test('a part sent as application/json is stored raw, never parsed by the JSON body hook', async () => {
    const body = new TextEncoder().encode('{"not": "parsed"');
    const up = await start({ filename: 'data.json', content_type: 'application/json' }, body.length);
    const r = await put(up.parts[0].url, body, s.key, { 'content-type': 'application/json' });
    expect(r.status).toBe(200);
    expect((await j(r)).etag).toBe(md5(body));
  });

  test('3 parts in parallel, in reverse order, each answers its MD5 and the file assembles byte-exact', async () => {
    const size = 2 * 67_108_864 + 12345;
    const src = bytes(size, 7);
    const up = await start({ filename: 'par.bin', content_type: 'application/octet-stream' }, size);
    const ps = up.part_size;
    const order = [...up.parts].reverse();
    const parts = await Promise.all(order.map(async (p) => {
      const chunk = src.subarray((p.part_number - 1) * ps, p.part_number * ps);
      const r = await put(p.url, chunk);
      expect(r.status).toBe(200);
      const a = await j(r);
      expect(a.etag).toBe(md5(chunk));
      return a as { part_number: number; etag: string };
    }));
    const c = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts });
    expect(c.status).toBe(201);
    const asset = await j(c);
    const row = s.ctx.db.query<{ source_path: string }, [string]>('SELECT source_path FROM assets WHERE id = ?').get(asset.id);
    expect(await sha256(join(s.dataDir, row!.source_path))).toBe(await sha256(src));
  });

  test('a body cut short answers 409 and the part can be sent again', async () => {
    const up = await start();
    const u = new URL(up.parts[0].url);
    const res = await rawRequest(s.url, `PUT ${u.pathname}${u.search} HTTP/1.1\nHost: ${u.host}\nAuthorization: Bearer ${s.key}\nContent-Length: ${mp4.length}`, mp4.subarray(0, 1000), 400);
    // The client hung up mid-body: the server must not have recorded the part.
    expect(res === '' || /^HTTP\/1\.1 409/.test(res)).toBe(true);
    await Bun.sleep(0);
    const stored = s.ctx.db.query('SELECT COUNT(*) AS n FROM upload_parts WHERE upload_id = ?').get(up.upload_id) as { n: number };
    expect(stored.n).toBe(0);
    const ok = await put(up.parts[0].url, mp4);
    expect(ok.status).toBe(200);
  });

  test('complete refuses a wrong etag, a missing part and an unknown part number', async () => {
    const up = await start();
    const c0 = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [{ part_number: 1, etag: md5(mp4) }] });
    expect(c0.status).toBe(409); // not uploaded yet
    const part = await j(await put(up.parts[0].url, mp4));
    const bad = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [{ part_number: 1, etag: 'ffffffffffffffffffffffffffffffff' }] });
    expect(bad.status).toBe(409);
    expect((await j(bad)).detail).toContain('etag');
    const extra = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [part, { part_number: 2, etag: part.etag }] });
    expect(extra.status).toBe(422);
    const wrongKey = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: 'uploads/other/clip.mp4', parts: [part] });
    expect(wrongKey.status).toBe(404);
    const good = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [{ ...part, etag: `"${part.etag.toUpperCase()}"` }] });
    expect(good.status).toBe(201);
  });

  test('path traversal in upload_id and key never reads or writes outside the data dir', async () => {
    const up = await start();
    const outside = () => tree(sandbox).filter((f) => !f.startsWith('a/b/data/'));
    const base = `${s.url}/v1/uploads`;
    const ids = ['..', '..%2F..%2Ftmp', '%2e%2e%2f%2e%2e%2fetc', `${up.upload_id}%00`, '%2Ftmp%2Fx', `..%5C..%5Cx`];
    for (const id of ids) {
      const r = await put(`${base}/${id}/parts/1?key=${encodeURIComponent(up.key)}`, mp4);
      expect([400, 404, 422]).toContain(r.status);
      const c = await s.api('POST', `/v1/uploads/${id}/complete`, { key: up.key, parts: [{ part_number: 1, etag: md5(mp4) }] });
      expect([400, 404, 422]).toContain(c.status);
    }
    const keys = ['../../../../tmp/evil', `uploads/${up.upload_id}/../../x`, '/etc/passwd', `${up.key}\u0000`, '%2e%2e%2f%2e%2e%2fx', `${up.key}/..`];
    for (const k of keys) {
      const r = await put(`${base}/${up.upload_id}/parts/1?key=${encodeURIComponent(k)}`, mp4);
      expect(r.status).toBe(404);
    }
    expect(outside()).toEqual([]);
    for (const p of ['/tmp/evil', '/tmp/x', join(sandbox, 'x'), join(sandbox, 'a', 'x')]) expect(existsSync(p)).toBe(false);
    expect(s.ctx.db.query('SELECT COUNT(*) AS n FROM upload_parts WHERE upload_id = ?').get(up.upload_id)).toEqual({ n: 0 });
  });

  test("another tenant's upload answers 404 to parts and complete", async () => {
    const id = identityService(s.ctx);
    const other = id.createTenant({ name: 'Other' });
    const k = id.createKey(other.id, { role: 'owner' }).key;
    const up = await start();
    expect((await put(up.parts[0].url, mp4, k)).status).toBe(404);
    const c = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [{ part_number: 1, etag: md5(mp4) }] }, { key: k });
    expect(c.status).toBe(404);
    expect(s.ctx.db.query('SELECT COUNT(*) AS n FROM upload_parts WHERE upload_id = ?').get(up.upload_id)).toEqual({ n: 0 });
  });

  test('scopes: uploads alone may upload; viewer may not; publish:auto needs assets:publish', async () => {
    const id = identityService(s.ctx);
    const viewer = id.createKey(tenantId, { role: 'viewer' }).key;
    const uploader = id.createKey(tenantId, { scopes: ['uploads'] }).key;
    expect((await s.api('POST', '/v1/uploads', { filename: 'a.mp4', size_bytes: 10 }, { key: viewer })).status).toBe(403);
    const r = await s.api('POST', '/v1/uploads', { filename: 'a.mp4', size_bytes: mp4.length }, { key: uploader });
    expect(r.status).toBe(201);
    const up = await j(r);
    const part = await j(await put(up.parts[0].url, mp4, uploader));
    const c = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [part], publish: 'auto' }, { key: uploader });
    expect(c.status).toBe(403);
    const m = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [part], publish: 'manual' }, { key: uploader });
    expect(m.status).toBe(201);
    expect((await j(m)).publish).toBe('manual');
  });

  test('start validates size and fields', async () => {
    expect((await s.api('POST', '/v1/uploads', { filename: 'a.mp4', size_bytes: 200_000_000_001 })).status).toBe(422);
    expect((await s.api('POST', '/v1/uploads', { filename: 'a.mp4', size_bytes: 0 })).status).toBe(422);
    expect((await s.api('POST', '/v1/uploads', { filename: 'a.mp4', size_bytes: 5, nope: 1 })).status).toBe(400);
    expect((await s.api('POST', '/v1/uploads', { filename: 'a.mp4', size_bytes: 5, browser_origin: 'https://a.example/path' })).status).toBe(422);
    const big = await start({}, 200_000_000_000);
    expect(big.parts).toHaveLength(Math.ceil(200_000_000_000 / 67108864));
  });
});

describe('browser-token flow', () => {
  const origin = 'https://site.example';

  test('an 8-second MP4 goes in with the token and no Authorization; CORS only for the origin', async () => {
    const up = await start({ browser_origin: origin });
    expect(up.upload_token).toBeString();
    expect(up.first_part_url).toContain('/v1/upload-parts/1?t=');
    const pre = await fetch(up.first_part_url!, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
    const evilPre = await fetch(up.first_part_url!, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' } });
    expect(evilPre.status).toBe(403);
    expect(evilPre.headers.get('access-control-allow-origin')).toBeNull();
    const evil = await put(up.first_part_url!, mp4, null, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    const r = await put(up.first_part_url!, mp4, null, { origin });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(origin);
    const part = await j(r);
    expect(part.etag).toBe(md5(mp4));
    // A size error also carries CORS so the page can read it.
    const short = await put(up.first_part_url!, mp4.subarray(0, 5), null, { origin });
    expect(short.status).toBe(422);
    expect(short.headers.get('access-control-allow-origin')).toBe(origin);
    // The token is not an API key.
    expect((await s.api('GET', '/v1/assets', undefined, { key: up.upload_token! })).status).toBe(401);
    const c = await s.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [part] });
    expect(c.status).toBe(201);
    const a = await j(c);
    expect(a.status).toBe('probing');
    expect(jobsFor(a.id)).toEqual([{ type: 'asset.process', status: 'queued' }]);
  });

  test('a bad token, or the token after its key is revoked, answers 401', async () => {
    const id = identityService(s.ctx);
    const k = id.createKey(tenantId, { role: 'editor' });
    const r = await s.api('POST', '/v1/uploads', { filename: 'b.mp4', size_bytes: mp4.length, browser_origin: origin }, { key: k.key });
    const up = await j(r);
    expect((await put(up.first_part_url.replace(/t=[^&]+/, 't=vsu_wrong'), mp4, null, { origin })).status).toBe(401);
    id.revokeKey(tenantId, k.id);
    expect((await put(up.first_part_url, mp4, null, { origin })).status).toBe(401);
  });
});

describe('expiry', () => {
  test('an upload not completed within the hour answers 410 and its parts are removed', async () => {
    const { ManualClock } = await import('../../src/kernel/clock');
    const { UploadService } = await import('../../src/features/uploads/service');
    const clock = new ManualClock(Date.now());
    const t = await startTestServer({ workers: false, clock });
    try {
      const r = await t.api('POST', '/v1/uploads', { filename: 'c.mp4', size_bytes: mp4.length });
      const up = await j(r);
      const part = await j(await fetch(up.parts[0].url, { method: 'PUT', headers: { authorization: `Bearer ${t.key}` }, body: mp4 as BodyInit }));
      const tid = (await j(await t.api('GET', '/v1/me'))).current_tenant.id;
      const dir = join(t.dataDir, 'media', tid, 'uploads', up.upload_id);
      expect(existsSync(join(dir, 'data'))).toBe(true);
      clock.advance(60 * 60_000 + 1);
      expect((await fetch(up.parts[0].url, { method: 'PUT', headers: { authorization: `Bearer ${t.key}` }, body: mp4 as BodyInit })).status).toBe(410);
      expect((await t.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [part] })).status).toBe(410);
      expect(new UploadService(t.ctx).sweep()).toBe(1);
      expect(existsSync(dir)).toBe(false);
      expect((await t.api('POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: [part] })).status).toBe(410);
      expect(t.ctx.db.query('SELECT COUNT(*) AS n FROM assets').get()).toEqual({ n: 0 });
    } finally { await t.stop(); }
  });
});
