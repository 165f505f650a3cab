import { Slots } from '../../src/kernel/slots';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { openStats, type StatsStore } from '../../src/kernel/stats';
import { statsRuntime, type StatsRuntime } from '../../src/features/stats/runtime';
import { StatsService } from '../../src/features/stats/service';
import type { EdgeHit } from '../../src/features/stats/rows';
import type { AppContext } from '../../src/kernel/context';
import type { StatsQuery } from '../../src/features/stats/query';
import { EVENT_COLUMNS, ensureTables } from '../../src/features/stats/tables';
import { sessionize, ROLLUP_FROM_SCRATCH } from '../../src/features/stats/sessionizer';
import { deriveSessionsSql } from '../../src/features/stats/sessions';
import type { StatsParam } from '../../src/kernel/stats';

let stats: StatsStore;
let rt: StatsRuntime;
let svc: StatsService;
const stops: (() => unknown)[] = [];
const T0 = Date.UTC(2026, 2, 1, 0, 0, 0);

beforeAll(async () => {
  stats = await openStats(':memory:');
  const ctx = {
    slots: new Slots(), stats, clock: { now: () => T0 }, log: { error: (m: string, x: unknown) => console.error(m, x), warn() {}, info() {} },
    config: { geoip: { countryDb: null, asnDb: null }, analytics: { enabled: true, flushMs: 60_000, flushRows: 37, queueMax: 100_000 } },
    onStop: (f: () => unknown) => stops.push(f),
  } as unknown as AppContext;
  rt = statsRuntime(ctx);
  await rt.ready;
  svc = new StatsService(ctx);
});
afterAll(async () => { for (const f of stops) await f(); stats.close(); });

