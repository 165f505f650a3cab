import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { Slots } from '../../src/kernel/slots';
import { openStats, type StatsParam, type StatsStore } from '../../src/kernel/stats';
import { statsRuntime, type StatsRuntime } from '../../src/features/stats/runtime';
import { StatsService } from '../../src/features/stats/service';
import type { AppContext } from '../../src/kernel/context';
import type { StatsQuery } from '../../src/features/stats/query';
import { EVENT_COLUMNS } from '../../src/features/stats/tables';
import { SESSION_AGG, edgeAgg } from '../../src/features/stats/sessions';
import { rebuildDayRollups } from '../../src/features/stats/rollup-day';

// Day rollups (session_day, edge_day, startup_day) and prev_started: maintained by the sessionizer and the origin
// flush under random late batches, equal to a rebuild from scratch, and every total over whole days + minutes equal
// to a scan of the sessions / the raw origin log.
let stats: StatsStore;
let rt: StatsRuntime;
let svc: StatsService;
const stops: (() => unknown)[] = [];
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 5, 1);
let now = T0;

beforeAll(async () => {
  stats = await openStats(':memory:');
  const ctx = {
    slots: new Slots(), stats, clock: { now: () => now }, log: { error: (m: string, x: unknown) => console.error(m, x), warn() {}, info() {} },
    config: { geoip: { countryDb: null, asnDb: null }, analytics: { enabled: true, flushMs: 600_000, flushRows: 1000, queueMax: 100_000 } },
    onStop: (f: () => unknown) => stops.push(f),
  } as unknown as AppContext;
  rt = statsRuntime(ctx);
  await rt.ready;
  svc = new StatsService(ctx);
});
afterAll(async () => { for (const f of stops) await f(); await stats.close(); });

const event = fc.record({
  sid: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'),
  viewer: fc.constantFrom('v1', 'v2', 'v3', null),
  e: fc.constantFrom('view_start', 'play_request', 'first_frame', 'heartbeat', 'rebuffer_end', 'pause', 'ended', 'error'),
  dt: fc.integer({ min: 0, max: 3 * DAY }),
  startup: fc.constantFrom(120, 300, 300, 451.5, 900, 2000),
  country: fc.constantFrom('IL', 'US'),
});
const hit = fc.record({ dt: fc.integer({ min: 0, max: 3 * DAY }), kind: fc.constantFrom('asset', 'channel'), status: fc.constantFrom(200, 404), bytes: fc.integer({ min: 0, max: 1e6 }), memory: fc.boolean() });
const minute = fc.integer({ min: 0, max: 4 * 24 * 60 });

describe('day rollups = scans (fast-check)', () => {
  test('late batches, sessionized between them; totals over random minute-aligned ranges (whole days + minutes) equal scans', async () => {
    let run = 0;
    await fc.assert(fc.asyncProperty(fc.array(fc.array(event, { minLength: 1, maxLength: 25 }), { minLength: 1, maxLength: 4 }), fc.array(hit, { maxLength: 40 }), minute, minute, async (batches, hits, m1, m2) => {
      run++;
      const tenant = `d${run}`;
      const base = T0 + run * 10 * DAY - 3 * 3_600_000; // days start inside the data, not on its first event
      for (const b of batches) {
        const rows: StatsParam[][] = b.map((x) => {
          const v: Record<string, StatsParam> = { ts: base + x.dt, received: now++, tenant_id: tenant, sid: x.sid, viewer_id: x.viewer, kind: 'vod', content_id: 'a1', e: x.e, startup_ms: x.e === 'first_frame' ? x.startup : null, dur_ms: x.e === 'rebuffer_end' ? 700 : null, country: x.country };
          return EVENT_COLUMNS.map((c) => v[c] ?? null);
        });
        await stats.append('player_events', rows);
        await rt.sessionize();
      }
      for (const h of hits) rt.edge.offer({ ts: base + h.dt, tenantId: tenant, kind: h.kind, target: 'x', rendition: null, file: null, method: 'GET', status: h.status, bytes: h.bytes, ttfbMs: 1, sid: null, source: h.memory ? 'memory' : 'disk', ip: null, ua: null, referrer: null });
      now = base + 2 * DAY; // compaction folds the last two days only: compacted and appended day rows both occur
      await rt.flush();
      // Maintained = rebuilt from scratch.
      const snap = async () => ({
        sd: await stats.all(`SELECT * FROM session_day WHERE tenant_id = ? ORDER BY ALL`, [tenant]),
        ed: await stats.all(`SELECT tenant_id, day, kind, target, country, device, sum(requests) r, sum(bytes) b, sum(memory_requests) m FROM edge_day WHERE tenant_id = ? GROUP BY ALL ORDER BY ALL`, [tenant]),
        st: await stats.all(`SELECT * FROM startup_day WHERE tenant_id = ? ORDER BY ALL`, [tenant]),
        pv: await stats.all(`SELECT sid, prev_started FROM viewer_sessions WHERE tenant_id = ? ORDER BY ALL`, [tenant]),
      });
      const kept = await snap();
      const lo = Math.min(m1, m2), hi = Math.max(m1, m2) + 1;
      const q: StatsQuery = { tenantId: tenant, from: base - 2 * 3_600_000 + lo * 60_000, to: base - 2 * 3_600_000 + hi * 60_000, filters: {} };
      const ms = ['attempts', 'plays', 'viewers', 'watch_time', 'rebuffer_ratio', 'error_rate', 'startup_avg', 'startup_p95', 'ad_impressions'] as const;
      const got = await svc.totals(q, [...ms, 'requests', 'bytes', 'origin_bytes', 'cache_hit_ratio']);
      const [ref] = await stats.all<Record<string, number | null>>(`SELECT ${ms.map((m) => `${SESSION_AGG[m]} AS ${m}`).join(', ')} FROM viewer_sessions WHERE tenant_id = ? AND started >= ? AND started < ?`, [tenant, q.from, q.to]);
      const ea = edgeAgg(true);
      const [eref] = await stats.all<Record<string, number | null>>(`SELECT ${['requests', 'bytes', 'origin_bytes', 'cache_hit_ratio'].map((m) => `${ea[m]} AS ${m}`).join(', ')} FROM edge_requests WHERE tenant_id = ? AND ts >= ? AND ts < ?`, [tenant, q.from, q.to]);
      for (const [m, v] of Object.entries({ ...ref, ...eref })) {
        const want = v === null && !/ratio|rate|avg|p95/.test(m) ? 0 : v;
        if (want === null) expect([m, got[m]]).toEqual([m, null]); else expect([m, got[m]! - want]).toEqual([m, expect.closeTo(0, 6)]);
      }
      await rebuildDayRollups(stats);
      expect(await snap()).toEqual(kept);
    }), { numRuns: 25 });
  }, 240_000);
});
