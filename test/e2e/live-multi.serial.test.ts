import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, parseMedia, probeSegment, push } from './live-helpers';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ env: await liveEnv(8) }); });
afterAll(async () => { await killPushers(); await s?.stop(); });

const get = async (id: string) => (await s.api('GET', `/v1/channels/${id}`)).json();

test('a 1080p60 feed on passthrough is recorded and listed unchanged (1920x1080, 2 s segments)', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'HD', slug: 'hd' })).json();
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  // Six seconds of 1080p60 x264 ultrafast/zerolatency: enough for two whole segments, small enough for 2 cores.
  const p = push(ing.srt.primary.url, { size: '1920x1080', rate: 60, seconds: 6, bitrateK: 4000 });
  const live = await waitFor('live', async () => { const c = await get(ch.id); return c.status === 'live' && c; }, 20_000);
  expect(live.input.resolution).toBe('1920x1080');
  expect(live.input.video_codec).toBe('h264');
  const segs = (await waitFor('2 segments', async () => { const l = parseMedia(await (await fetch(`${s.url}/live/default/hd/src/index.m3u8`)).text()); return l.length >= 2 ? l : null; }, 30_000))!;
  for (const sg of segs.slice(0, 2)) expect(Math.abs(sg.durMs - 2000)).toBeLessThan(600);
  const rows = s.ctx.db.query<{ path: string; init_ms: number }, [string]>('SELECT path, init_ms FROM live_segments WHERE channel_id = ? ORDER BY start_ms').all(ch.id);
  const init = readFileSync(`${s.dataDir}/rec/${rows[0].path.split('/').slice(0, 3).join('/')}/init/${rows[0].init_ms}.mp4`);
  expect(await probeSegment(init, readFileSync(`${s.dataDir}/rec/${rows[0].path}`), `${s.dataDir}/hd.mp4`)).toBe(true);
  // Passthrough: the recorded stream is the feed's own 1920x1080 at 60 fps.
  await Bun.write(`${s.dataDir}/hd.mp4`, Buffer.concat([init, readFileSync(`${s.dataDir}/rec/${rows[0].path}`)]));
  const pr = Bun.spawn(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,r_frame_rate', '-of', 'csv=p=0', `${s.dataDir}/hd.mp4`], { stdout: 'pipe' });
  expect((await new Response(pr.stdout).text()).trim()).toBe('1920,1080,60/1');
  expect(await pr.exited).toBe(0);
  p.kill();
}, 80_000);

test('two channels at once: each goes live with its own playlist and recording, neither disturbs the other', async () => {
  const mk = async (name: string) => {
    const ch = await (await s.api('POST', '/v1/channels', { name })).json();
    const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
    await s.api('POST', `/v1/channels/${ch.id}/start`);
    return { ch, ing };
  };
  const a = await mk('Channel A'), b = await mk('Channel B');
  expect(a.ing.srt.primary.port).not.toBe(b.ing.srt.primary.port);
  push(a.ing.srt.primary.url, { seconds: 20 });
  push(b.ing.srt.primary.url, { seconds: 20, size: '256x144' });
  const lists = (await waitFor('both with 3 segments', async () => {
    const l = await Promise.all(['channel-a', 'channel-b'].map(async (slug) => parseMedia(await (await fetch(`${s.url}/live/default/${slug}/src/index.m3u8`)).text())));
    return l.every((x) => x.length >= 3) ? l : null;
  }, 30_000))!;
  const [ca, cb] = await Promise.all([get(a.ch.id), get(b.ch.id)]);
  expect([ca.status, cb.status]).toEqual(['live', 'live']);
  expect([ca.input.resolution, cb.input.resolution]).toEqual(['320x180', '256x144']);
  // Each channel's rows and files are its own.
  for (const [c, l] of [[a.ch, lists[0]], [b.ch, lists[1]]] as const) {
    const rows = s.ctx.db.query<{ path: string }, [string]>('SELECT path FROM live_segments WHERE channel_id = ?').all(c.id);
    expect(rows.length).toBeGreaterThanOrEqual(l.length);
    expect(rows.every((r) => r.path.includes(`/${c.id}/src/`))).toBe(true);
  }
  const m = await (await fetch(`${s.url}/live/default/channel-b/master.m3u8`)).text();
  expect(m).toContain('RESOLUTION=256x144');
}, 80_000);
