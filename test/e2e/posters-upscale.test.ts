import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled } from './transcode-helpers';
import { upscaleTarget } from '../../src/features/assets/poster-upscale';

// Posters and image upscaling (issue 48): a poster chosen from a frame smaller than the largest site image (1920x1080)
// is drawn at a size that covers it, lanczos + unsharp, and flagged `upscaled: true`.
let s: TestServer, tmp: string;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'vs-poster-up-'));
  s = await startTestServer();
}, 60_000);
afterAll(async () => { await s?.stop(); rmSync(tmp, { recursive: true, force: true }); });

async function imageSize(url: string): Promise<{ w: number; h: number }> {
  const file = join(tmp, `img-${Math.random().toString(36).slice(2)}.jpg`);
  await Bun.write(file, await (await fetch(url)).arrayBuffer());
  const p = Bun.spawn(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'json', file], { stdout: 'pipe' });
  const j = JSON.parse(await new Response(p.stdout).text()) as { streams: { width: number; height: number }[] };
  return { w: j.streams[0].width, h: j.streams[0].height };
}

test('upscale target: covers 1920x1080 keeping the aspect; none for a frame that already covers it', () => {
  expect(upscaleTarget(320, 180)).toEqual({ w: 1920, h: 1080 });
  expect(upscaleTarget(180, 320)).toEqual({ w: 1920, h: 3414 });
  expect(upscaleTarget(1920, 1080)).toBeNull();
  expect(upscaleTarget(1920, 800)).toEqual({ w: 2592, h: 1080 });
});

test('a 320x180 asset\'s poster chosen from a frame is upscaled to 1920x1080 and flagged', async () => {
  const id = registerAsset(s.ctx, await makeClip(join(tmp, 'small.mp4'), { seconds: 3, size: '320x180' }), { ladder: 'fast' });
  expect((await settled(s.ctx, id, 120_000)).status).toBe('ready');
  const enc = await (await s.api('GET', `/v1/assets/${id}/poster`)).json() as Record<string, unknown>;
  expect(enc).toMatchObject({ upscaled: false, width: null });
  const put = await s.api('PUT', `/v1/assets/${id}/poster`, { time_s: 1 });
  expect(put.status).toBe(200);
  const g = await s.api('GET', `/v1/assets/${id}/poster`);
  expect(g.status).toBe(200);
  const p = await g.json() as { poster: string; poster_webp: string; width: number; height: number; upscaled: boolean; source_width: number; source_height: number };
  expect(p).toMatchObject({ upscaled: true, width: 1920, height: 1080, source_width: 320, source_height: 180 });
  expect(await imageSize(p.poster)).toEqual({ w: 1920, h: 1080 });
  expect(await imageSize(p.poster_webp)).toEqual({ w: 1920, h: 1080 });
  expect((await s.api('GET', '/v1/assets/00000000-0000-4000-8000-000000000000/poster')).status).toBe(404);
}, 180_000);
