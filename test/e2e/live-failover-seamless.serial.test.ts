/**
 * A failover to a hot backup leaves no hole in the recording: the backup's segments from the primary's last seconds
 * (packaged while the primary was still on air) are spliced in at the switch. Real SRT from two ffmpeg pushers.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, push, pushForever } from './live-helpers';
import { ffmpegPlay } from './interop-helpers';
import { liveControl } from '../../src/live/registry';
import type { LiveEngine } from '../../src/live/manager';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });
afterAll(async () => { await killPushers(); await s?.stop(); });

interface Row { start_ms: number; duration_ms: number; init_ms: number; discontinuity: number }
type Json = Record<string, unknown>;

test('primary killed, hot backup takes over: no recording gap ≥ 1 s around the switch; the window plays without a hole', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Seamless', ingest: { failover_s: 2 }, recording: { retention_hours: 24 } })).json() as { id: string; slug: string };
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json() as { srt: { primary: { url: string }; backup: { url: string } } };
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  const rows = () => s.ctx.db.query<Row, [string]>("SELECT start_ms, duration_ms, init_ms, discontinuity FROM live_segments WHERE channel_id = ? AND rendition = 'src' ORDER BY start_ms").all(ch.id);
  const get = async () => (await s.api('GET', `/v1/channels/${ch.id}`)).json() as Promise<{ status: string; feed: string }>;

  const primary = push(ing.srt.primary.url); // no reconnect: it is killed for good
  const backup = pushForever(ing.srt.backup.url);
  await waitFor('live on primary', async () => { const c = await get(); return c.status === 'live' && c.feed === 'primary'; }, 30_000);
  // The backup has been packaging for a while (its segments are held, not recorded) and the primary has a few segments.
  await waitFor('4 primary segments', () => rows().length >= 4, 40_000);
  const rt = (liveControl(s.ctx.db) as LiveEngine).runtimes.get(ch.id)!;
  await waitFor('backup receiving', () => rt.inputs.backup.alive(2000), 30_000, 200);
  const beforeKill = rows();
  const primaryInit = beforeKill[beforeKill.length - 1].init_ms;

  // Kill mid-segment: about a second after a primary segment landed (a deliberate phase, not a wait for a
  // condition), so the primary's unfinished segment is lost and the backup's next cut comes well after the switch.
  const n = rows().length;
  await waitFor('a fresh primary segment', () => rows().length > n, 20_000, 50);
  await Bun.sleep(1000);
  primary.kill('SIGKILL');
  await waitFor('feed backup', async () => (await get()).feed === 'backup', 30_000);
  // Three backup segments recorded after the switch (the spliced ones count too, so wait for the live edge to move on).
  const switchedAt = Date.now();
  await waitFor('backup recorded past the switch', () => { const r = rows(); const l = r[r.length - 1]; return l.init_ms !== primaryInit && l.start_ms > switchedAt + 2000; }, 40_000, 200);
  backup.stop().catch(() => undefined);

  const all = rows();
  const firstBackup = all.findIndex((r) => r.init_ms !== primaryInit && r.start_ms > beforeKill[0].start_ms);
  expect(firstBackup).toBeGreaterThan(0);
  // Around the switch (two primary segments before it on), every segment starts where the previous one ended
  // (within the index's 1 s rule); the switch is one discontinuity (another init segment).
  const w = Math.max(0, firstBackup - 2);
  for (let i = w + 1; i < all.length; i++) {
    const hole = all[i].start_ms - (all[i - 1].start_ms + all[i - 1].duration_ms);
    expect(Math.abs(hole)).toBeLessThan(1000);
  }
  expect(all[firstBackup].discontinuity).toBe(1);
  expect(all.slice(firstBackup + 1).every((r) => r.discontinuity === 0)).toBe(true);

  // The history reports no gap over that window, and the failover.
  const a = all[w].start_ms, to = all[all.length - 1].start_ms + all[all.length - 1].duration_ms;
  const h = await (await s.api('GET', `/v1/channels/${ch.id}/history?from=${new Date(a).toISOString()}&to=${new Date(to).toISOString()}`)).json() as { gaps: Json[]; failovers: { from: string; to: string }[] };
  expect(h.gaps).toEqual([]);
  expect(h.failovers.some((f) => f.from === 'primary' && f.to === 'backup')).toBe(true);

  // The recorded window plays through without a hole in its frames, for as long as it lasts.
  const tok = await (await s.api('POST', '/v1/playback/tokens', { catchup: { channel: ch.slug, start: a, end: to } })).json() as { src: string };
  const play = await ffmpegPlay(tok.src, (to - a) / 1000);
  expect(play.note).not.toContain('hole');
  expect(play.ok).toBe(true);
}, 180_000);
