import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, parseMedia, push, pushForever } from './live-helpers';
import { firstVideoTimes, gstHas, gstLivePts, gstPlay, killGst } from './gst-helpers';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });
afterAll(async () => { killGst(); await killPushers(); await s?.stop(); });

type Row = { start_ms: number; duration_ms: number; init_ms: number; path: string; discontinuity: number };
const rows = (id: string) => s.ctx.db.query<Row, [string]>('SELECT start_ms, duration_ms, init_ms, path, discontinuity FROM live_segments WHERE channel_id = ? ORDER BY start_ms').all(id);

test('encoder reconnect (new timestamps from 0): one continuous media timeline; GStreamer plays across it', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Reconnect' })).json();
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  await s.api('POST', `/v1/channels/${ch.id}/start`);

  // First encoder session.
  const first = push(ing.srt.primary.url, { seconds: 60 });
  await waitFor('4 segments of the first session', () => rows(ch.id).length >= 4, 30_000);
  first.kill();
  await first.exited;
  const firstInit = rows(ch.id)[0].init_ms;

  // The encoder comes back: a new ffmpeg whose timestamps start from 0 again (retried until the listener is back).
  const second = pushForever(ing.srt.primary.url, { seconds: 120 });
  await waitFor('4 segments of the second session', () => rows(ch.id).filter((r) => r.init_ms !== firstInit).length >= 4, 45_000);
  if (!gstHas('playbin', 'playbin3', 'fakesink')) throw new Error('GStreamer (gstreamer1.0-tools, -plugins-base/good/bad/libav) is required');

  // Live: GStreamer plays the channel's live playlist across the reconnect point (the legacy demuxer of playbin
  // starts at the playlist's first segment and plays in real time; playbin3's starts near the live edge).
  const live = rows(ch.id);
  const back = live.findIndex((r) => r.init_ms !== firstInit);
  const liveBase = `${s.dataDir}/rec/${live[0].path.split('/').slice(0, 3).join('/')}`;
  const backAt = (await firstVideoTimes(readFileSync(`${liveBase}/init/${live[back].init_ms}.mp4`), readFileSync(`${s.dataDir}/rec/${live[back].path}`), `${s.dataDir}/probe.mp4`))!.pts;
  const playFor = live[back].start_ms - live[0].start_ms + 8000;
  const [legacy, pb3] = await Promise.all((['playbin', 'playbin3'] as const).map((e) => gstLivePts(`${s.url}/live/default/reconnect/master.m3u8`, e, playFor)));
  for (const [element, pts] of [['playbin', legacy], ['playbin3', pb3]] as const) {
    if (!pts.length || Math.max(...pts) < backAt + 1) throw new Error(`${element} did not play the live channel across the reconnect (media time ${backAt.toFixed(1)} s): rendered ${pts.length} buffers, last pts ${pts.at(-1)}`);
  }
  await second.stop();

  const all = rows(ch.id);
  expect(new Set(all.map((r) => r.init_ms)).size).toBe(2);
  // A discontinuity stays where the encoding changed (new init segment).
  expect(all.filter((r, i) => i > 0 && r.discontinuity).length).toBe(1);

  // Every segment's media time (first video packet, read by ffprobe) increases with its wall-clock start.
  const base = `${s.dataDir}/rec/${all[0].path.split('/').slice(0, 3).join('/')}`;
  const times: { dts: number; pts: number }[] = [];
  for (const r of all) {
    const t = await firstVideoTimes(readFileSync(`${base}/init/${r.init_ms}.mp4`), readFileSync(`${s.dataDir}/rec/${r.path}`), `${s.dataDir}/probe.mp4`);
    expect(t).not.toBeNull();
    times.push(t!);
  }
  for (let i = 1; i < all.length; i++) {
    expect(times[i].dts).toBeGreaterThan(times[i - 1].dts);
    expect(times[i].pts).toBeGreaterThan(times[i - 1].pts);
    // Media time advances like wall time (within a fraction of a segment), across the reconnect too.
    const media = times[i].dts - times[0].dts, wall = (all[i].start_ms - all[0].start_ms) / 1000;
    if (Math.abs(media - wall) >= 0.25) throw new Error(`segment ${i}: media time ${media.toFixed(3)} s from the first, wall ${wall.toFixed(3)} s`);
  }

  // A catch-up range spanning the reconnect plays straight through in GStreamer (playbin and playbin3).
  const last = all[back + 2];
  const fromS = Math.floor(all[1].start_ms / 1000), endS = Math.ceil((last.start_ms + last.duration_ms) / 1000);
  const archive = `${s.url}/live/default/reconnect/archive-${fromS}-${endS - fromS}.m3u8`;
  const master = await (await fetch(archive)).text();
  const variant = new URL(master.trim().split('\n').pop()!, archive).toString();
  const listed = parseMedia(await (await fetch(variant)).text());
  expect(listed.some((x) => x.disc)).toBe(true);
  // Media time runs with wall time: the range plays from its first segment's start to its last one's end (the
  // playlist dates the first segment and each one after a discontinuity; the others follow from EXTINF).
  let end = 0, tag = NaN;
  for (const x of listed) { end = x.pdt !== tag ? x.pdt + x.durMs : end + x.durMs; tag = x.pdt; }
  const span = end - listed[0].pdt;
  expect(span - listed.reduce((a, x) => a + x.durMs, 0)).toBeGreaterThan(1000); // the reconnect left a gap
  for (const element of ['playbin', 'playbin3'] as const) {
    const r = await gstPlay(archive, element, span + 30_000);
    if (r.code !== 0 || !r.eos) throw new Error(`${element} did not play to EOS (exit ${r.code}):\n${r.out}`);
    if (Math.abs(r.playMs! - span) >= 1000) throw new Error(`${element} played ${r.playMs} ms for a ${span} ms range:\n${r.out}`);
  }
}, 240_000);
