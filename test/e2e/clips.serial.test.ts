import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, probeSegment, push } from './live-helpers';
import { at, playThrough, recordChannel } from './catchup-helpers';
import { defaultTenantId } from './guide-helpers';
import { eventsAfter } from '../../src/kernel/events/outbox';
import { IdentityService } from '../../src/features/identity/service';
import { channelById } from '../../src/features/channels/service';
import { SegmentIndex } from '../../src/live/segment-index';
import { trimBefore } from '../../src/live/retention';

let s: TestServer;
afterAll(async () => { await killPushers(); await s?.stop(); });
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });

type Clip = { id: string; status: string; precision: string; expires_at: string | null; expired: boolean; playback: { hls: string }; renditions: string[] };

test('segment clip ready at once, frame clip turns final (across a recording gap), bad input, retention expiry', async () => {
  const { ch, pusher, segs } = await recordChannel(s, 'Clips One', 6, 2);
  await pusher.exited;
  await waitFor('first run indexed', async () => { const n = segs().length; await Bun.sleep(600); return n >= 2 && segs().length === n; }, 20_000);
  const gapAt = Date.now();
  await Bun.sleep(2500);
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json() as { srt: { primary: { url: string } } };
  const second = push(ing.srt.primary.url, { seconds: 6 });
  await second.exited;
  await waitFor('second run indexed', async () => { const n = segs().length; await Bun.sleep(600); return segs().some((x) => x.start_ms > gapAt) && segs().length === n; }, 25_000);
  const rec = segs();
  const first = rec[0].start_ms, last = rec[rec.length - 1].start_ms + rec[rec.length - 1].duration_ms;

  // Segment precision: ready at once, clip.ready, expires with the retention, plays (also through a token).
  const r1 = await s.api('POST', '/v1/clips', { channel_id: ch.id, start_at: at(first + 500), end_at: at(last - 500), title: 'Goal' });
  expect(r1.status).toBe(201);
  const seg = await r1.json() as Clip;
  expect(seg).toMatchObject({ status: 'ready', precision: 'segment', renditions: ['src'], expired: false });
  expect(Date.parse(seg.expires_at!)).toBe(first + 24 * 3_600_000);
  const p1 = await playThrough(seg.playback.hls);
  expect(p1.codes.every((c) => c === 200)).toBe(true);
  expect(p1.variant).toContain('#EXT-X-DISCONTINUITY');
  expect(p1.variant).toContain('#EXT-X-ENDLIST');
  const tok = await (await s.api('POST', '/v1/playback/tokens', { clip: seg.id })).json() as { src: string };
  expect(tok.src).toContain(`/t/`);
  expect((await playThrough(tok.src)).codes.every((c) => c === 200)).toBe(true);
  expect(eventsAfter(s.ctx.db, 0, 500).filter((e) => e.type === 'clip.ready').map((e) => (e.data as { clip: string }).clip)).toEqual([seg.id]);

  // Frame precision over the gap: finalizing, then final with clip.ready and clip.final; exact duration.
  const from = first + 1300, to = last - 1100;
  const fr = await (await s.api('POST', '/v1/clips', { channel_id: ch.id, start_at: at(from), end_at: at(to), precision: 'frame' })).json() as Clip;
  expect(fr.status).toBe('finalizing');
  const done = await waitFor('frame clip final', async () => { const c = await (await s.api('GET', `/v1/clips/${fr.id}`)).json() as Clip; return c.status === 'final' && c; }, 60_000) as Clip;
  expect(done.expires_at).toBeNull();
  const types = eventsAfter(s.ctx.db, 0, 500).filter((e) => (e.data as { clip?: string }).clip === fr.id).map((e) => e.type);
  expect(types).toEqual(['clip.ready', 'clip.final']);
  const tenant = defaultTenantId(s);
  expect(existsSync(`${s.dataDir}/media/${tenant}/clips/${fr.id}/src/index.m3u8`)).toBe(true);
  const p2 = await playThrough(done.playback.hls);
  expect(p2.codes.every((c) => c === 200)).toBe(true);
  expect(p2.variant).toContain('#EXT-X-DISCONTINUITY');
  const total = [...p2.variant.matchAll(/#EXTINF:([\d.]+),/g)].reduce((a, m) => a + Number(m[1]) * 1000, 0);
  const recordedInside = rec.reduce((a, x) => a + Math.max(0, Math.min(to, x.start_ms + x.duration_ms) - Math.max(from, x.start_ms)), 0);
  expect(Math.abs(total - recordedInside)).toBeLessThan(50);
  // Every piece decodes with its own init segment (copied GOPs and re-encoded edges alike).
  const base = done.playback.hls.replace('master.m3u8', 'src/');
  const lines = p2.variant.split('\n');
  let map = '';
  for (const l of lines) {
    if (l.startsWith('#EXT-X-MAP:URI="')) map = l.slice(16, -1);
    else if (l && !l.startsWith('#')) {
      const init = new Uint8Array(await (await fetch(new URL(map, base))).arrayBuffer());
      const media = new Uint8Array(await (await fetch(new URL(l, base))).arrayBuffer());
      expect(await probeSegment(init, media, `${s.dataDir}/probe.mp4`)).toBe(true);
    }
  }

  // Bad input.
  const post = (b: Record<string, unknown>, key?: string) => s.api('POST', '/v1/clips', { channel_id: ch.id, start_at: at(first), end_at: at(last), ...b }, key ? { key } : {});
  const field = async (r: Response) => ((await r.json()) as { errors?: { field: string }[] }).errors?.[0]?.field;
  let r = await post({ end_at: at(first + 6 * 3_600_000 + 1000) });
  expect(r.status).toBe(422);
  r = await post({ end_at: at(first) });
  expect([r.status, await field(r)]).toEqual([422, 'end_at']);
  r = await post({ start_at: at(first - 7_200_000), end_at: at(first - 3_600_000) });
  expect([r.status, await field(r)]).toEqual([422, 'start_at']);
  r = await post({ asset_id: '0194e0a1-0000-7000-8000-000000000000' });
  expect([r.status, await field(r)]).toEqual([422, 'asset_id']);
  r = await post({ renditions: ['1080p'] });
  expect([r.status, await field(r)]).toEqual([422, 'renditions']);
  const editor = new IdentityService(s.ctx.db, s.ctx.keys).createKey(tenant, { role: 'editor' }).key;
  expect((await post({ publish: true }, editor)).status).toBe(403);
  expect((await post({}, editor)).status).toBe(201);
  expect((await post({ publish: true })).status).toBe(201);
  expect((await s.api('GET', '/v1/clips/0194e0a1-0000-7000-8000-000000000000')).status).toBe(404);
  const list = await (await s.api('GET', '/v1/clips?limit=2')).json() as { items: Clip[]; next_cursor: string | null };
  expect(list.items.length).toBe(2);
  expect(list.next_cursor).not.toBeNull();

  // Retention removes the recording: the segment clip expires cleanly (410, never 500); the final clip still plays.
  const row = channelById(s.ctx, tenant, ch.id)!;
  trimBefore(new SegmentIndex(s.ctx.db, s.ctx.config.dataDir), row, Date.now() + 1000);
  const gone = await fetch(seg.playback.hls);
  expect(gone.status).toBe(410);
  expect((await fetch(seg.playback.hls.replace('master.m3u8', `src/seg/${rec[1].start_ms}.m4s`))).status).toBeOneOf([404, 410]);
  expect((await (await s.api('GET', `/v1/clips/${seg.id}`)).json() as Clip).expired).toBe(true);
  expect((await playThrough(done.playback.hls)).codes.every((c) => c === 200)).toBe(true);
  expect((await s.api('DELETE', `/v1/clips/${fr.id}`)).status).toBe(204);
  expect(existsSync(`${s.dataDir}/media/${tenant}/clips/${fr.id}`)).toBe(false);
}, 90_000);
