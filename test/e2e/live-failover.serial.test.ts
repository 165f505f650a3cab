import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, parseMedia, probeSegment, pushForever } from './live-helpers';
import { firstVideoTimes } from './gst-helpers';
import { eventsAfter } from '../../src/kernel/events/outbox';
import { liveControl } from '../../src/live/registry';
import type { LiveEngine } from '../../src/live/manager';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });
afterAll(async () => { await killPushers(); await s?.stop(); });

const get = async (id: string) => (await s.api('GET', `/v1/channels/${id}`)).json();

test('failover to backup when the primary is killed mid-segment, primary taken back, both gone = waiting + gap; killed ffmpeg restarts', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Failover', ingest: { failover_s: 2 } })).json();
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  let primary = pushForever(ing.srt.primary.url);
  const backup = pushForever(ing.srt.backup.url);
  await waitFor('live on primary', async () => { const c = await get(ch.id); return c.status === 'live' && c.feed === 'primary'; }, 20_000);
  await waitFor('2 primary segments', () => s.ctx.db.query('SELECT COUNT(*) AS n FROM live_segments WHERE channel_id = ?').get(ch.id) as { n: number } | null, 5000);

  // kill -9 the primary pusher mid-segment: the backup becomes the feed.
  await primary.stop();
  await waitFor('feed backup', async () => (await get(ch.id)).feed === 'backup', 15_000);
  const ev = eventsAfter(s.ctx.db, 0, 500).filter((e) => (e.data as { channel_id: string }).channel_id === ch.id);
  expect(ev.some((e) => e.type === 'channel.ingest_failover' && (e.data as { to: string }).to === 'backup')).toBe(true);
  const nBackup = (s.ctx.db.query('SELECT COUNT(*) AS n FROM live_segments WHERE channel_id = ?').get(ch.id) as { n: number }).n;
  await waitFor('backup segments indexed', () => (s.ctx.db.query('SELECT COUNT(*) AS n FROM live_segments WHERE channel_id = ?').get(ch.id) as { n: number }).n > nBackup, 10_000);

  // The primary returns: taken back on its next segment, without operator action.
  primary = pushForever(ing.srt.primary.url);
  await waitFor('feed primary again', async () => (await get(ch.id)).feed === 'primary', 20_000);
  const media = await (await fetch(`${s.url}/live/default/failover/src/index.m3u8`)).text();
  expect(media).toContain('#EXT-X-DISCONTINUITY');
  expect(eventsAfter(s.ctx.db, 0, 500).some((e) => e.type === 'channel.ingest_failover' && (e.data as { to: string }).to === 'primary')).toBe(true);

  // Kill the channel's own ffmpeg: the supervisor restarts it, the pusher reconnects, the index shows a gap.
  const engine = liveControl(s.ctx.db) as LiveEngine;
  const rt = engine.runtimes.get(ch.id)!;
  const before = rt.inputs.primary.restarts;
  const nBefore = (s.ctx.db.query('SELECT COUNT(*) AS n FROM live_segments WHERE channel_id = ?').get(ch.id) as { n: number }).n;
  rt.inputs.primary.killHard();
  await waitFor('ffmpeg restarted', () => rt.inputs.primary.restarts > before, 10_000);
  await waitFor('primary live again after restart', async () => {
    const n = (s.ctx.db.query('SELECT COUNT(*) AS n FROM live_segments WHERE channel_id = ?').get(ch.id) as { n: number }).n;
    return (await get(ch.id)).feed === 'primary' && n > nBefore + 2;
  }, 30_000);
  expect((await (await s.api('GET', `/v1/channels/${ch.id}/logs`)).json()).restarts).toBeGreaterThan(0);

  // Both gone: waiting, recording gap.
  await Promise.all([primary.stop(), backup.stop()]);
  const w = await waitFor('waiting', async () => { const c = await get(ch.id); return c.status === 'waiting' && c; }, 15_000);
  expect(w.feed).toBe('none');
  expect(w.recording).toBe('gap');
  expect(eventsAfter(s.ctx.db, 0, 500).some((e) => e.type === 'channel.recording_status' && (e.data as { recording: string }).recording === 'gap')).toBe(true);

  // No corrupt segment was indexed: every one decodes with its init segment.
  const rows = s.ctx.db.query<{ path: string; init_ms: number; discontinuity: number; start_ms: number }, [string]>('SELECT path, init_ms, discontinuity, start_ms FROM live_segments WHERE channel_id = ? ORDER BY start_ms').all(ch.id);
  expect(rows.filter((r) => r.discontinuity).length).toBeGreaterThanOrEqual(2);
  const times: { dts: number }[] = [];
  for (const r of rows) {
    const init = readFileSync(`${s.dataDir}/rec/${r.path.split('/').slice(0, 3).join('/')}/init/${r.init_ms}.mp4`);
    expect(await probeSegment(init, readFileSync(`${s.dataDir}/rec/${r.path}`), `${s.dataDir}/p.mp4`)).toBe(true);
    times.push((await firstVideoTimes(init, readFileSync(`${s.dataDir}/rec/${r.path}`), `${s.dataDir}/p.mp4`))!);
  }
  // One media timeline across failovers and restarts: decode time rises with each segment's wall-clock start.
  for (let i = 1; i < rows.length; i++) {
    expect(times[i].dts).toBeGreaterThan(times[i - 1].dts);
    expect(Math.abs(times[i].dts - times[0].dts - (rows[i].start_ms - rows[0].start_ms) / 1000)).toBeLessThan(0.25);
  }
  // Playlist segments have monotonic PDTs.
  const segs = parseMedia(await (await fetch(`${s.url}/live/default/failover/src/index.m3u8`)).text());
  for (let i = 1; i < segs.length; i++) expect(segs[i].pdt).toBeGreaterThanOrEqual(segs[i - 1].pdt);
}, 150_000);
