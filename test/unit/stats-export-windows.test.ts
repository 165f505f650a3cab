import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { Slots } from '../../src/kernel/slots';
import { openStats, type StatsParam, type StatsStore } from '../../src/kernel/stats';
import { statsRuntime } from '../../src/features/stats/runtime';
import type { AppContext } from '../../src/kernel/context';
import { EVENT_COLUMNS } from '../../src/features/stats/tables';
import { exportStream, lineQuery, reportQuery } from '../../src/features/stats/export';
import { exportPlan } from '../../src/features/stats/export-windows';
import type { StatsQuery } from '../../src/features/stats/query';

// The streamed export reads its range in windows of whole hours, each sorted on its own: the body must be the same
// lines, in the same order, as one ORDER BY ts LIMIT max over the whole range, and the total the range's count.
let stats: StatsStore;
let ctx: AppContext;
const stops: (() => unknown)[] = [];
const H = 3_600_000;
const T0 = Date.UTC(2026, 6, 1);

beforeAll(async () => {
  stats = await openStats(':memory:');
  ctx = {
    slots: new Slots(), stats, clock: { now: () => T0 }, log: { error() {}, warn() {}, info() {} },
    config: { geoip: { countryDb: null, asnDb: null }, analytics: { enabled: true, flushMs: 600_000, flushRows: 1000, queueMax: 1000 } },
    onStop: (f: () => unknown) => stops.push(f),
  } as unknown as AppContext;
  await statsRuntime(ctx).ready;
});
afterAll(async () => { for (const f of stops) await f(); await stats.close(); });

let run = 0;
describe('windowed export = one sorted query (fast-check)', () => {
  test('random events over a day (distinct times), random row limits and window sizes, csv and ndjson, with a filter', async () => {
    await fc.assert(fc.asyncProperty(
      fc.uniqueArray(fc.integer({ min: 0, max: 30 * H }), { minLength: 0, maxLength: 120 }),
      fc.integer({ min: 1, max: 150 }), fc.integer({ min: 1, max: 40 }), fc.constantFrom<'csv' | 'ndjson'>('csv', 'ndjson'), fc.constantFrom<StatsQuery['filters']>({}, { country: 'IL' }),
      async (times, maxRows, windowRows, format, filters) => {
        run++;
        const tenant = `x${run}`;
        const rows: StatsParam[][] = times.map((dt, i) => {
          const v: Record<string, StatsParam> = { ts: T0 + dt, received: T0, tenant_id: tenant, sid: `s${i % 7}`, viewer_id: 'v', kind: 'vod', content_id: 'a', e: i % 3 ? 'heartbeat' : '=bad,"x"', country: i % 2 ? 'IL' : 'US', pos: i };
          return EVENT_COLUMNS.map((c) => v[c] ?? null);
        });
        if (rows.length) await stats.append('player_events', rows);
        const q: StatsQuery = { tenantId: tenant, from: T0 + 5 * H + 1234, to: T0 + 27 * H, filters };
        const plan = (await exportPlan(ctx, 'player_events', q, maxRows, windowRows))!;
        const one = reportQuery('player_events', q, true);
        const ref = await stats.all<{ line: string }>(lineQuery(one.sql, one.columns, format, maxRows), one.params);
        const [{ n }] = await stats.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM (${one.sql})`, one.params);
        expect(plan.total).toBe(n);
        let ended: [number, boolean] | null = null;
        const body = await new Response(exportStream(ctx, 'player_events', q, { format, pii: true, maxRows, plan, onEnd: (r, ok) => { ended = [r, ok]; } })).text();
        const eol = format === 'csv' ? '\r\n' : '\n';
        const lines = body.split(eol).filter((l) => l !== '');
        expect(format === 'csv' ? lines.slice(1) : lines).toEqual(ref.map((r) => r.line));
        expect(ended!).toEqual([ref.length, true]);
      }), { numRuns: 60 });
  }, 120_000);
});
