import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { liveEnv, parseMedia, probeSegment } from './live-helpers';
import { gstHas, gstPushForever, killGst } from './gst-helpers';
import { eventsAfter } from '../../src/kernel/events/outbox';

let s: TestServer;
beforeAll(async () => {
  if (!gstHas('videotestsrc', 'x264enc', 'mpegtsmux', 'srtsink', 'flvmux', 'rtmp2sink', 'avenc_aac')) {
    throw new Error('GStreamer encoders are required: gstreamer1.0-tools, -plugins-base/good/bad/ugly (x264enc), -libav');
  }
  s = await startTestServer({ env: await liveEnv() });
});
afterAll(async () => { killGst(); await s?.stop(); });

// A live test pattern and tone, as a GStreamer encoder in the field would send them. `caps` pins the raw format
// before x264enc; without it x264enc takes videotestsrc's first format and encodes H.264 High 4:4:4 Predictive.
const video = (caps: boolean) => `videotestsrc is-live=true pattern=ball ${caps ? '! video/x-raw,format=I420,width=320,height=180,framerate=25/1 ' : ''}! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=25 ! h264parse config-interval=-1`;
const audio = 'audiotestsrc is-live=true ! audioconvert ! avenc_aac ! aacparse';
// alignment=7: 1316-byte TS buffers, one SRT message each (larger buffers are dropped by srtsink).
const srtPush = (url: string, caps = true) => gstPushForever(`${video(caps)} ! mpegtsmux name=m alignment=7 ! srtsink uri=${url} ${audio} ! m.`);
const rtmpPush = (url: string) => gstPushForever(`${video(true)} ! flvmux name=m streamable=true ! rtmp2sink location=${url} ${audio} ! m.`);

const get = async (id: string) => (await s.api('GET', `/v1/channels/${id}`)).json();
const rows = (id: string) => s.ctx.db.query<{ rendition: string; path: string; init_ms: number }, [string]>('SELECT rendition, path, init_ms FROM live_segments WHERE channel_id = ? ORDER BY start_ms').all(id);
const eventsOf = (id: string, type: string) => eventsAfter(s.ctx.db, 0, 1000).filter((e) => e.type === type && (e.data as { channel_id: string }).channel_id === id);

/** Waits until the channel is live with 2 recorded segments, and checks one decodes through the live playlist. */
async function livePlays(ch: { id: string; slug: string }): Promise<string[]> {
  await waitFor(`${ch.slug} live`, async () => (await get(ch.id)).status === 'live', 30_000);
  await waitFor(`${ch.slug} 2 segments`, () => rows(ch.id).length >= 2, 30_000);
  const master = await (await fetch(`${s.url}/live/default/${ch.slug}/master.m3u8`)).text();
  const variants = master.split('\n').filter((l) => l && !l.startsWith('#'));
  const base = `${s.url}/live/default/${ch.slug}/${variants[0].replace(/index\.m3u8$/, '')}`;
  const segs = parseMedia(await (await fetch(`${base}index.m3u8`)).text());
  const init = new Uint8Array(await (await fetch(base + segs[0].map)).arrayBuffer());
  const seg = new Uint8Array(await (await fetch(base + segs.at(-1)!.uri)).arrayBuffer());
  expect(await probeSegment(init, seg, `${s.dataDir}/probe-${ch.slug}.mp4`)).toBe(true);
  return variants;
}

async function videoOf(file: string): Promise<{ profile: string; pix_fmt: string; height: number }> {
  const p = Bun.spawn(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=profile,pix_fmt,height', '-of', 'json', file], { stdout: 'pipe' });
  return (JSON.parse(await new Response(p.stdout).text()) as { streams: { profile: string; pix_fmt: string; height: number }[] }).streams[0];
}

test('GStreamer x264enc ! mpegtsmux ! srtsink with the channel passphrase (URL from /ingest) goes live and plays', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Gst SRT' })).json();
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  expect(ing.srt.primary.url).toContain('mode=caller');
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  const enc = srtPush(ing.srt.primary.url);
  try {
    await livePlays(ch);
    const c = await get(ch.id);
    expect(c.input.video_codec).toBe('h264');
    expect(c.input.warnings).toEqual([]);
  } finally { await enc.stop(); }
}, 90_000);

test('GStreamer flvmux ! rtmp2sink with the stream key goes live and plays', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Gst RTMP', ingest: { protocol: 'rtmp' } })).json();
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  const enc = rtmpPush(`${ing.rtmp.primary.url}/${ing.rtmp.primary.stream_key}`);
  try {
    await livePlays(ch);
    expect((await get(ch.id)).input.warnings).toEqual([]);
  } finally { await enc.stop(); }
}, 90_000);

test('x264enc without a caps filter (High 4:4:4): passthrough warns once; a ladder transcodes it and drops rungs above the feed', async () => {
  const pass = await (await s.api('POST', '/v1/channels', { name: 'Gst 444' })).json();
  const ing = await (await s.api('GET', `/v1/channels/${pass.id}/ingest`)).json();
  await s.api('POST', `/v1/channels/${pass.id}/start`);
  const enc = srtPush(ing.srt.primary.url, false);
  try {
    await waitFor('444 live', async () => (await get(pass.id)).status === 'live', 30_000);
    const c = await waitFor('warnings', async () => { const x = await get(pass.id); return x.input.warnings.length > 0 && x; }, 10_000);
    expect(c.input.warnings).toHaveLength(1);
    expect(c.input.warnings[0].code).toBe('video_profile_unplayable');
    expect(c.input.warnings[0].detail).toContain('High 4:4:4');
    await waitFor('3 segments', () => rows(pass.id).length >= 3, 20_000);
    const withWarnings = eventsOf(pass.id, 'channel.feed_changed').filter((e) => ((e.data as { warnings?: unknown[] }).warnings ?? []).length > 0);
    expect(withWarnings).toHaveLength(1);
    expect((withWarnings[0].data as { warnings: { code: string }[] }).warnings[0].code).toBe('video_profile_unplayable');
  } finally { await enc.stop(); }

  // The same feed on a ladder channel: transcoded to 8-bit 4:2:0 H.264 High; the 720p rung (above the 240-line feed) dropped.
  const lad = await (await s.api('POST', '/v1/channels', { name: 'Gst 444 ladder', ladder: [{ height: 720, video_kbps: 1500 }, { height: 144, video_kbps: 200 }] })).json();
  const ing2 = await (await s.api('GET', `/v1/channels/${lad.id}/ingest`)).json();
  await s.api('POST', `/v1/channels/${lad.id}/start`);
  const enc2 = srtPush(ing2.srt.primary.url, false);
  try {
    const variants = await livePlays(lad);
    expect(variants).toEqual(['144p/index.m3u8']);
    const c = await get(lad.id);
    expect(c.input.warnings).toEqual([]);
    const r = rows(lad.id);
    expect(new Set(r.map((x) => x.rendition))).toEqual(new Set(['144p']));
    const init = readFileSync(`${s.dataDir}/rec/${r[0].path.split('/').slice(0, 3).join('/')}/init/${r[0].init_ms}.mp4`);
    await Bun.write(`${s.dataDir}/lad.mp4`, Buffer.concat([init, readFileSync(`${s.dataDir}/rec/${r.at(-1)!.path}`)]));
    const v = await videoOf(`${s.dataDir}/lad.mp4`);
    expect(v.profile).toBe('High');
    expect(v.pix_fmt).toBe('yuv420p');
    expect(v.height).toBe(144);
  } finally { await enc2.stop(); }
}, 150_000);
