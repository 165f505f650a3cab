import { Slots } from '../../src/kernel/slots';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openStats, type StatsStore, type StatsParam } from '../../src/kernel/stats';
import { ensureTables } from '../../src/features/stats/tables';
import { sessionize } from '../../src/features/stats/sessionizer';
import { EVENT_COLUMNS } from '../../src/features/stats/tables';
import { StatsService } from '../../src/features/stats/service';
import type { AppContext } from '../../src/kernel/context';
import type { StatsQuery } from '../../src/features/stats/query';

let stats: StatsStore;
let svc: StatsService;
const T = 'tenant-1';
const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);

/** A player event row with defaults. */
function ev(sid: string, e: string, t: number, x: Partial<Record<(typeof EVENT_COLUMNS)[number], StatsParam>> = {}): StatsParam[] {
  const base: Record<string, StatsParam> = { ts: T0 + t, received: T0 + t, tenant_id: T, sid, viewer_id: `v-${sid}`, page_host: 'news.example', page_url: null, kind: 'vod', content_id: 'asset-a', channel: null, live: false, e, pos: 0, buf: 0, startup_ms: null, dur_ms: null, level: null, pathway: null, error: null, ip_hash: null, country: 'IL', asn: null, device: 'desktop', user_agent: null, referrer: null, data: null, ...x };
  return EVENT_COLUMNS.map((c) => base[c] ?? null);
}

const q = (filters: StatsQuery['filters'] = {}): StatsQuery => ({ tenantId: T, from: T0 - 60_000, to: T0 + 3_600_000, filters });

beforeAll(async () => {
  stats = await openStats(':memory:');
  await ensureTables(stats);
  const ctx = { slots: new Slots(), stats, config: { geoip: { countryDb: null, asnDb: null }, analytics: { enabled: true, flushMs: 60_000 } }, clock: { now: () => T0 }, log: { error() {}, warn() {}, info() {} }, onStop() {} } as unknown as AppContext;
  svc = new StatsService(ctx);
  await stats.append('player_events', [
    // s1: play request at 0, first frame at 1.5 s (startup 1500), rebuffer 2 s, pause at 20 s, resume 30 s, ended 40 s.
    ev('s1', 'view_start', 0), ev('s1', 'play_request', 0), ev('s1', 'first_frame', 1500, { startup_ms: 1500 }),
    ev('s1', 'rebuffer_start', 5000), ev('s1', 'rebuffer_end', 7000, { dur_ms: 2000 }), ev('s1', 'heartbeat', 15000),
    ev('s1', 'pause', 20000), ev('s1', 'play_request', 30000), ev('s1', 'ended', 40000),
    // s2: play request, first frame startup 500, heartbeat, no end (watch 0 → 15 s).
    ev('s2', 'view_start', 0), ev('s2', 'play_request', 0), ev('s2', 'first_frame', 500, { startup_ms: 500 }), ev('s2', 'heartbeat', 15000),
    // s3: exit before start (play request, never a frame, no error).
    ev('s3', 'view_start', 0), ev('s3', 'play_request', 0), ev('s3', 'pause', 3000),
    // s4: error before start (not an exit before start, counts in error rate); other country and device.
    ev('s4', 'play_request', 0, { country: 'US', device: 'mobile' }), ev('s4', 'error', 2000, { error: 'decode', country: 'US', device: 'mobile' }),
    // s5: never asked to play (view only): not an attempt.
    ev('s5', 'view_start', 0),
  ]);
  expect(await sessionize(stats)).toBe(5);
});
afterAll(() => stats.close());

describe('session formulas (hand-computed)', () => {
  test('attempts, plays, exits, errors, startup, watch time, rebuffer ratio, completion', async () => {
    const all = ['attempts', 'plays', 'viewers', 'watch_time', 'rebuffer_ratio', 'error_rate', 'startup_avg', 'startup_p95'] as const;
    const t = await svc.totals(q(), all);
    // A range off the minute reads the materialized sessions instead of the rollup: the same numbers.
    expect(await svc.totals({ ...q(), from: q().from + 1 }, all)).toEqual(t);
    expect(t.attempts).toBe(4); // s1..s4
    expect(t.plays).toBe(2); // s1, s2
    expect(t.viewers).toBe(5); // distinct viewer ids of every session
    // s1: playing 0→20 s (20 s) and 30→40 s (10 s) = 30 s; s2: 0→15 s = 15 s; s3: 0→3 s = 3 s; s4: 0→2 s = 2 s.
    expect(t.watch_time).toBe(50);
    expect(t.rebuffer_ratio).toBeCloseTo(2000 / 50_000, 10);
    expect(t.error_rate).toBeCloseTo(1 / 4, 10);
    expect(t.startup_avg).toBe(1000); // (1500 + 500) / 2
    expect(t.startup_p95).toBeCloseTo(500 + 0.95 * 1000, 6); // linear interpolation between 500 and 1500
    const qoe = await svc.qoe(q());
    expect(qoe.exits_before_start).toBe(1); // s3 only (s4 failed with an error)
    expect(qoe.rebuffer_count).toBe(1);
    const c = await svc.completion(q());
    expect(c.completion_rate).toBe(0.5); // s1 ended of the 2 plays
  });

  test('filters narrow the sessions', async () => {
    const us = await svc.totals(q({ country: 'US' }), ['attempts', 'plays', 'error_rate']);
    expect(us).toEqual({ attempts: 1, plays: 0, error_rate: 1 });
    const none = await svc.totals(q({ asset: 'other' }), ['attempts', 'rebuffer_ratio', 'startup_avg']);
    expect(none).toEqual({ attempts: 0, rebuffer_ratio: null, startup_avg: null });
  });

  test('timeseries buckets sessions by their first event; top ranks content', async () => {
    const ts = await svc.timeseries(q(), 'plays', '1m', null);
    expect(ts.points.length).toBe(61);
    expect(ts.points.find((p) => p.t === new Date(T0).toISOString())!.value).toBe(2);
    const top = await svc.top(q(), 'assets', 'watch_time', 10);
    expect(top.items).toEqual([{ id: 'asset-a', value: 50 }]);
    const by = await svc.timeseries(q(), 'attempts', '1h', 'country');
    expect(by.series.map((s) => s.key).sort()).toEqual(['IL', 'US']);
  });

  test('realtime: sessions with an event in the last 2 minutes, not paused, ended or failed', async () => {
    const r = await svc.realtime(T, T0 + 60_000);
    expect(r.concurrent).toBe(1); // s2 (heartbeat); s1 ended, s3 paused, s4 failed, s5 never asked to play
    expect(r.by_content).toEqual([{ kind: 'vod', id: 'asset-a', concurrent: 1 }]);
    expect((await svc.realtime(T, T0 + 200_000)).concurrent).toBe(0);
  });
});
