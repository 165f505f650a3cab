import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { identityService } from '../../src/features/identity/service';
import { defaultTenant, makeClip, registerAsset, settled } from './transcode-helpers';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let s: TestServer;
let assetId: string;
const clipDir = mkdtempSync(join(tmpdir(), 'vs-pc-'));
beforeAll(async () => {
  s = await startTestServer();
  const clip = await makeClip(join(clipDir, 'a.mp4'), { seconds: 2 });
  assetId = registerAsset(s.ctx, clip);
}, 60_000);
afterAll(async () => { await s?.stop(); rmSync(clipDir, { recursive: true, force: true }); }, 60_000);

describe('player configurations', () => {
  test('create, read, patch, list, delete; 422 with errors[]; 400 on unknown field; 409 on a repeated name', async () => {
    let r = await s.api('POST', '/v1/player-configs', { name: 'news', skin: 'neon', language: 'he', beacon: { heartbeat_s: 30 }, embed: { allowed_domains: ['example.com', '*.news.co.il'] } });
    expect(r.status).toBe(201);
    const c = await r.json() as { id: string; skin: string; beacon: { heartbeat_s: number } };
    expect(c.skin).toBe('neon');
    expect(c.beacon.heartbeat_s).toBe(30);
    r = await s.api('POST', '/v1/player-configs', { name: 'news' });
    expect(r.status).toBe(409);
    r = await s.api('POST', '/v1/player-configs', { name: 'bad', beacon: { heartbeat_s: 3 }, skin: 'nope', version_pin: '9.9.9', embed: { allowed_domains: ['Bad Domain'] } });
    expect(r.status).toBe(422);
    const fields = ((await r.json()) as { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(fields).toContain('beacon.heartbeat_s');
    r = await s.api('POST', '/v1/player-configs', { name: 'bad', skin: 'nope', version_pin: '9.9.9', embed: { allowed_domains: ['Bad Domain'] } });
    expect(r.status).toBe(422);
    const f2 = ((await r.json()) as { errors: { field: string }[] }).errors.map((e) => e.field);
    expect(f2).toEqual(['skin', 'version_pin', 'embed.allowed_domains.0']);
    r = await s.api('POST', '/v1/player-configs', { name: 'bad', beacon: { heartbeat_s: '15' } });
    expect(r.status).toBe(422);
    r = await s.api('POST', '/v1/player-configs', { name: 'bad', colour: 'red' });
    expect(r.status).toBe(400);
    r = await s.api('PATCH', `/v1/player-configs/${c.id}`, { skin: 'ocean-pill' });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { skin: string; language: string })).toMatchObject({ skin: 'ocean-pill', language: 'he' });
    r = await s.api('GET', '/v1/player-configs');
    expect(((await r.json()) as { items: unknown[] }).items.length).toBe(1);
    r = await s.api('GET', '/v1/player-configs/skins');
    const skins = ((await r.json()) as { items: string[] }).items;
    expect(skins.length).toBe(107);
    r = await s.api('DELETE', `/v1/player-configs/${c.id}`);
    expect(r.status).toBe(204);
    r = await s.api('GET', `/v1/player-configs/${c.id}`);
    expect(r.status).toBe(404);
  });

  test('scopes: read with assets:read, write needs delivery:write; CDN-only tenants 403 feature_disabled', async () => {
    const viewer = identityService(s.ctx).createKey(defaultTenant(s.ctx), { role: 'viewer' }).key;
    expect((await s.api('GET', '/v1/player-configs', undefined, { key: viewer })).status).toBe(200);
    const r = await s.api('POST', '/v1/player-configs', { name: 'x' }, { key: viewer });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { detail: string }).detail).toContain('delivery:write');
    const cdn = identityService(s.ctx).createTenant({ name: 'Cdn', slug: 'cdnonly', cdnOnly: true });
    const k = identityService(s.ctx).createKey(cdn.id, { role: 'owner' }).key;
    const r2 = await s.api('GET', '/v1/player-configs', undefined, { key: k });
    expect(r2.status).toBe(403);
    expect(((await r2.json()) as { type: string }).type).toEndWith('/feature_disabled');
    expect((await fetch(`${s.url}/player/config/cdnonly.json`)).status).toBe(404);
  });

  test('public documents: tenant default, named, resolve chain with resolved_from; CORS *, 60 s, ETag/304', async () => {
    let r = await fetch(`${s.url}/player/config/default.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('cache-control')).toBe('public, max-age=60');
    const etag = r.headers.get('etag')!;
    const d = await r.json() as { config: { skin: string; beacon: { heartbeat_s: number } }; player: { version: string } };
    expect(d.config.skin).toBe('classic');
    expect(d.config.beacon.heartbeat_s).toBe(15);
    expect(d.player.version).toBe('1.3.0');
    r = await fetch(`${s.url}/player/config/default.json`, { headers: { 'if-none-match': etag } });
    expect(r.status).toBe(304);
    expect((await fetch(`${s.url}/player/config/nosuch.json`)).status).toBe(404);
    expect((await fetch(`${s.url}/player/config/default/nosuch.json`)).status).toBe(404);

    const mk = async (name: string, skin: string) => ((await (await s.api('POST', '/v1/player-configs', { name, skin })).json()) as { id: string }).id;
    const tenantCfg = await mk('tenant-cfg', 'retro');
    const libCfg = await mk('lib-cfg', 'glass');
    const secCfg = await mk('sec-cfg', 'cinema');
    const assetCfg = await mk('asset-cfg', 'emoji');
    r = await fetch(`${s.url}/player/config/default/sec-cfg.json`);
    expect(((await r.json()) as { config: { skin: string } }).config.skin).toBe('cinema');
    const assign = async (config_id: string, target_kind: string, target_id?: string) => {
      const a = await s.api('POST', '/v1/player-config-assignments', { config_id, target_kind, ...(target_id ? { target_id } : {}) });
      expect(a.status).toBe(201);
      return ((await a.json()) as { id: string }).id;
    };
    await assign(tenantCfg, 'tenant');
    r = await fetch(`${s.url}/player/config/default.json`, { headers: { 'if-none-match': etag } });
    expect(r.status).toBe(200); // changed document, new ETag
    expect(((await r.json()) as { config: { skin: string } }).config.skin).toBe('retro');

    const sec = (await (await s.api('POST', '/v1/library/sections', { name: 'Sport' })).json()) as { id: string };
    expect((await s.api('PUT', `/v1/assets/${assetId}/section`, { section_id: sec.id })).status).toBe(200);
    expect(((await (await s.api('GET', `/v1/library/sections/${sec.id}`)).json()) as { asset_count: number }).asset_count).toBe(1);
    const resolved = async () => (await (await fetch(`${s.url}/player/config/default/resolve.json?kind=vod&id=${assetId}`)).json()) as { config: { skin: string }; resolved_from: { kind: string }; title: { id: string } };
    expect((await resolved()).resolved_from.kind).toBe('tenant');
    await assign(libCfg, 'library_default');
    expect((await resolved()).config.skin).toBe('glass');
    await assign(secCfg, 'section', sec.id);
    expect((await resolved()).resolved_from.kind).toBe('section');
    const aa = await assign(assetCfg, 'asset', assetId);
    const top = await resolved();
    expect(top.config.skin).toBe('emoji');
    expect(top.resolved_from.kind).toBe('asset');
    expect(top.title.id).toBe(assetId);
    expect((await s.api('DELETE', `/v1/player-config-assignments/${aa}`)).status).toBe(204);
    expect((await resolved()).config.skin).toBe('cinema');
    expect((await s.api('POST', '/v1/player-config-assignments', { config_id: secCfg, target_kind: 'section', target_id: 'nope' })).status).toBe(422);
    expect((await s.api('POST', '/v1/player-config-assignments', { config_id: secCfg, target_kind: 'tenant', target_id: 'x' })).status).toBe(422);
    expect((await fetch(`${s.url}/player/config/default/resolve.json?kind=vod&id=00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await fetch(`${s.url}/player/config/default/resolve.json?kind=tv&id=x`)).status).toBe(422);
    expect((await s.api('DELETE', `/v1/library/sections/${sec.id}`)).status).toBe(204);
    expect((await resolved()).config.skin).toBe('glass');
    await settled(s.ctx, assetId);
  });
});
