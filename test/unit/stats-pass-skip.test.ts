import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Slots } from '../../src/kernel/slots';
import { openStats, type StatsParam, type StatsStore } from '../../src/kernel/stats';
import { statsRuntime } from '../../src/features/stats/runtime';
import { EVENT_COLUMNS } from '../../src/features/stats/tables';
import type { AppContext } from '../../src/kernel/context';

// The session pass is skipped when nothing was appended or run on the store since the last pass started, and runs
// again (deriving the new events) as soon as something was.
let stats: StatsStore;
let ctx: AppContext;
const stops: (() => unknown)[] = [];
const T0 = Date.UTC(2026, 6, 1);

beforeAll(async () => {
  stats = await openStats(':memory:');
  ctx = {
    slots: new Slots(), stats, clock: { now: () => T0 }, log: { error() {}, warn() {}, info() {}, debug() {} },
    config: { geoip: { countryDb: null, asnDb: null }, analytics: { enabled: true, flushMs: 600_000, flushRows: 1000, queueMax: 1000 } },
    onStop: (f: () => unknown) => stops.push(f),
  } as unknown as AppContext;
  await statsRuntime(ctx).ready;
}, 60_000);
afterAll(async () => { for (const f of stops) await f(); await stats.close(); });

const events = (sid: string, n: number, at: number): StatsParam[][] => Array.from({ length: n }, (_, i) => {
  const v: Record<string, StatsParam> = { ts: at + i * 1000, received: at + i * 1000, tenant_id: 't', sid, viewer_id: 'v', kind: 'vod', content_id: 'a', e: i ? 'heartbeat' : 'play_request' };
  return EVENT_COLUMNS.map((c) => v[c] ?? null);
});
const sessions = async () => (await stats.all<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM viewer_sessions'))[0].n;

test('a pass with nothing written since the last one is skipped; a write makes the next pass run', async () => {
  const rt = statsRuntime(ctx);
  await stats.append('player_events', events('s1', 3, T0));
  expect(await rt.sessionize()).toBe(1);
  expect(await sessions()).toBe(1);
  expect(await rt.sessionize()).toBe(0); // skipped: nothing appended since
  await stats.append('player_events', events('s2', 2, T0 + 60_000));
  expect(await rt.sessionize()).toBeGreaterThanOrEqual(1);
  expect(await sessions()).toBe(2);
  await stats.run(`INSERT INTO player_events (ts, received, tenant_id, sid, e) VALUES (${T0 + 120_000}, ${T0 + 120_000}, 't', 's3', 'play_request')`);
  expect(await rt.sessionize()).toBeGreaterThanOrEqual(1);
  expect(await sessions()).toBe(3);
  expect(await rt.sessionize()).toBe(0);
}, 60_000);
