import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled } from './transcode-helpers';

// Packaging settings per tenant (issue 48): segment duration and DASH on/off reach the next encode's files.
let s: TestServer, tmp: string, clip: string;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'vs-packaging-'));
  clip = await makeClip(join(tmp, 'clip.mp4'), { seconds: 8, size: '320x180' });
  s = await startTestServer();
}, 60_000);
afterAll(async () => { await s?.stop(); rmSync(tmp, { recursive: true, force: true }); });

const targetDuration = (m3u8: string) => Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(m3u8)?.[1]);
const extinfs = (m3u8: string) => [...m3u8.matchAll(/#EXTINF:([\d.]+)/g)].map((x) => Number(x[1]));

async function encoded(): Promise<{ dir: string; files: Record<string, string>; playback: Record<string, unknown> }> {
  const id = registerAsset(s.ctx, clip, { ladder: 'fast' });
  const row = await settled(s.ctx, id, 120_000);
  expect(row.status).toBe('ready');
  const out = JSON.parse(row.output!) as { dir: string; files: Record<string, string> };
  const a = await (await s.api('GET', `/v1/assets/${id}`)).json() as { playback: Record<string, unknown> };
  return { dir: join(s.ctx.config.dataDir, out.dir), files: out.files, playback: a.playback };
}

test('segment 2 s and DASH off: the next encode has 2 s segments and no MPD; back to defaults: the ladder\'s 4 s and an MPD', async () => {
  const def = await (await s.api('GET', '/v1/packaging')).json();
  expect(def).toMatchObject({ segment_s: null, dash: true, aes128_default: false, iframe_playlists: false, updated_at: null });
  const p = await s.api('PATCH', '/v1/packaging', { segment_s: 2, dash: false });
  expect(p.status).toBe(200);
  expect(await p.json()).toMatchObject({ segment_s: 2, dash: false });
  const a = await encoded();
  const media = readFileSync(join(a.dir, 'media_0.m3u8'), 'utf8');
  expect(targetDuration(media)).toBe(2);
  const d = extinfs(media);
  expect(d.length).toBe(4);
  for (const x of d) expect(x).toBeCloseTo(2, 1);
  expect(existsSync(join(a.dir, 'manifest.mpd'))).toBe(false);
  expect(a.files.dash).toBeUndefined();
  expect(a.playback.dash).toBeUndefined();
  expect(typeof a.playback.hls).toBe('string');
  expect((await fetch(String(a.playback.hls))).status).toBe(200);
  // Back to the defaults: the fast ladder's own 4 s segments and a DASH manifest.
  expect((await s.api('PATCH', '/v1/packaging', { segment_s: null, dash: true })).status).toBe(200);
  const b = await encoded();
  expect(targetDuration(readFileSync(join(b.dir, 'media_0.m3u8'), 'utf8'))).toBe(4);
  expect(existsSync(join(b.dir, 'manifest.mpd'))).toBe(true);
  expect(String(b.playback.dash)).toEndWith('/manifest.mpd');
}, 240_000);

test('packaging validation: range, types, unknown fields, not-yet-built options refused, scope', async () => {
  const bad = async (body: unknown, status: number) => expect((await s.api('PATCH', '/v1/packaging', body)).status).toBe(status);
  await bad({ segment_s: 0 }, 422);
  await bad({ segment_s: 11 }, 422);
  await bad({ segment_s: 2.5 }, 422);
  await bad({ dash: 'no' }, 422);
  await bad({ hls_time: 2 }, 400);
  await bad({}, 422);
  const aes = await s.api('PATCH', '/v1/packaging', { aes128_default: true });
  expect(aes.status).toBe(422);
  expect((await aes.json() as { errors: { field: string }[] }).errors[0].field).toBe('aes128_default');
  await bad({ iframe_playlists: true }, 422);
  const viewer = (await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string }).key;
  expect((await s.api('GET', '/v1/packaging', undefined, { key: viewer })).status).toBe(200);
  expect((await s.api('PATCH', '/v1/packaging', { dash: false }, { key: viewer })).status).toBe(403);
  expect((await s.api('GET', '/v1/packaging', undefined, { key: null })).status).toBe(401);
});

test('lip-sync: visible and off; switching it on is refused with the platform rule; lip_sync checks stay refused', async () => {
  const viewer = (await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string }).key;
  const g = await s.api('GET', '/v1/lip-sync', undefined, { key: viewer });
  expect(g.status).toBe(200);
  expect(await g.json()).toEqual({ enabled: false, platform: 'off', checks_creatable: false, rule: 'Lip-sync checks cannot be created while lip-sync is switched off on the platform (currently off).' });
  const on = await s.api('PATCH', '/v1/lip-sync', { enabled: true });
  expect(on.status).toBe(403);
  const body = await on.json() as { type: string; detail: string };
  expect(body.type).toEndWith('/feature_disabled');
  expect(body.detail).toContain('switched off on the platform');
  expect((await s.api('PATCH', '/v1/lip-sync', { enabled: false })).status).toBe(200);
  expect((await s.api('PATCH', '/v1/lip-sync', { enabled: 'yes' })).status).toBe(422);
  expect((await s.api('PATCH', '/v1/lip-sync', { enabled: true }, { key: viewer })).status).toBe(403);
  const m = await s.api('POST', '/v1/monitors', { name: 'lips', target_kind: 'tenant', checks: [{ type: 'lip_sync' }] });
  expect(m.status).toBe(422);
  expect((await s.api('GET', '/v1/monitors/checks')).status).toBe(200);
});
