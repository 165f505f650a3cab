import { Slots } from '../../src/kernel/slots';
import { afterAll, beforeAll, expect, test } from 'bun:test';
import fc from 'fast-check';
import { openStats, type StatsStore } from '../../src/kernel/stats';
import { BeaconIngest } from '../../src/features/player/beacon-ingest';
import type { BeaconBody } from '../../src/features/player/beacon-model';
import type { AppContext } from '../../src/kernel/context';

// Beacons are staged one row per beacon and unnested into player_events by SQL (beacon-stage.ts): for any valid
// beacon the stored rows must be what a per-event mapping gives (clamped time, level as text, extra fields as JSON).
let stats: StatsStore;
let ingest: BeaconIngest;
/** The sessions "issued" for this test: beacons bind to them (beacon-binding.ts); target ids as the issuer stores them. */
const sessions = new Map<string, { sid: string; tenant_id: string; target_kind: string; target_id: string; via: string }>();
const stops: (() => unknown)[] = [];
const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

beforeAll(async () => {
  stats = await openStats(':memory:');
  const ctx = {
    slots: new Slots(), stats, clock: { now: () => NOW }, log: { error: (m: string, x: unknown) => console.error(m, x), warn() {}, info() {} },
    onStop: (f: () => unknown) => stops.push(f),
  } as unknown as AppContext;
  ingest = new BeaconIngest(ctx, (slug) => (slug === 'default' ? 'tenant-1' : null), (sid) => sessions.get(sid) ?? null);
});
afterAll(async () => { for (const f of stops) await f(); stats.close(); });

const KNOWN = new Set(['e', 't', 'pos', 'buf', 'startup_ms', 'dur_ms', 'level', 'error', 'pathway']);
const text = fc.string({ unit: 'grapheme', maxLength: 12 });
const event = fc.record({
  e: fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/),
  t: fc.oneof(fc.integer({ min: NOW - 3 * 86_400_000, max: NOW + 3 * 86_400_000 }), fc.constant(0), fc.constant(Number.MAX_SAFE_INTEGER)),
  pos: fc.double({ min: 0, max: 1e9, noNaN: true }), buf: fc.double({ min: 0, max: 1e4, noNaN: true }),
  startup_ms: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: undefined }),
  dur_ms: fc.option(fc.nat(), { nil: undefined }),
  level: fc.option(fc.oneof(fc.integer({ min: -5, max: 10_000 }), text), { nil: undefined }),
  error: fc.option(text, { nil: undefined }), pathway: fc.option(text, { nil: undefined }),
  data: fc.option(text, { nil: undefined }), custom: fc.option(fc.oneof(fc.integer(), text, fc.array(fc.boolean())), { nil: undefined }),
}, { requiredKeys: ['e', 't', 'pos', 'buf'] });
const beacon = fc.record({
  sid: fc.uuid(), vid: text.filter((s) => s.length > 0), kind: fc.constantFrom('live', 'vod', 'clip'), id: fc.option(text, { nil: null }),
  host: fc.option(text, { nil: undefined }), events: fc.array(event, { minLength: 1, maxLength: 12 }),
});

test('staged beacons land as the same rows a per-event mapping gives (fast-check)', async () => {
  let run = 0;
  await fc.assert(fc.asyncProperty(beacon, async (generated) => {
    const b = { ...generated, sid: `${generated.sid}-${++run}` }; // shrinking repeats values: each run its own session
    const body = { v: 1, tenant: 'default', ...b } as BeaconBody;
    const target = b.id ?? `content-${run}`; // a beacon that names no content takes its session's
    sessions.set(b.sid, { sid: b.sid, tenant_id: 'tenant-1', target_kind: b.kind === 'vod' ? 'asset' : b.kind === 'live' ? 'channel' : b.kind, target_id: target, via: 'session' });
    const expected = b.events.map((ev) => {
      const extra: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(ev)) if (!KNOWN.has(k) && v !== undefined) extra[k] = v;
      return {
        ts: Math.abs(ev.t - NOW) > 86_400_000 ? NOW : ev.t, received: NOW, tenant_id: 'tenant-1', sid: b.sid, viewer_id: b.vid, page_host: b.host ?? null,
        kind: b.kind, content_id: target, channel: b.kind === 'live' ? target : null, live: b.kind === 'live', e: ev.e, pos: ev.pos, buf: ev.buf,
        startup_ms: ev.startup_ms ?? null, dur_ms: ev.dur_ms ?? null, level: ev.level === undefined ? null : String(ev.level),
        pathway: ev.pathway ?? null, error: ev.error ?? null, data: Object.keys(extra).length ? extra : null,
      };
    });
    ingest.accept(JSON.parse(JSON.stringify(body)), { ip: '192.0.2.1', ua: 'test-agent', referrer: null });
    await ingest.flush();
    const rows = await stats.all<Record<string, unknown>>(`SELECT ts::DOUBLE AS ts, received::DOUBLE AS received, tenant_id, sid, viewer_id, page_host, kind, content_id, channel, live, e, pos, buf,
      startup_ms, dur_ms, level, pathway, error, data FROM player_events WHERE sid = ? ORDER BY rowid`, [b.sid]);
    expect(rows.map((r) => ({ ...r, data: r.data === null ? null : JSON.parse(String(r.data)) }))).toEqual(expected);
    const [{ n }] = await stats.all<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM beacon_stage');
    expect(n).toBe(0);
  }), { numRuns: 60 });
});
