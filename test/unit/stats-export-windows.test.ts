import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { Slots } from '../../src/kernel/slots';
import { openStats, type StatsParam, type StatsStore } from '../../src/kernel/stats';
import { statsRuntime } from '../../src/features/stats/runtime';
import type { AppContext } from '../../src/kernel/context';
import { EDGE_COLUMNS, EVENT_COLUMNS } from '../../src/features/stats/tables';
import { exportStream, lineQuery, reportLineQuery, reportQuery, type Report } from '../../src/features/stats/export';
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
  test('random events over a day (distinct times), random row limits, window sizes and planning spans, csv and ndjson, with a filter', async () => {
    await fc.assert(fc.asyncProperty(
      fc.uniqueArray(fc.integer({ min: 0, max: 30 * H }), { minLength: 0, maxLength: 120 }),
      fc.integer({ min: 1, max: 150 }), fc.integer({ min: 1, max: 40 }), fc.constantFrom<'csv' | 'ndjson'>('csv', 'ndjson'), fc.constantFrom<StatsQuery['filters']>({}, { country: 'IL' }),
      fc.integer({ min: 0, max: 30 }),
      async (times, maxRows, windowRows, format, filters, spanH) => {
        run++;
        const tenant = `x${run}`;
        const rows: StatsParam[][] = times.map((dt, i) => {
          const v: Record<string, StatsParam> = { ts: T0 + dt, received: T0, tenant_id: tenant, sid: `s${i % 7}`, viewer_id: 'v', kind: 'vod', content_id: 'a', e: i % 3 ? 'heartbeat' : '=bad,"x"', country: i % 2 ? 'IL' : 'US', pos: i };
          return EVENT_COLUMNS.map((c) => v[c] ?? null);
        });
        if (rows.length) await stats.append('player_events', rows);
        const q: StatsQuery = { tenantId: tenant, from: T0 + 5 * H + 1234, to: T0 + 27 * H, filters };
        // The hours are counted over spans from the start that double each time (spanH hours first; 0: at least an hour).
        const plan = (await exportPlan(ctx, 'player_events', q, maxRows, windowRows, spanH * H))!;
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

describe('lines built below the sort = lines built after the LIMIT (fast-check)', () => {
  test('every row report, csv and ndjson, hostile text, nulls, random limits', async () => {
    const text = fc.oneof(fc.constant(null), fc.string({ maxLength: 12 }), fc.constantFrom('=1+1', 'a,"b"', 'x\ny', 'עברית', '@x', '-3'));
    await fc.assert(fc.asyncProperty(
      fc.uniqueArray(fc.integer({ min: 0, max: 20 * H }), { minLength: 0, maxLength: 60 }), fc.array(text, { minLength: 60, maxLength: 60 }),
      fc.integer({ min: 1, max: 80 }), fc.constantFrom<'csv' | 'ndjson'>('csv', 'ndjson'), fc.constantFrom<Report>('player_events', 'site_events', 'edge_requests', 'sessions'),
      async (times, texts, maxRows, format, report) => {
        run++;
        const tenant = `y${run}`;
        const ev: Record<string, StatsParam>[] = times.map((dt, i) => ({ ts: T0 + dt, received: T0, tenant_id: tenant, sid: `s${i}`, viewer_id: texts[i], page_host: i % 2 ? 'h.example' : null, page_url: texts[59 - i], e: 'play', pos: i / 3, live: i % 3 === 0, asn: i, status: 200 + i, bytes: i * 1000, started: T0 + dt, last_ts: T0 + dt + 5, played: i % 2 === 0, startup_ms: i * 1.5 }));
        if (report === 'edge_requests') { if (ev.length) await stats.append('edge_requests', ev.map((v) => EDGE_COLUMNS.map((c) => v[c] ?? null))); }
        else if (report === 'sessions') { for (const v of ev) await stats.run('INSERT INTO viewer_sessions (tenant_id, sid, viewer_id, started, last_ts, kind, played, startup_ms, page_host) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [tenant, v.sid, v.viewer_id, v.started, v.last_ts, 'vod', v.played, v.startup_ms, v.page_host]); }
        else if (ev.length) await stats.append('player_events', ev.map((v) => EVENT_COLUMNS.map((c) => v[c] ?? null)));
        const rq = reportQuery(report, { tenantId: tenant, from: T0, to: T0 + 20 * H + 1, filters: {} }, true);
        const after = await stats.all<{ line: string }>(lineQuery(rq.sql, rq.columns, format, maxRows), rq.params);
        const below = await stats.all<{ line: string }>(reportLineQuery(rq, format, maxRows), rq.params);
        expect(below.map((r) => r.line)).toEqual(after.map((r) => r.line));
      }), { numRuns: 40 });
  }, 120_000);
});
