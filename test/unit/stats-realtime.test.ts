import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { openStats, type StatsParam, type StatsStore } from '../../src/kernel/stats';
import { ensureTables, EVENT_COLUMNS } from '../../src/features/stats/tables';
import { RealtimeTracker, REALTIME_SQL, REALTIME_WINDOW_MS, REALTIME_AHEAD_MS } from '../../src/features/stats/realtime';

let stats: StatsStore;
beforeAll(async () => { stats = await openStats(':memory:'); await ensureTables(stats); });
afterAll(async () => { await stats.close(); });

const NOW = Date.UTC(2026, 4, 1, 12, 0, 0);
const SIDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
/** Each session watches one thing (kind and id fixed per sid, as a player sends them). */
const content = (sid: string): { kind: string | null; id: string | null } =>
  ({ a: { kind: 'live', id: 'news' }, b: { kind: 'vod', id: 'asset-1' }, c: { kind: 'vod', id: 'asset-2' }, d: { kind: 'clip', id: 'c1' }, e: { kind: null, id: null }, f: { kind: 'live', id: 'sport' }, g: { kind: 'vod', id: 'asset-1' }, h: { kind: 'catchup', id: null } })[sid]!;

const beacon = fc.record({
  tenant: fc.constantFrom('t1', 't2'),
  sid: fc.constantFrom(...SIDS),
  // Events in any order within the beacon, spread around the window's edges (past, inside, ahead of the clock).
  events: fc.array(fc.record({
    e: fc.constantFrom('view_start', 'play_request', 'first_frame', 'heartbeat', 'rebuffer_start', 'pause', 'ended', 'error', 'quality'),
    t: fc.integer({ min: NOW - 4 * 60_000, max: NOW + 3 * 60_000 }),
  }), { minLength: 1, maxLength: 8 }),
});

let run = 0;
async function sqlAnswer(tenant: string, now: number) {
  const rows = await stats.all<{ kind: string | null; id: string | null; n: number; total: number }>(REALTIME_SQL, [tenant, now - REALTIME_WINDOW_MS, now + REALTIME_AHEAD_MS]);
  return { concurrent: rows[0]?.total ?? 0, by_content: rows.map((r) => ({ kind: r.kind, id: r.id, concurrent: r.n })) };
}

describe('realtime tracker = SQL over the events (fast-check)', () => {
  test('random beacon streams (out-of-order events within and across beacons), answers at advancing clocks, and a tracker warmed from the table', async () => {
    await fc.assert(fc.asyncProperty(fc.array(beacon, { minLength: 1, maxLength: 25 }), fc.array(fc.integer({ min: 0, max: 90_000 }), { minLength: 1, maxLength: 4 }), async (beacons, steps) => {
      run++;
      const pre = `r${run}-`; // tenants of this run only
      const tr = new RealtimeTracker();
      const rows: StatsParam[][] = [];
      for (const b of beacons) {
        const c = content(b.sid);
        tr.observe(pre + b.tenant, b.sid, c.kind, c.id, b.events, NOW);
        for (const ev of b.events) {
          const v: Record<string, StatsParam> = { ts: ev.t, received: NOW, tenant_id: pre + b.tenant, sid: b.sid, viewer_id: 'v', kind: c.kind, content_id: c.id, channel: c.kind === 'live' ? c.id : null, live: c.kind === 'live', e: ev.e };
          rows.push(EVENT_COLUMNS.map((k) => v[k] ?? null));
        }
      }
      await stats.append('player_events', rows);
      const warmAt = NOW;
      const warmed = new RealtimeTracker();
      await warmed.warm(stats, warmAt);
      let now = NOW;
      for (const step of steps) {
        for (const t of ['t1', 't2']) {
          const ref = await sqlAnswer(pre + t, now);
          const got = tr.answer(pre + t, now);
          expect({ concurrent: got.concurrent, by_content: got.by_content }).toEqual(ref);
          const w = warmed.answer(pre + t, now);
          expect({ concurrent: w.concurrent, by_content: w.by_content }).toEqual(ref);
        }
        now += step;
        if (step % 2) tr.sweep(now); // pruning never changes an answer
      }
    }), { numRuns: 150 });
  }, 120_000);

  test('a beacon arriving after its session was pruned: an older event does not bring it back, a newer one does', () => {
    const tr = new RealtimeTracker();
    tr.observe('t', 's', 'vod', 'x', [{ e: 'heartbeat', t: NOW }], NOW);
    expect(tr.answer('t', NOW).concurrent).toBe(1);
    const later = NOW + REALTIME_WINDOW_MS + 1;
    tr.sweep(later);
    expect(tr.answer('t', later).concurrent).toBe(0);
    tr.observe('t', 's', 'vod', 'x', [{ e: 'heartbeat', t: NOW - 5 }], later);
    expect(tr.answer('t', later).concurrent).toBe(0);
    tr.observe('t', 's', 'vod', 'x', [{ e: 'pause', t: later }, { e: 'heartbeat', t: later - 1 }], later);
    expect(tr.answer('t', later).concurrent).toBe(0);
    tr.observe('t', 's', 'vod', 'x', [{ e: 'play_request', t: later + 10 }], later);
    expect(tr.answer('t', later).by_content).toEqual([{ kind: 'vod', id: 'x', concurrent: 1 }]);
  });
});
