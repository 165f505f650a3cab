import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, parseMedia, probeSegment, push, type Pusher } from './live-helpers';
import { eventsAfter } from '../../src/kernel/events/outbox';

let s: TestServer;
let pusher: Pusher | null = null;
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });
afterAll(async () => { pusher?.kill(); await killPushers(); await s?.stop(); });

test('SRT push goes live at /live/<tenant>/<slug>/master.m3u8; wrong passphrase never becomes the feed', async () => {
  const created = await s.api('POST', '/v1/channels', { name: 'News One', recording: { retention_hours: 24 } });
  expect(created.status).toBe(201);
  const ch = await created.json();
  expect(ch.slug).toBe('news-one');
  expect(ch.status).toBe('stopped');
  expect(JSON.stringify(ch)).not.toContain('passphrase');
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  expect(ing.srt.primary.url).toMatch(/^srt:\/\/127\.0\.0\.1:\d+\?mode=caller&latency=120&passphrase=.+&pbkeylen=16$/);
  expect(ing.rtmp.primary.url).toMatch(/^rtmp:\/\/127\.0\.0\.1:\d+\/live$/);
  const started = await (await s.api('POST', `/v1/channels/${ch.id}/start`)).json();
  expect(started.status).toBe('waiting');

  // A caller with a wrong passphrase is refused in the handshake and never becomes the feed.
  const bad = push(ing.srt.primary.url.replace(/passphrase=[^&]+/, 'passphrase=wrongwrongwrong1'), { seconds: 3 });
  expect(await bad.exited).not.toBe(0);
  expect((await (await s.api('GET', `/v1/channels/${ch.id}`)).json()).status).toBe('waiting');

  pusher = push(ing.srt.primary.url, { seconds: 30 });
  const live = await waitFor('channel live', async () => { const c = await (await s.api('GET', `/v1/channels/${ch.id}`)).json(); return c.status === 'live' && c; }, 20_000);
  expect(live.feed).toBe('primary');
  expect(live.recording).toBe('on');
  const master: string = await waitFor('master playlist', async () => { const r = await fetch(`${s.url}/live/default/news-one/master.m3u8`); return r.status === 200 ? r.text() : ''; }, 20_000);
  expect(master).toContain('#EXT-X-STREAM-INF:');
  expect(master).toMatch(/CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
  const variantUri = master.trim().split('\n').pop()!;
  expect(variantUri).toBe('src/index.m3u8');
  const media: string = await waitFor('3 segments', async () => { const t = await (await fetch(`${s.url}/live/default/news-one/${variantUri}`)).text(); return parseMedia(t).length >= 3 ? t : ''; }, 25_000);
  expect(media).toContain('#EXT-X-PROGRAM-DATE-TIME:');
  expect(media).not.toContain('#EXT-X-ENDLIST');
  const segs = parseMedia(media);
  // Latency: the newest segment's end is listed close to wall clock (within one segment duration + 1 s).
  const newest = segs[segs.length - 1];
  expect(Date.now() - (newest.pdt + newest.durMs)).toBeLessThan(3000 + 1000);
  for (const sg of segs) expect(Math.abs(sg.durMs - 2000)).toBeLessThan(600);
  const base = `${s.url}/live/default/news-one/src/`;
  const init = new Uint8Array(await (await fetch(base + segs[0].map)).arrayBuffer());
  for (const sg of segs) {
    const r = await fetch(base + sg.uri);
    expect(r.status).toBe(200);
    expect(await probeSegment(init, new Uint8Array(await r.arrayBuffer()), `${s.dataDir}/probe.mp4`)).toBe(true);
  }
  // Recording layout: rec/<tenant>/<channel>/src/YYYY/MM/DD/HH/<epoch_ms>.m4s
  const rows = s.ctx.db.query<{ path: string; start_ms: number }, [string]>('SELECT path, start_ms FROM live_segments WHERE channel_id = ? ORDER BY start_ms').all(ch.id);
  expect(rows.length).toBeGreaterThanOrEqual(3);
  expect(rows[0].path).toMatch(new RegExp(`^[0-9a-f-]{36}/${ch.id}/src/\\d{4}/\\d{2}/\\d{2}/\\d{2}/${rows[0].start_ms}\\.m4s$`));
  expect(await Bun.file(`${s.dataDir}/rec/${rows[0].path}`).exists()).toBe(true);
  const info = (await (await s.api('GET', `/v1/channels/${ch.id}`)).json()).input;
  expect(info.resolution).toBe('320x180');
  expect(info.video_codec).toBe('h264');
  expect(info.audio_codec).toBe('aac');
  const types = eventsAfter(s.ctx.db, 0, 100).map((e) => e.type);
  expect(types).toContain('channel.feed_changed');
  expect(types).toContain('channel.recording_status');
  const logs = await (await s.api('GET', `/v1/channels/${ch.id}/logs`)).json();
  expect(JSON.stringify(logs)).not.toContain(ing.srt.primary.passphrase);
  expect(logs.primary.length).toBeGreaterThan(0);
}, 90_000);
