/**
 * A channel's default watch (issue 42 item 5): starting a channel nothing watches creates one monitor whose feed_down
 * holds only while a guide programme is scheduled; the engine is ticked with an injected clock.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { ManualClock } from '../../src/kernel/clock';
import { MonitorEngine } from '../../src/features/monitors/engine';
import { eventsAfter } from '../../src/kernel/events/outbox';
import { liveEnv } from './live-helpers';

type Json = Record<string, any>;
let s: TestServer;
const clock = new ManualClock(Date.now());
// A long evaluation period: the test ticks the engine itself.
beforeAll(async () => { s = await startTestServer({ clock, env: { ...await liveEnv(), VS_MONITOR_EVAL_MS: '3600000' } }); }, 60_000);
afterAll(async () => { await s?.stop(); });

const json = async (r: Response) => await r.json() as Json;
const iso = (ms: number) => new Date(ms).toISOString();

test('start creates the default watch once; no feed between programmes is quiet, during one it fires after 10 s naming the programme, and resolves when the programme ends', async () => {
  const ch = await json(await s.api('POST', '/v1/channels', { name: 'Watch desk', slug: 'watch-desk' }));
  expect((await s.api('POST', `/v1/channels/${ch.id}/start`)).status).toBe(200);
  const mons = (await json(await s.api('GET', '/v1/monitors?limit=200'))).items.filter((m: Json) => m.target_id === ch.id);
  expect(mons).toHaveLength(1);
  expect(mons[0]).toMatchObject({ name: 'Watch desk', target_kind: 'channel', checks: [{ type: 'feed_down', severity: 'critical', for_s: 10, params: { during_programme: true } }] });
  // Stopping and starting again adds none; a channel another monitor watches gets none.
  await s.api('POST', `/v1/channels/${ch.id}/stop`);
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  const other = await json(await s.api('POST', '/v1/channels', { name: 'Watched', slug: 'watched' }));
  await s.api('POST', '/v1/monitors', { name: 'Mine', target_kind: 'channel', target_id: other.id, checks: [{ type: 'failover' }] });
  await s.api('POST', `/v1/channels/${other.id}/start`);
  const all = (await json(await s.api('GET', '/v1/monitors?limit=200'))).items as Json[];
  expect(all.filter((m) => m.target_id === ch.id)).toHaveLength(1);
  expect(all.filter((m) => m.target_id === other.id).map((m) => m.name)).toEqual(['Mine']);

  const engine = new MonitorEngine(s.ctx);
  const scope = new Set([mons[0].id]);
  // No programme: no feed is not an alert.
  expect((await engine.tick(clock.now(), scope)).fired).toBe(0);
  clock.advance(60_000);
  expect((await engine.tick(clock.now(), scope)).fired).toBe(0);
  // A programme on air now, still no feed: pending, then firing after 10 s, naming it.
  const t0 = clock.now();
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Noon bulletin', start_at: iso(t0 - 60_000), end_at: iso(t0 + 120_000) })).status).toBe(201);
  expect((await engine.tick(clock.now(), scope)).fired).toBe(0);
  clock.advance(10_000);
  expect((await engine.tick(clock.now(), scope)).fired).toBe(1);
  const fired = eventsAfter(s.ctx.db, 0, 1000).filter((e) => e.type === 'alert.firing').map((e) => e.data as Json);
  expect(fired).toHaveLength(1);
  expect(fired[0]).toMatchObject({ monitor_name: 'Watch desk', check: 'feed_down', severity: 'critical', inapp: true, detail: { programme: { title: 'Noon bulletin' } } });
  expect(fired[0].summary).toContain('during "Noon bulletin"');
  // The programme ends: the condition no longer holds and the alert resolves.
  clock.advance(120_000);
  expect((await engine.tick(clock.now(), scope)).resolved).toBe(1);
}, 60_000);
