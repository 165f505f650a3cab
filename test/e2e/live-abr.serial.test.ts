import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, parseMedia, probeSegment, push, pushForever } from './live-helpers';
import { firstVideoTimes } from './gst-helpers';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });
afterAll(async () => { await killPushers(); await s?.stop(); });

const get = async (id: string) => (await s.api('GET', `/v1/channels/${id}`)).json();

test('live ABR ladder: renditions encoded with aligned segments, listed in the master playlist; MP2 audio becomes AAC', async () => {
  // Tiny rungs so two shared cores keep up: 180p and 90p (named by height), from a 320x180 feed with MP2 audio.
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Ladder', ladder: [{ height: 180, video_kbps: 300 }, { height: 90, video_kbps: 100 }] })).json();
  expect(ch.ladder).toEqual([{ height: 180, video_kbps: 300 }, { height: 90, video_kbps: 100 }]);
  expect((await s.api('POST', '/v1/channels', { name: 'bad', ladder: 'fancy' })).status).toBe(422);
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  push(ing.srt.primary.url, { seconds: 40, audioCodec: 'mp2' });
  const master: string = await waitFor('master with 2 variants', async () => {
    const r = await fetch(`${s.url}/live/default/ladder/master.m3u8`);
    const t = r.status === 200 ? await r.text() : '';
    return (t.match(/#EXT-X-STREAM-INF/g) ?? []).length === 2 ? t : '';
  }, 40_000);
  expect(master).toContain('RESOLUTION=320x180');
  expect(master).toContain('RESOLUTION=160x90');
  expect(master).toMatch(/CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
  expect(master.indexOf('180p/index.m3u8')).toBeLessThan(master.indexOf('90p/index.m3u8')); // highest bandwidth first
  const lists = (await waitFor('3 segments in both', async () => {
    const l = await Promise.all(['180p', '90p'].map(async (r) => parseMedia(await (await fetch(`${s.url}/live/default/ladder/${r}/index.m3u8`)).text())));
    return l.every((x) => x.length >= 3) ? l : null;
  }, 30_000))!;
  // Aligned: the same start times (PDT) and file names in every rendition.
  const common = lists[0].filter((a) => lists[1].some((b) => b.uri === a.uri && b.pdt === a.pdt));
  expect(common.length).toBeGreaterThanOrEqual(Math.min(lists[0].length, lists[1].length) - 1);
  for (const sg of lists[0].slice(0, -1)) expect(Math.abs(sg.durMs - 2000)).toBeLessThan(600);
  const c = await get(ch.id);
  expect(c.status).toBe('live');
  expect(c.input.audio_codec).toBe('mp2'); // the feed's audio as measured; the renditions carry AAC
  const dts: number[] = [];
  for (const r of ['180p', '90p']) {
    const row = s.ctx.db.query<{ path: string; init_ms: number }, [string, string]>('SELECT path, init_ms FROM live_segments WHERE channel_id = ? AND rendition = ? ORDER BY start_ms LIMIT 1').get(ch.id, r)!;
    const init = readFileSync(`${s.dataDir}/rec/${row.path.split('/').slice(0, 3).join('/')}/init/${row.init_ms}.mp4`);
    expect(await probeSegment(init, readFileSync(`${s.dataDir}/rec/${row.path}`), `${s.dataDir}/abr.mp4`)).toBe(true);
    dts.push((await firstVideoTimes(init, readFileSync(`${s.dataDir}/rec/${row.path}`), `${s.dataDir}/abr.mp4`))!.dts);
  }
  // Both renditions were rebased onto the channel timeline by the same shift: the same media time per segment.
  expect(Math.abs(dts[0] - dts[1])).toBeLessThan(0.001);
}, 90_000);

test('passthrough with MP2 audio: video copied, audio encoded to AAC after one probe (no restart loop)', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Mp2' })).json();
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  // The first run probes the feed and restarts with AAC encoding; the encoder reconnects as real ones do.
  const p = pushForever(ing.srt.primary.url, { seconds: 30, audioCodec: 'mp2' });
  const master: string = await waitFor('master', async () => { const r = await fetch(`${s.url}/live/default/mp2/master.m3u8`); return r.status === 200 ? r.text() : ''; }, 30_000);
  expect(master).toMatch(/CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
  await waitFor('3 segments', async () => parseMedia(await (await fetch(`${s.url}/live/default/mp2/src/index.m3u8`)).text()).length >= 3, 30_000);
  const logs = await (await s.api('GET', `/v1/channels/${ch.id}/logs`)).json();
  expect(logs.restarts).toBeLessThanOrEqual(2);
  const c = await get(ch.id);
  expect([c.input.video_codec, c.input.audio_codec]).toEqual(['h264', 'mp2']);
  await p.stop();
}, 80_000);
