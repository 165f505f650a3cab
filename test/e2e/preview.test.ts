import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import HLS from 'hls-parser';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { assetRow, makeClip, registerAsset, settled } from './transcode-helpers';
import { natsServerBinary, startNats } from './cluster-helpers';

// First play in about a second (issue 21 goal 2): a browser-ready H.264/AAC upload is remuxed into a one-variant
// CMAF preview while the ladder encodes; the ladder later answers the same master URL, and a player still on the
// preview keeps its playlist and segments. Sources that need a transcode get a quick small H.264 rendition first.
let s: TestServer;
beforeAll(async () => { s = await startTestServer({ env: { VS_LOG_LEVEL: 'error', VS_TRANSCODE_ENCODER: 'libx264' } }); });
afterAll(async () => { await s?.stop(); });

const previewUrl = (id: string, file = 'master.m3u8') => `${s.ctx.config.cdnBaseUrl}/m/${assetRow(s.ctx, id).tenant_id}/assets/${id}/preview/${file}`;
const jobResult = (id: string, type: string) => JSON.parse(s.ctx.db.query<{ result: string | null }, [string, string]>('SELECT result FROM jobs WHERE subject_id = ? AND type = ?').get(id, type)?.result ?? '{}');

/** Decodes a playlist URL end to end with ffmpeg's HLS demuxer (an independent player): exit code and stderr. */
async function decodeAll(url: string): Promise<{ code: number; err: string }> {
  const p = Bun.spawn(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-i', url, '-f', 'null', '-'], { stdout: 'ignore', stderr: 'pipe' });
  const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  return { code, err };
}

test('an H.264/AAC source is playable from the preview URL before the ladder, stream-copied; the ladder then takes the same URL', async () => {
  // 12 s 640x360 with 1 s GOPs and 2 rungs' worth of ladder work still to do when the preview lands.
  const src = await makeClip(join(s.dataDir, 'h264.mp4'), { size: '640x360', seconds: 12, extra: ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p'] });
  const id = registerAsset(s.ctx, src);
  await waitFor('preview published', () => jobResult(id, 'asset.process').preview === 'remux', 60_000);
  const r = await fetch(previewUrl(id));
  expect(r.status).toBe(200);
  expect(r.headers.get('cache-control')).toBe('no-cache');
  const master = HLS.parse(await r.text()) as HLS.types.MasterPlaylist;
  expect(master.isMasterPlaylist).toBe(true);
  expect(master.variants.length).toBe(1);
  expect(master.variants[0].resolution).toEqual({ width: 640, height: 360 });
  const variantUri = master.variants[0].uri;
  const media = HLS.parse(await (await fetch(previewUrl(id, variantUri))).text()) as HLS.types.MediaPlaylist;
  expect(media.playlistType).toBe('VOD');
  expect(media.endlist).toBe(true);
  const total = media.segments.reduce((a, x) => a + x.duration, 0);
  expect(Math.abs(total - 12)).toBeLessThan(0.2);
  const init = media.segments[0].map!.uri;
  expect((await fetch(previewUrl(id, init))).status).toBe(200);
  const seg = await fetch(previewUrl(id, media.segments[0].uri));
  expect(seg.status).toBe(200);
  expect((await seg.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  // An independent player decodes the whole preview (video and audio) without an error.
  const dec = await decodeAll(previewUrl(id));
  expect(dec.err).toBe('');
  expect(dec.code).toBe(0);

  const a = await settled(s.ctx, id, 180_000);
  expect(a.status).toBe('ready');
  // Same master URL, new variants: the ladder's master (2 rungs for a 360p source: 360p and 144p).
  const after = HLS.parse(await (await fetch(previewUrl(id))).text()) as HLS.types.MasterPlaylist;
  expect(after.variants.length).toBeGreaterThan(1);
  expect(after.variants.map((v) => v.resolution?.height)).toContain(360);
  // A player that loaded the preview's variant before keeps playing it.
  expect((await fetch(previewUrl(id, variantUri))).status).toBe(200);
  expect((await fetch(previewUrl(id, media.segments[media.segments.length - 1].uri))).status).toBe(200);
  expect((await decodeAll(previewUrl(id))).code).toBe(0);
}, 240_000);

test('a source that must be transcoded (MPEG-4 Part 2) gets a quick small H.264 rendition first, then the ladder', async () => {
  const src = await makeClip(join(s.dataDir, 'mpeg4.mkv'), { size: '640x360', seconds: 6, extra: ['-c:v', 'mpeg4', '-q:v', '5'] });
  const id = registerAsset(s.ctx, src);
  const a = await settled(s.ctx, id, 120_000);
  expect(a.status).toBe('ready');
  const res = jobResult(id, 'asset.process');
  expect(res.preview).toBe('quick-encode');
  expect(res.preview_reason).toContain('mpeg4');
  expect(res.preview_ms).toBeGreaterThan(0);
  // The quick rendition stays reachable under the preview URL (a player that started on it finishes on it).
  const media = HLS.parse(await (await fetch(previewUrl(id, 'preview.m3u8'))).text()) as HLS.types.MediaPlaylist;
  expect(media.endlist).toBe(true);
  expect(Math.abs(media.segments.reduce((x, g) => x + g.duration, 0) - 6)).toBeLessThan(0.2);
  const dec = await decodeAll(previewUrl(id, 'preview.m3u8'));
  expect(dec.err).toBe('');
  expect(dec.code).toBe(0);
  // And the master under the same URL is now the ladder's.
  expect((HLS.parse(await (await fetch(previewUrl(id))).text()) as HLS.types.MasterPlaylist).variants.length).toBeGreaterThan(1);
}, 180_000);

test('on a cluster control node (VS_NATS_URL) a source that must be transcoded gets no quick encode there: the workers encode', async () => {
  const bin = natsServerBinary();
  if (!bin) return; // the cluster tests skip without nats-server too
  const dir = mkdtempSync(join(tmpdir(), 'vs-preview-nats-'));
  const nats = await startNats(bin, dir);
  const c = await startTestServer({ env: { VS_LOG_LEVEL: 'error', VS_TRANSCODE_ENCODER: 'libx264', VS_NATS_URL: nats.url } });
  try {
    const src = await makeClip(join(c.dataDir, 'mpeg4.mkv'), { size: '640x360', seconds: 6, extra: ['-c:v', 'mpeg4', '-q:v', '5'] });
    const id = registerAsset(c.ctx, src);
    const result = () => JSON.parse(c.ctx.db.query<{ result: string | null }, [string]>(`SELECT result FROM jobs WHERE subject_id = ? AND type = 'asset.process' AND status = 'succeeded'`).get(id)?.result ?? '{}');
    await waitFor('probe job done', () => result().preview !== undefined, 60_000);
    expect(result().preview).toBe('ladder');
    expect(result().preview_reason).toContain('transcodes run on workers');
    expect(existsSync(join(c.dataDir, 'media', assetRow(c.ctx, id).tenant_id, 'assets', id, 'preview'))).toBe(false);
  } finally { await c.stop(); await nats.stop(); rmSync(dir, { recursive: true, force: true }); }
}, 120_000);
