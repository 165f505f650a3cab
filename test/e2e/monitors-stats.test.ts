import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { startReceiver, type Receiver } from './webhooks-receiver';
import { beaconChannel, playbackSid } from '../helpers/beacon-session';

// Audience checks from real player beacons (POST /b/v1) through the statistics store.
let s: TestServer;
let rx: Receiver;
type Json = Record<string, any>;

beforeAll(async () => {
  rx = startReceiver();
  s = await startTestServer({ env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32', VS_STATS_FLUSH_MS: '200', VS_MONITOR_EVAL_MS: '300' } });
  expect((await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['alert.firing', 'alert.resolved'] })).status).toBe(201);
}, 60_000);
afterAll(async () => { await s?.stop(); rx?.stop(); });

// Beacons count only for sessions the issuer created: one real session per viewer, on a channel of the tenant.
const sids = new Map<string, string>();
let channel = '';
const open = async (name: string) => {
  channel ||= await beaconChannel(s.url, s.key, 'Monitored');
  if (!sids.has(name)) sids.set(name, await playbackSid(s.url, s.key, { channel }));
};
const beacon = (name: string, events: Record<string, unknown>[]) => {
  const sid = sids.get(name)!;
  return fetch(`${s.url}/b/v1`, {
    method: 'POST', headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ v: 1, sid, vid: `viewer-${name}`, tenant: 'default', host: 'news.example', kind: 'live', id: channel, events: events.map((e) => ({ pos: 0, buf: 4, ...e })) }),
  });
};
const fired = (monitor: string, check: string) => rx.received.find((r) => r.body.type === 'alert.firing' && r.body.data.monitor === monitor && r.body.data.check === check);

test('startup p95 and error rate over the window fire from player beacons; concurrent viewers drop from the peak', async () => {
  for (let i = 0; i < 12; i++) await open(`sess-${i}`); // sessions first: the beacons then go out within one flush
  const t = Date.now() - 30_000;
  for (let i = 0; i < 12; i++) {
    const events: Record<string, unknown>[] = [{ e: 'view_start', t }, { e: 'play_request', t: t + 100 }, { e: 'first_frame', t: t + 3100, startup_ms: 3000 + i * 100 }];
    if (i < 3) events.push({ e: 'error', t: t + 4000, code: 'network' });
    events.push({ e: 'heartbeat', t: Date.now() - 1000, pos: 20, rebuffer_ms: 0 });
    expect((await beacon(`sess-${i}`, events)).status).toBe(204);
  }
  const qoe = (await waitFor('beacons stored', async () => {
    const q = await (await s.api('GET', '/v1/stats/qoe')).json() as Json;
    return q.startup_p95 >= 3000 ? q : null;
  }, 20_000))!;
  expect(qoe.startup_p95).toBeGreaterThan(3000);
  await waitFor('12 concurrent', async () => ((await (await s.api('GET', '/v1/stats/realtime')).json()) as Json).concurrent === 12, 20_000);

  const m = await (await s.api('POST', '/v1/monitors', {
    name: 'Audience', target_kind: 'tenant',
    checks: [{ type: 'startup_p95', threshold: 2000, for_s: 0 }, { type: 'error_rate', threshold: 0.1, for_s: 0 }, { type: 'rebuffer_ratio', threshold: 0.5, for_s: 0 }, { type: 'concurrent_drop', threshold: 50, for_s: 0 }],
  })).json() as Json;
  const p95 = (await waitFor('startup_p95 fires', () => fired(m.id, 'startup_p95'), 20_000))!;
  expect(p95.body.data.value).toBeGreaterThan(3000);
  expect(p95.body.data.threshold).toBe(2000);
  const err = (await waitFor('error_rate fires', () => fired(m.id, 'error_rate'), 20_000))!;
  expect(err.body.data.value).toBeCloseTo(0.25, 2);
  // The peak is seen (12), then 10 viewers end their sessions: a drop of 83 %.
  await waitFor('peak sampled', async () => {
    const v = await (await s.api('GET', `/v1/monitors/${m.id}`)).json() as Json;
    return v.checks[3].since !== null;
  }, 20_000);
  for (let i = 0; i < 10; i++) expect((await beacon(`sess-${i}`, [{ e: 'ended', t: Date.now(), pos: 25 }])).status).toBe(204);
  const drop = (await waitFor('concurrent_drop fires', () => fired(m.id, 'concurrent_drop'), 30_000))!;
  expect(drop.body.data.detail).toMatchObject({ concurrent: 2, peak: 12 });
  expect(fired(m.id, 'rebuffer_ratio')).toBeUndefined();
}, 90_000);
