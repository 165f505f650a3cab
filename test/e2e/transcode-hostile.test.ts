import { afterAll, beforeAll, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { assetRow, ff, makeClip, registerAsset, settled } from './transcode-helpers';

let s: TestServer;
const ids: Record<string, string> = {};
const rows: Record<string, ReturnType<typeof assetRow>> = {};

beforeAll(async () => {
  s = await startTestServer();
  const d = (n: string) => join(s.dataDir, n);
  writeFileSync(d('random.mp4'), randomBytes(256 * 1024));
  writeFileSync(d('zero.mp4'), '');
  await makeClip(d('whole.mp4'), { seconds: 3, extra: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'] });
  const whole = readFileSync(d('whole.mp4'));
  writeFileSync(d('truncated.mp4'), whole.subarray(0, Math.floor(whole.length * 0.6)));
  writeFileSync(d('truncated-head.mp4'), whole.subarray(0, 2000));
  await makeClip(d('audio.m4a'), { video: false, seconds: 2 });
  await ff(['-f', 'lavfi', '-i', 'color=c=red:s=16x16:r=25:d=1', '-vf', 'scale=1:1', '-c:v', 'ffv1', '-f', 'matroska', d('tiny.mp4')]);
  await makeClip(d('upright.mp4'), { seconds: 2 });
  await ff(['-i', d('upright.mp4'), '-c', 'copy', '-metadata:s:v:0', 'rotate=90', d('rotated.mp4')]);
  await makeClip(d('ten-bit.mp4'), { seconds: 2, extra: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p10le'] });
  writeFileSync(d('evil.m3u8'), '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n');
  writeFileSync(d('evil-concat.mp4'), 'ffconcat version 1.0\nfile /etc/passwd\n');
  for (const n of ['random.mp4', 'zero.mp4', 'truncated.mp4', 'truncated-head.mp4', 'audio.m4a', 'tiny.mp4', 'rotated.mp4', 'ten-bit.mp4', 'evil.m3u8', 'evil-concat.mp4']) {
    ids[n] = registerAsset(s.ctx, d(n));
  }
  for (const [n, id] of Object.entries(ids)) rows[n] = await settled(s.ctx, id, 120_000);
}, 240_000);
afterAll(async () => { await s?.stop(); });

const failedWith = (n: string, re: RegExp) => {
  expect(rows[n].status).toBe('failed');
  expect(rows[n].error).toMatch(re);
  expect(rows[n].error!.length).toBeLessThan(400);
  expect(rows[n].error).not.toContain(s.dataDir);
};

test('random bytes, zero bytes and a cut-off header fail with a readable error', () => {
  failedWith('random.mp4', /not a playable media file|not a media file|no video/i);
  failedWith('zero.mp4', /empty/);
  failedWith('truncated-head.mp4', /not a playable media file|not a media file|duration/i);
});

test('a truncated MP4 (faststart, data cut) still becomes ready from what is there', () => {
  expect(rows['truncated.mp4'].error).toBeNull();
  expect(rows['truncated.mp4'].status).toBe('ready');
});

test('audio-only and a 1x1 video fail cleanly', () => {
  failedWith('audio.m4a', /audio-only/);
  failedWith('tiny.mp4', /too small \(1x1\)/);
});

test('a rotated phone video is encoded upright (portrait renditions)', () => {
  expect(rows['rotated.mp4'].status).toBe('ready');
  const out = JSON.parse(rows['rotated.mp4'].output!);
  expect(out.renditions.map((r: { width: number; height: number }) => `${r.width}x${r.height}`)).toEqual(['180x320', '144x256']);
});

test('a 10-bit source becomes 8-bit H.264 High', async () => {
  expect(rows['ten-bit.mp4'].status).toBe('ready');
  const out = JSON.parse(rows['ten-bit.mp4'].output!);
  const p = Bun.spawnSync(['ffprobe', '-v', 'error', '-show_entries', 'stream=pix_fmt,profile', '-of', 'json', join(s.dataDir, out.dir, 'download.mp4')]);
  expect(JSON.parse(p.stdout.toString()).streams[0]).toMatchObject({ pix_fmt: 'yuv420p', profile: 'High' });
});

test('HLS and concat lists pointing at /etc/passwd fail and leak nothing', async () => {
  for (const n of ['evil.m3u8', 'evil-concat.mp4']) {
    failedWith(n, /not a playable media file/);
    expect(rows[n].error).not.toContain('root:');
    expect(rows[n].output).toBeNull();
  }
});

test('every failure is in the outbox as asset.failed and in /v1/jobs/failures', async () => {
  const failed = Object.entries(rows).filter(([, r]) => r.status === 'failed').map(([, r]) => r.id);
  const ev = s.ctx.db.query<{ data: string }, []>(`SELECT data FROM events WHERE type = 'asset.failed'`).all().map((e) => JSON.parse(e.data));
  expect(ev.map((e) => e.asset).sort()).toEqual(failed.sort());
  for (const e of ev) { expect(e.status).toBe('failed'); expect(typeof e.error).toBe('string'); }
  const page = await (await s.api('GET', '/v1/jobs/failures?limit=200')).json() as { items: { subject: { id: string }; attempts: number; error: string }[] };
  expect(page.items.map((j) => j.subject.id).sort()).toEqual(failed.sort());
  // bad media is not retried
  for (const j of page.items) expect(j.attempts).toBe(1);
});
