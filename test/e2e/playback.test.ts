import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled, defaultTenant } from './transcode-helpers';
import { signToken } from '../../src/features/playback/token';
import { redactToken } from '../../src/features/playback/gate';
import { IdentityService } from '../../src/features/identity/service';

const dataDir = mkdtempSync(join(tmpdir(), 'vs-play-'));
let s: TestServer;
let assetA: string, assetB: string;
let pbA: Record<string, string>;

beforeAll(async () => {
  s = await startTestServer({ dataDir });
  const src = await makeClip(join(dataDir, 'src.mp4'), { seconds: 2 });
  assetA = registerAsset(s.ctx, src);
  assetB = registerAsset(s.ctx, src);
  for (const id of [assetA, assetB]) expect((await settled(s.ctx, id, 120_000))!.status).toBe("ready");
  pbA = (await (await s.api('GET', `/v1/assets/${assetA}`)).json() as { playback: Record<string, string> }).playback
    ?? (await import('../../src/features/assets/lifecycle')).playbackFor(s.ctx, s.ctx.db.query<{ id: string; tenant_id: string; status: string; output: string | null }, [string]>('SELECT * FROM assets WHERE id = ?').get(assetA)!)!;
}, 180_000);
afterAll(async () => { await s.stop(); rmSync(dataDir, { recursive: true, force: true }); });

const token = (body: unknown, key = s.key) => s.api('POST', '/v1/playback/tokens', body, { key });
/** Follows a master playlist to its first variant and first segment, all relative to the token URL. */
async function playThrough(src: string): Promise<number[]> {
  const codes: number[] = [];
  const master = await fetch(src);
  codes.push(master.status);
  if (master.status !== 200) return codes;
  const variant = new URL((await master.text()).split('\n').find((l) => l && !l.startsWith('#'))!, src);
  const v = await fetch(variant);
  codes.push(v.status);
  const text = await v.text();
  const init = /URI="([^"]+)"/.exec(text)?.[1];
  if (init) codes.push((await fetch(new URL(init, variant))).status);
  const seg = text.split('\n').find((l) => l && !l.startsWith('#'))!;
  codes.push((await fetch(new URL(seg, variant))).status);
  return codes;
}