const hit = fc.record({
  // Any millisecond of three hours, or the last of a minute (with `sub` below: rounded into the next minute or not).
  dt: fc.oneof(fc.integer({ min: 0, max: 3 * 3_600_000 - 1 }), fc.integer({ min: 1, max: 179 }).map((m) => m * 60_000 - 1)),
  // Sub-millisecond times (nginx's $msec read as milliseconds): the BIGINT column rounds them, across minute edges too.
  sub: fc.constantFrom(0, 0, 0.5, 0.4, -0.4, 0.7),
  tenant: fc.constantFrom('t1', 't2'),
  kind: fc.constantFrom('asset', 'clip', 'channel', 'catchup', 'startover'),
  target: fc.constantFrom('a', 'b', 'c/p1'),
  status: fc.constantFrom(200, 206, 304, 403, 404),
  bytes: fc.option(fc.integer({ min: 0, max: 5_000_000 }), { nil: null }),
  ttfb: fc.double({ min: 0, max: 50, noNaN: true }),
  memory: fc.boolean(),
  ua: fc.constantFrom(null, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'),
});

const METRICS = ['requests', 'bytes', 'origin_bytes', 'gbps', 'cache_hit_ratio'] as const;

describe('minute rollup = raw scan (fast-check)', () => {
  test('random event streams, flushed in random batches: every edge metric, totals and 1m/1h series, with filters', async () => {
    let run = 0;
    await fc.assert(fc.asyncProperty(fc.array(hit, { minLength: 1, maxLength: 150 }), fc.constantFrom<StatsQuery['filters']>({}, { asset: 'a' }, { channel: 'c' }, { device: 'mobile' }, { live: true }), async (hits, filters) => {
      run++;
      const base = T0 + run * 86_400_000; // a fresh day per run: runs never see each other's rows
      for (const h of hits) {
        const e: EdgeHit = { ts: base + Math.max(0, h.dt + h.sub), tenantId: h.tenant, kind: h.kind, target: h.target, rendition: null, file: null, method: 'GET', status: h.status, bytes: h.bytes, ttfbMs: h.ttfb, sid: null, source: h.memory ? 'memory' : 'disk', ip: '192.0.2.1', ua: h.ua, referrer: null };
        expect(rt.edge.offer(e)).toBe(true);
      }
      await rt.edge.flush();
      const q: StatsQuery = { tenantId: 't1', from: base, to: base + 3 * 3_600_000, filters };
      // Rollup path (minute-aligned range) vs raw path (the same range shifted by 1 ms makes it non-aligned → raw scan).
      const viaRollup = await svc.totals(q, METRICS);
      const rawQ = { ...q, from: q.from - 1 };
      const viaRaw = await svc.totals(rawQ, METRICS);
      for (const m of METRICS) {
        if (m === 'gbps') continue; // divides by the range length, which differs by 1 ms on purpose
        if (viaRollup[m] === null) expect(viaRaw[m]).toBeNull(); else expect(viaRaw[m]).toBeCloseTo(viaRollup[m]!, 9);
      }
      for (const interval of ['1m', '1h'] as const) {
        const a = await svc.timeseries(q, 'bytes', interval, 'device');
        const b = await svc.timeseries(rawQ, 'bytes', interval, 'device');
        // The raw range starts 1 ms earlier, so its series has one more (empty) bucket in front.
        const norm = (x: typeof a, skip: number) => Object.fromEntries(x.series.map((s) => [s.key, s.points.slice(skip).map((p) => p.value)]));
        expect(norm(b, 1)).toEqual(norm(a, 0));
      }
      // And the minute and day rollups (sums computed by the flush) equal a direct scan of the raw log, every measure,
      // both ways; the ttfb sums (floats added in another order) to 1e-6 ms.
      for (const [table, unit] of [['edge_minute', 60_000], ['edge_day', 86_400_000]] as const) {
        const col = table === 'edge_minute' ? 'minute' : 'day';
        const scan = `SELECT tenant_id, ts // ${unit} * ${unit} AS slot, coalesce(kind, '') k, coalesce(target, '') t, coalesce(country, '') c, coalesce(device, '') dev,
            count(*) AS requests, count(*) FILTER (WHERE status >= 400) AS errors, coalesce(sum(bytes), 0) AS bytes, count(*) FILTER (WHERE source = 'memory') AS mem,
            coalesce(sum(bytes) FILTER (WHERE source = 'memory'), 0) AS mem_bytes, coalesce(sum(ttfb_ms), 0) AS ttfb FROM edge_requests GROUP BY ALL`;
        const rolled = `SELECT tenant_id, ${col} AS slot, kind AS k, target AS t, country AS c, device AS dev, sum(requests) AS requests, sum(errors) AS errors, sum(bytes) AS bytes,
            sum(memory_requests) AS mem, sum(memory_bytes) AS mem_bytes, sum(ttfb_ms_sum) AS ttfb FROM ${table} GROUP BY ALL`;
        for (const [a, b] of [[scan, rolled], [rolled, scan]]) {
          const diff = await stats.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM ((SELECT * EXCLUDE (ttfb) FROM (${a})) EXCEPT (SELECT * EXCLUDE (ttfb) FROM (${b})))`);
          expect([table, diff[0].n]).toEqual([table, 0]);
        }
        const [t] = await stats.all<{ d: number | null }>(`SELECT max(abs(a.ttfb - b.ttfb))::DOUBLE AS d FROM (${scan}) a JOIN (${rolled}) b USING (tenant_id, slot, k, t, c, dev)`);
        expect(t.d ?? 0).toBeLessThan(1e-6);
      }
    }), { numRuns: 40 });
  }, 120_000);
});

const event = fc.record({
  sid: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
  e: fc.constantFrom('view_start', 'play_request', 'first_frame', 'heartbeat', 'rebuffer_start', 'rebuffer_end', 'pause', 'ended', 'error', 'ad_start', 'quality'),
  dt: fc.integer({ min: 0, max: 20 * 60_000 }),
  startup: fc.integer({ min: 50, max: 9000 }),
  dur: fc.integer({ min: 0, max: 9000 }),
  country: fc.constantFrom('IL', 'US'),
  kind: fc.constantFrom('vod', 'live'),
});

describe('session rollup = raw scan (fast-check)', () => {
  test('events arriving in random batches (late, out of order), sessionized between batches: sessions, minute rollup and API numbers equal a scan from scratch', async () => {
    let run = 0;
    let received = 1;
    await fc.assert(fc.asyncProperty(fc.array(fc.array(event, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 5 }), async (batches) => {
      run++;
      const tenant = `s${run}`;
      const base = T0 + 1000 * 86_400_000 + run * 86_400_000;
      for (const b of batches) {
        received += 1000;
        const rows: StatsParam[][] = b.map((x) => {
          const v: Record<string, StatsParam> = { ts: base + x.dt, received, tenant_id: tenant, sid: x.sid, viewer_id: `v${x.sid}`, kind: x.kind, content_id: x.kind === 'vod' ? 'asset-1' : 'news', channel: x.kind === 'live' ? 'news' : null, live: x.kind === 'live', e: x.e, pos: 0, buf: 0, startup_ms: x.e === 'first_frame' ? x.startup : null, dur_ms: x.e === 'rebuffer_end' ? x.dur : null, country: x.country, device: 'desktop' };
          return EVENT_COLUMNS.map((c) => v[c] ?? null);
        });
        await stats.append('player_events', rows);
        await sessionize(stats);
      }
      const diff = async (a: string, b: string) => (await stats.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM ((${a}) EXCEPT ALL (${b}))`))[0].n;
      const fresh = deriveSessionsSql(`SELECT DISTINCT tenant_id, sid FROM player_events WHERE tenant_id = '${tenant}'`);
      const kept = `SELECT * EXCLUDE (max_pos, prev_started) FROM viewer_sessions WHERE tenant_id = '${tenant}'`;
      const scratch = `SELECT * EXCLUDE (max_pos) FROM (${fresh})`;
      expect(await diff(kept, `SELECT * FROM (${scratch})`)).toBe(0);
      expect(await diff(`SELECT * FROM (${scratch})`, kept)).toBe(0);
      const rolled = `SELECT * FROM session_minute WHERE tenant_id = '${tenant}'`;
      const ref = `SELECT * FROM (${ROLLUP_FROM_SCRATCH}) WHERE tenant_id = '${tenant}'`;
      expect(await diff(rolled, ref)).toBe(0);
      expect(await diff(ref, rolled)).toBe(0);
      // API: rollup path (minute-aligned) vs the materialized sessions (range off the minute by 1 ms).
      const q: StatsQuery = { tenantId: tenant, from: base, to: base + 3_600_000, filters: {} };
      const ms = ['attempts', 'plays', 'watch_time', 'rebuffer_ratio', 'error_rate', 'startup_avg', 'ad_impressions'] as const;
      for (const f of [{}, { country: 'US' }, { channel: 'news' }, { asset: 'asset-1' }] as StatsQuery['filters'][]) {
        const a = await svc.totals({ ...q, filters: f }, ms);
        const b = await svc.totals({ ...q, filters: f, from: base - 1 }, ms);
        for (const m of ms) { if (a[m] === null) expect(b[m]).toBeNull(); else expect(b[m]).toBeCloseTo(a[m]!, 9); }
      }
    }), { numRuns: 30 });
  }, 180_000);
});


describe('origin flush is one transaction', () => {
  test('a rollup row that cannot be written leaves no rows of the batch in the log (all or nothing, as the staged flush was)', async () => {
    const count = async () => (await stats.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM edge_requests WHERE tenant_id = 'tx'`))[0].n;
    const row: StatsParam[] = [T0, 'tx', 'asset', 'a', null, null, 'GET', 200, 10, 1, null, 'disk', null, null, null, 'other', null, null, null, null];
    // edge_minute.tenant_id is NOT NULL: the third append fails after the rows were appended.
    await expect(stats.appendAll([{ table: 'edge_requests', rows: [row] }, { table: 'edge_minute', rows: [[null, T0, '', '', '', '', 1, 0, 0, 0, 0, 0]] }])).rejects.toThrow();
    expect(await count()).toBe(0);
    await stats.appendAll([{ table: 'edge_requests', rows: [row] }, { table: 'edge_minute', rows: [['tx', T0, '', '', '', '', 1, 0, 0, 0, 0, 0]] }]);
    expect(await count()).toBe(1);
    await stats.run(`DELETE FROM edge_requests WHERE tenant_id = 'tx'`);
    await stats.run(`DELETE FROM edge_minute WHERE tenant_id = 'tx'`);
  });
});

describe('rows an older version staged', () => {
  test('are moved once at start: into the log, with their minute and day rollups; edge_stage ends empty', async () => {
    const st = await openStats(':memory:');
    const own: (() => unknown)[] = [];
    try {
      await ensureTables(st);
      const rows: StatsParam[][] = [0, 1, 2].map((i) => [T0 + i * 30_000, 'up', 'asset', 'a', null, null, 'GET', i === 2 ? 404 : 200, 100, 2, null, i ? 'disk' : 'memory', null, null, null, 'other', null, null, null, null]);
      await st.append('edge_stage', rows);
      const ctx = {
        slots: new Slots(), stats: st, clock: { now: () => T0 }, log: { error: (m: string, x: unknown) => console.error(m, x), warn() {}, info() {} },
        config: { geoip: { countryDb: null, asnDb: null }, analytics: { enabled: true, flushMs: 60_000, flushRows: 1000, queueMax: 1000 } },
        onStop: (f: () => unknown) => own.push(f),
      } as unknown as AppContext;
      await statsRuntime(ctx).ready;
      const n = async (sql: string) => (await st.all<{ n: number }>(`SELECT (${sql})::DOUBLE AS n`))[0].n;
      expect(await n('SELECT count(*) FROM edge_stage')).toBe(0);
      expect(await n(`SELECT count(*) FROM edge_requests WHERE tenant_id = 'up'`)).toBe(3);
      expect(await st.all(`SELECT minute::DOUBLE AS m, sum(requests)::DOUBLE AS r, sum(errors)::DOUBLE AS e, sum(memory_bytes)::DOUBLE AS mb FROM edge_minute GROUP BY ALL ORDER BY ALL`))
        .toEqual([{ m: T0, r: 2, e: 0, mb: 100 }, { m: T0 + 60_000, r: 1, e: 1, mb: 0 }]);
      expect(await n(`SELECT sum(requests) FROM edge_day WHERE day = ${T0}`)).toBe(3);
    } finally { for (const f of own) await f(); await st.close(); }
  });
});
