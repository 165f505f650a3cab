import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv } from './live-helpers';
import { at, playThrough, recordChannel, type Seg } from './catchup-helpers';

let s: TestServer;
afterAll(async () => { await killPushers(); await s?.stop(); });
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });

type Item = { id: string; title: string; status: string; coverage: number; airing: boolean; play_start: string; play_end: string; bounds_status: string; playback: { hls: string; startover?: string } };
const catchup = async (id: string, q = '') => (await s.api('GET', `/v1/channels/${id}/catchup${q}`)).json() as Promise<{ items: Item[]; excluded_hidden: number; from: string; to: string; retention_from: string }>;

test('SRT recording: start-over while on air, catch-up list with coverage, VOD playback (plain, token, archive), boundaries, exclusions', async () => {
  const t0 = Date.now();
  const { ch, pusher, segs } = await recordChannel(s, 'Catchup One', 10, 2);
  const onAir = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Morning live', start_at: at(t0 - 30_000), end_at: at(t0 + 600_000) })).json();

  // Start-over while on air: an EVENT playlist from the programme start, growing (no ENDLIST).
  const list1 = await catchup(ch.id);
  const live = list1.items.find((i) => i.id === onAir.id)!;
  expect(live).toMatchObject({ airing: true, status: 'recorded' });
  expect(live.coverage).toBeGreaterThan(0);
  const so = await playThrough(live.playback.startover!);
  expect(so.codes.every((c) => c === 200)).toBe(true);
  expect(so.variant).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
  expect(so.variant).not.toContain('#EXT-X-ENDLIST');
  const tok = await (await s.api('POST', '/v1/playback/tokens', { startover: { channel: ch.slug, programme: onAir.id } })).json() as { src: string };
  expect((await playThrough(tok.src)).codes.every((c) => c === 200)).toBe(true);

  await pusher.exited;
  await waitFor('recording settles', async () => { const n = segs().length; await Bun.sleep(700); return n >= 4 && segs().length === n; }, 20_000);
  const rec: Seg[] = segs();
  const first = rec[0].start_ms, last = rec[rec.length - 1].start_ms + rec[rec.length - 1].duration_ms;

  // A programme exactly over the recording: recorded, coverage ~1, plays as VOD.
  const done = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'News at ten', start_at: at(first), end_at: at(last) })).json();
  await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Night film', start_at: at(first - 3_600_000), end_at: at(first - 1_800_000) });
  await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Hidden gem', start_at: at(first - 1_800_000), end_at: at(first - 600_000) });
  const partial = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Late show', start_at: at(last), end_at: at(last + 6_000) })).json();
  await Bun.sleep(Math.max(0, last + 6_000 - Date.now() + 100));
  const list = await catchup(ch.id);
  expect(list.excluded_hidden).toBe(0);
  const byTitle = Object.fromEntries(list.items.map((i) => [i.title, i]));
  expect(byTitle['News at ten']).toMatchObject({ status: 'recorded', airing: false, bounds_status: 'epg', play_start: at(first), play_end: at(last) });
  expect(byTitle['News at ten'].coverage).toBeGreaterThanOrEqual(0.95);
  expect(byTitle['Night film']).toMatchObject({ status: 'not_recorded', coverage: 0 });
  expect(byTitle['Late show'].status).toMatch(/not_recorded|partial/);
  expect(partial.id).toBeDefined();
  // Newest first.
  const starts = list.items.map((i) => Date.parse(i.play_start));
  expect([...starts].sort((a, b) => b - a)).toEqual(starts);

  const vod = await playThrough(byTitle['News at ten'].playback.hls);
  expect(vod.codes.every((c) => c === 200)).toBe(true);
  expect(vod.variant).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
  expect(vod.variant).toContain('#EXT-X-ENDLIST');
  expect(vod.segments).toBe(rec.length);
  // Segments come from the recording files: MIME, ranges, long cache.
  const segUrl = byTitle['News at ten'].playback.hls.replace('master.m3u8', `src/seg/${rec[1].start_ms}.m4s`);
  const seg = await fetch(segUrl, { headers: { range: 'bytes=0-99' } });
  expect(seg.status).toBe(206);
  expect(seg.headers.get('content-type')).toBe('video/iso.segment');
  expect(seg.headers.get('cache-control')).toContain('immutable');
  expect((await seg.arrayBuffer()).byteLength).toBe(100);
  // A segment outside the range is not served under this range.
  const outside = `${s.url}/m/catchup/${ch.slug}/${rec[2].start_ms}/${last}/src/seg/${rec[0].start_ms}.m4s?c=default`;
  expect((await fetch(outside)).status).toBe(404);

  // Through a token (relative URIs keep the /t/<token>/ prefix) and as a Flussonic-style archive.
  const ct = await (await s.api('POST', '/v1/playback/tokens', { catchup: { channel: ch.slug, start: first, end: last } })).json() as { src: string };
  const viaToken = await playThrough(ct.src);
  expect(viaToken.codes.every((c) => c === 200)).toBe(true);
  expect(viaToken.segments).toBe(rec.length);
  const fromS = Math.floor(first / 1000), durS = Math.ceil(last / 1000) - fromS;
  const arch = await playThrough(`${s.url}/live/default/${ch.slug}/archive-${fromS}-${durS}.m3u8`);
  expect(arch.codes.every((c) => c === 200)).toBe(true);
  expect(arch.segments).toBeGreaterThanOrEqual(rec.length - 1);
  expect((await fetch(`${s.url}/live/default/${ch.slug}/master.m3u8`)).status).toBe(200);

  // Confirmed boundaries move play_start/play_end and the playback range.
  const b = await s.api('PUT', `/v1/channels/${ch.id}/programmes/${done.id}/boundaries`, { play_start: at(rec[1].start_ms), play_end: at(last) });
  expect(b.status).toBe(200);
  const after = (await catchup(ch.id)).items.find((i) => i.id === done.id)!;
  expect(after).toMatchObject({ bounds_status: 'confirmed', play_start: at(rec[1].start_ms) });
  expect((await playThrough(after.playback.hls)).segments).toBe(rec.length - 1);

  // Exclusions: hidden and counted.
  expect((await s.api('PUT', '/v1/catchup/exclusions', { rules: [{ field: 'title', pattern: 'hidden*' }] })).status).toBe(200);
  const ex = await catchup(ch.id);
  expect(ex.excluded_hidden).toBe(1);
  expect(ex.items.some((i) => i.title === 'Hidden gem')).toBe(false);
}, 90_000);

