import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { statsRuntime } from '../../src/features/stats/runtime';
import { EDGE_COLUMNS, EVENT_COLUMNS } from '../../src/features/stats/tables';
import type { StatsParam } from '../../src/kernel/stats';

// Live audience per guide programme: sessions joined with the programme in effect on their channel (hand-computed).
let s: TestServer;
let ch: { id: string; slug: string };
const progs: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer({ workers: false });
  const tenantId = s.ctx.db.query<{ id: string }, []>(`SELECT id FROM tenants WHERE slug = 'default'`).get()!.id;
  ch = await (await s.api('POST', '/v1/channels', { name: 'Programme Audience', recording: { retention_hours: 24 } })).json() as { id: string; slug: string };
  const t0 = Math.floor(s.ctx.clock.now() / 60_000) * 60_000;
  const min = 60_000;
  const at = (ms: number) => new Date(ms).toISOString();
  for (const [name, a, b] of [['P1', t0 - 120 * min, t0 - 60 * min], ['P2', t0 - 60 * min, t0]] as const) {
    const r = await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: `Show ${name}`, start_at: at(a), end_at: at(b) });
    expect(r.status).toBe(201);
    progs[name] = ((await r.json()) as { id: string }).id;
  }
  await statsRuntime(s.ctx).ready;
  const ev = (sid: string, viewer: string, channel: string | null, kind: string, e: string, ts: number) => {
    const v: Record<string, StatsParam> = { ts, received: t0, tenant_id: tenantId, sid, viewer_id: viewer, kind, content_id: channel ?? 'asset-1', channel, live: kind === 'live', e, pos: 0, buf: 0 };
    return EVENT_COLUMNS.map((c) => v[c] ?? null);
  };
  const span = (sid: string, viewer: string, channel: string | null, kind: string, from: number, to: number) => [ev(sid, viewer, channel, kind, 'view_start', from), ev(sid, viewer, channel, kind, 'heartbeat', to)];
  await s.ctx.stats.append('player_events', [
    ...span('s1', 'v1', ch.slug, 'live', t0 - 90 * min, t0 - 70 * min), // P1: 20 min
    ...span('s2', 'v2', ch.slug, 'live', t0 - 65 * min, t0 - 50 * min), // P1: 5 min, P2: 10 min
    ...span('s3', 'v3', null, 'vod', t0 - 65 * min, t0 - 50 * min), // not live: not counted
    ...span('s4', 'v2', ch.id, 'live', t0 - 30 * min, t0 - 20 * min), // the channel named by id; P2: 10 min, same viewer as s2
  ]);
  const edge = (ts: number, bytes: number) => { const v: Record<string, StatsParam> = { ts, tenant_id: tenantId, kind: 'channel', target: ch.slug, method: 'GET', status: 200, bytes, ttfb_ms: 1, source: 'memory' }; return EDGE_COLUMNS.map((c) => v[c] ?? null); };
  await s.ctx.stats.append('edge_requests', [edge(t0 - 100 * min, 100), edge(t0 - 61 * min, 200), edge(t0 - 10 * min, 50)]);
  await statsRuntime(s.ctx).flush();
}, 60_000);
afterAll(async () => { await s?.stop(); });

test('GET /v1/stats/programmes: live sessions and origin answers per programme in effect', async () => {
  const r = await s.api('GET', '/v1/stats/programmes');
  expect(r.status).toBe(200);
  const live = ((await r.json()) as { items: Record<string, unknown>[] }).items.filter((i) => i.kind === 'live');
  const pick = (i: Record<string, unknown>) => ({ programme: i.programme, title: i.title, channel: i.channel, viewers: i.viewers, unique_viewers: i.unique_viewers, watch_time: i.watch_time, bytes: i.bytes, requests: i.requests });
  expect(live.map(pick)).toEqual([
    { programme: progs.P1, title: 'Show P1', channel: ch.slug, viewers: 2, unique_viewers: 2, watch_time: 25 * 60, bytes: 300, requests: 2 },
    { programme: progs.P2, title: 'Show P2', channel: ch.slug, viewers: 2, unique_viewers: 1, watch_time: 20 * 60, bytes: 50, requests: 1 },
  ]);
  // live=false leaves the live rows out; a channel filter keeps them; another channel drops them.
  expect(((await (await s.api('GET', '/v1/stats/programmes?live=false')).json()) as { items: unknown[] }).items).toEqual([]);
  expect(((await (await s.api('GET', `/v1/stats/programmes?channel=${ch.id}`)).json()) as { items: unknown[] }).items.length).toBe(2);
  expect(((await (await s.api('GET', '/v1/stats/programmes?channel=other-channel')).json()) as { items: unknown[] }).items).toEqual([]);
});