describe('tokens', () => {
  test('a token for an asset plays master, variant, init and segment through /t/<token>/', async () => {
    const r = await token({ asset: assetA, ttl_s: 600, viewer_id: 'viewer-1' });
    expect(r.status).toBe(200);
    const a = await r.json() as { src: string; url: string; token: string; sid: string; expires_at: string; protected: boolean; thumbs: string };
    expect(a.url).toBe(a.src);
    expect(a.src).toStartWith(`${s.ctx.config.cdnBaseUrl}/t/${a.token}/m/`);
    expect(a.protected).toBe(false);
    expect(new Date(a.expires_at).getTime()).toBeGreaterThan(Date.now() + 590_000);
    expect(a.thumbs).toContain(`/t/${a.token}/`);
    expect(await playThrough(a.src)).toEqual(expect.arrayContaining([200]));
    expect((await playThrough(a.src)).every((c) => c === 200)).toBe(true);
    expect((await fetch(a.thumbs)).status).toBe(200);
  });

  test('a token never opens another asset or another tenant', async () => {
    const a = await (await token({ asset: assetA })).json() as { src: string; token: string };
    const other = a.src.replace(assetA, assetB);
    expect((await fetch(other)).status).toBe(403);
    const svc = new IdentityService(s.ctx.db, s.ctx.keys);
    const t2 = svc.createTenant({ name: 'Rival' });
    const k2 = svc.createKey(t2.id, { role: 'owner' }).key;
    expect((await token({ asset: assetA }, k2)).status).toBe(404);
    const keys = await (await s.api('GET', '/v1/playback/signing-keys', undefined, { key: k2 })).json() as { items: { id: string; secret: string }[] };
    // A validly signed token of the rival tenant, naming our asset, is still refused (tenant binding).
    const forged = signToken({ v: 1, kid: keys.items[0].id, t: t2.id, k: 'asset', i: assetA, e: Math.floor(Date.now() / 1000) + 60, s: 'x' }, Buffer.from(keys.items[0].secret, 'base64url'));
    expect((await fetch(a.src.replace(a.token, forged))).status).toBe(403);
  });

  test('tampered, truncated and expired tokens are refused; owners can sign their own', async () => {
    const a = await (await token({ asset: assetA })).json() as { src: string; token: string };
    const [v, payload, sig] = a.token.split('.');
    const flipped = `${v}.${payload}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const widened = `${v}.${Buffer.from(JSON.stringify({ ...claims, i: assetB })).toString('base64url')}.${sig}`;
    for (const bad of [flipped, widened, a.token.slice(0, 20), 'v1..', 'garbage']) {
      expect((await fetch(a.src.replace(a.token, bad))).status).toBe(403);
    }
    const keys = await (await s.api('GET', '/v1/playback/signing-keys')).json() as { items: { id: string; secret: string; active: boolean }[] };
    const active = keys.items.find((k) => k.active)!;
    const secret = Buffer.from(active.secret, 'base64url');
    const tenant = defaultTenant(s.ctx);
    const expired = signToken({ v: 1, kid: active.id, t: tenant, k: 'asset', i: assetA, e: Math.floor(Date.now() / 1000) - 5, s: 'own-1' }, secret);
    const res = await fetch(a.src.replace(a.token, expired));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toContain('expired');
    const mine = signToken({ v: 1, kid: active.id, t: tenant, k: 'asset', i: assetA, e: Math.floor(Date.now() / 1000) + 60, s: 'own-2' }, secret);
    expect((await fetch(a.src.replace(a.token, mine))).status).toBe(200);
  });

  test('bad token requests: ttl out of range, two targets, none, unknown fields, unknown asset', async () => {
    expect((await token({ asset: assetA, ttl_s: 604801 })).status).toBe(422);
    expect((await token({ asset: assetA, ttl_s: -1 })).status).toBe(422);
    const two = await token({ asset: assetA, channel: 'news' });
    expect(two.status).toBe(422);
    expect(((await two.json()) as { errors: { field: string }[] }).errors[0].field).toBe('channel,asset');
    expect((await token({ ttl_s: 5 })).status).toBe(422);
    expect((await token({ asset: assetA, colour: 1 })).status).toBe(400);
    expect((await token({ asset: '0194e0a1-0000-7000-8000-000000000000' })).status).toBe(404);
    expect((await token({ asset: assetA, viewer_ip: 'not-an-ip' })).status).toBe(422);
    const viewer = await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string };
    expect((await token({ asset: assetA }, viewer.key)).status).toBe(403);
  });

  test('a token bound to a viewer IP opens only from that address', async () => {
    const other = await (await token({ asset: assetA, viewer_ip: '203.0.113.9' })).json() as { src: string };
    expect((await fetch(other.src)).status).toBe(403);
    const mine = await (await token({ asset: assetA, viewer_ip: '127.0.0.1' })).json() as { src: string };
    expect((await fetch(mine.src)).status).toBe(200);
  });

  test('path traversal under a token never leaves the media tree; tokens are redacted from logs', async () => {
    const a = await (await token({ asset: assetA })).json() as { src: string; token: string };
    const base = a.src.slice(0, a.src.lastIndexOf('/'));
    for (const p of ['/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2f..%2f..%2fdb%2fmeta.sqlite', '/%252e%252e/x']) {
      const r = await fetch(base + p);
      expect([400, 403, 404]).toContain(r.status);
      expect(await r.text()).not.toContain('root:');
    }
    expect(redactToken(`/t/${a.token}/m/x`)).toBe('/t/<redacted>/m/x');
  });
});

describe('policies, sessions and revocation', () => {
  test('require_token: the unsigned path answers 403, the token path plays', async () => {
    expect((await fetch(pbA.hls)).status).toBe(200);
    const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'locked', require_token: true, default_ttl_s: 120 })).json() as { id: string };
    const att = await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: assetA });
    expect(att.status).toBe(200);
    expect((await fetch(pbA.hls)).status).toBe(403);
    const a = await (await token({ asset: assetA, ttl_s: 0 })).json() as { src: string; protected: boolean; expires_at: string };
    expect(a.protected).toBe(true);
    expect(new Date(a.expires_at).getTime() - Date.now()).toBeLessThan(125_000);
    expect((await playThrough(a.src)).every((c) => c === 200)).toBe(true);
    expect((await s.api('POST', `/v1/playback/policies/${pol.id}/detach`, { target_kind: 'asset', target_id: assetA })).status).toBe(200);
    expect((await fetch(pbA.hls)).status).toBe(200);
    expect((await s.api('POST', '/v1/playback/policies', { name: 'x', require_token: 'yes' })).status).toBe(422);
    expect((await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: '0194e0a1-0000-7000-8000-000000000000' })).status).toBe(404);
  });

  test('player sessions check the referrer policy', async () => {
    const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'sites', referrers: ['https://news.example.com', '*.example.org'] })).json() as { id: string };
    await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: assetB });
    const ses = (origin: string, extra: Record<string, string> = {}) => fetch(`${s.url}/v1/playback/session`, { method: 'POST', headers: { 'content-type': 'application/json', ...extra }, body: JSON.stringify({ tenant: 'default', asset: assetB, page_origin: origin }) });
    expect((await ses('https://evil.example.net')).status).toBe(403);
    expect((await ses('https://news.example.com', { origin: 'https://evil.example.net' })).status).toBe(403);
    const ok = await ses('https://www.example.org', { origin: 'https://www.example.org' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://www.example.org');
    const a = await ok.json() as { src: string };
    expect((await playThrough(a.src)).every((c) => c === 200)).toBe(true);
    const unknown = await fetch(`${s.url}/v1/playback/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'nope', asset: assetB, page_origin: 'https://x' }) });
    expect(unknown.status).toBe(404);
  });

  test('AES-128 VOD: encrypted HLS through a token decodes to the same frames; clear paths refused when required', async () => {
    const frames = async (url: string) => {
      // ffmpeg plays the HLS over HTTP like a player: it fetches the key (crypto protocol) and decrypts each segment.
      const p = Bun.spawn(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-protocol_whitelist', 'http,tcp,crypto,data', '-i', url, '-map', '0:v:0', '-f', 'framemd5', '-'], { stdout: 'pipe', stderr: 'pipe' });
      const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      if (code !== 0) throw new Error(err);
      return out.split('\n').filter((l) => l && !l.startsWith('#'));
    };
    const clear = await (await token({ asset: assetA })).json() as { src: string };
    const clearFrames = await frames(clear.src);
    expect(clearFrames.length).toBeGreaterThan(10);
    const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'aes', require_encryption: true })).json() as { id: string };
    await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: assetA });
    const enc = await (await token({ asset: assetA })).json() as { src: string; protected: boolean; token: string };
    expect(enc.src).toEndWith('/aes/master.m3u8');
    expect(enc.protected).toBe(true);
    const variant = new URL((await (await fetch(enc.src)).text()).split('\n').find((l) => l && !l.startsWith('#'))!, enc.src);
    const media = await (await fetch(variant)).text();
    expect(media).toMatch(/#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x[0-9a-f]{32}/);
    const key = await fetch(new URL('key.bin', variant));
    expect(key.status).toBe(200);
    expect((await key.arrayBuffer()).byteLength).toBe(16);
    expect(key.headers.get('cache-control')).toBe('private, no-store');
    expect(await frames(enc.src)).toEqual(clearFrames);
    // Clear HLS, DASH and the download are refused, with or without a token; images still load.
    expect((await fetch(clear.src)).status).toBe(403);
    expect((await fetch(pbA.hls)).status).toBe(403);
    expect((await fetch(pbA.dash)).status).toBe(403);
    expect((await fetch(pbA.download)).status).toBe(403);
    expect((await fetch(pbA.poster)).status).toBe(200);
    await s.api('POST', `/v1/playback/policies/${pol.id}/detach`, { target_kind: 'asset', target_id: assetA });
    expect((await fetch(pbA.hls)).status).toBe(200);
  });

  test('revocation bites on the next request, and survives a restart', async () => {
    const a = await (await token({ asset: assetA })).json() as { src: string; sid: string };
    expect((await fetch(a.src)).status).toBe(200);
    const r = await s.api('POST', '/v1/security/revocations', { sid: a.sid, reason: 'leak' });
    expect(r.status).toBe(201);
    expect((await fetch(a.src)).status).toBe(403);
    expect((await s.api('POST', '/v1/security/revocations', { sid: 'no-such-sid' })).status).toBe(404);
    await s.stop();
    s = await startTestServer({ dataDir, workers: false, ownerKey: s.key });
    const again = a.src.replace(/^http:\/\/[^/]+/, s.ctx.config.cdnBaseUrl);
    expect((await fetch(again)).status).toBe(403);
  });

  test('rotation: new tokens use the new key, old tokens verify until the old key is retired', async () => {
    const before = await (await token({ asset: assetA })).json() as { src: string };
    const rot = await (await s.api('POST', '/v1/playback/signing-keys/rotate')).json() as { id: string };
    const after = await (await token({ asset: assetA })).json() as { token: string; src: string };
    expect(JSON.parse(Buffer.from(after.token.split('.')[1], 'base64url').toString()).kid).toBe(rot.id);
    expect((await fetch(before.src)).status).toBe(200);
    const keys = await (await s.api('GET', '/v1/playback/signing-keys')).json() as { items: { id: string; active: boolean }[] };
    const old = keys.items.filter((k) => !k.active);
    for (const k of old) expect((await s.api('DELETE', `/v1/playback/signing-keys/${k.id}`)).status).toBe(204);
    expect((await fetch(before.src)).status).toBe(403);
    expect((await fetch(after.src)).status).toBe(200);
    expect((await s.api('DELETE', `/v1/playback/signing-keys/${rot.id}`)).status).toBe(409);
  });
});