test('catch-up windows: over 8 days and inverted answer 422; before retention is clipped; unknown channel 404', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Windows', recording: { retention_hours: 24 } })).json();
  const now = Date.now();
  expect((await s.api('GET', `/v1/channels/${ch.id}/catchup?from=${at(now - 9 * 86_400_000)}&to=${at(now)}`)).status).toBe(422);
  expect((await s.api('GET', `/v1/channels/${ch.id}/catchup?from=${at(now)}&to=${at(now - 3_600_000)}`)).status).toBe(422);
  expect((await s.api('GET', `/v1/channels/${ch.id}/catchup?from=garbage`)).status).toBe(422);
  const old = await (await s.api('GET', `/v1/channels/${ch.id}/catchup?from=${at(now - 5 * 86_400_000)}&to=${at(now - 3 * 86_400_000)}`)).json();
  expect(old.items).toEqual([]);
  expect(Date.parse(old.from)).toBeGreaterThanOrEqual(Date.parse(old.retention_from));
  const def = await (await s.api('GET', `/v1/channels/${ch.id}/catchup`)).json();
  expect(Math.abs(Date.parse(def.retention_from) - (now - 24 * 3_600_000))).toBeLessThan(5000);
  expect((await s.api('GET', '/v1/channels/0194e0a1-0000-7000-8000-000000000000/catchup')).status).toBe(404);
  expect((await fetch(`${s.url}/m/catchup/${ch.slug}/${now - 60_000}/${now}/master.m3u8?c=default`)).status).toBe(404);
  expect((await fetch(`${s.url}/m/catchup/${ch.slug}/${now}/${now - 60_000}/master.m3u8?c=default`)).status).toBe(404);
});
