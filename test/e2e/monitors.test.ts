import { afterAll, beforeAll, expect, test } from 'bun:test';
import fc from 'fast-check';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { ManualClock } from '../../src/kernel/clock';
import { identityService } from '../../src/features/identity/service';
import { startSmtp, linkIn } from './people-helpers';
import { startReceiver, type Receiver } from './webhooks-receiver';
import { decodeWords, startFakeTelegram, type FakeTelegram } from './monitors-helpers';

// 22:30 in Jerusalem (UTC+2 in January): inside quiet hours 22:00-07:00.
const clock = new ManualClock(Date.parse('2026-01-15T20:30:00Z'));
let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let rx: Receiver;
let tg: FakeTelegram;
let admin = '';

type Json = Record<string, any>;
const json = async (r: Response) => ({ status: r.status, body: await r.json().catch(() => null) as Json });
const api = (method: string, path: string, body?: unknown, key?: string | null) => s.api(method, path, body, { key: key === undefined ? admin : key });

beforeAll(async () => {
  smtp = await startSmtp();
  rx = startReceiver();
  tg = startFakeTelegram();
  s = await startTestServer({
    clock,
    env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32', VS_SMTP_URL: smtp.url, VS_MONITOR_EVAL_MS: '150', VS_TELEGRAM_API: tg.url, VS_TELEGRAM_BOT_TOKEN: tg.token },
  });
  admin = (await (await s.api('POST', '/v1/api-keys', { role: 'admin', name: 'monitors' })).json() as { key: string }).key;
  expect((await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['alert.firing', 'alert.resolved'] })).status).toBe(201);
}, 60_000);
afterAll(async () => { await s.stop(); await smtp.stop(); rx.stop(); tg.stop(); });

/** Adds an e-mail destination for a non-member and confirms it through the e-mailed link. */
async function confirmedEmail(to: string): Promise<string> {
  const before = smtp.mails.length;
  const d = await json(await api('POST', '/v1/alert-destinations', { kind: 'email', target: to, name: 'Night desk' }));
  expect(d.status).toBe(201);
  expect(d.body.status).toBe('pending');
  const mail = await smtp.next(to, before);
  const link = linkIn(mail.text, `${s.url}/v1/alert-destinations/confirm?token=`);
  const page = await fetch(link);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(to);
  expect((await fetch(link)).status).toBe(404); // the link works once
  const list = (await json(await api('GET', '/v1/alert-destinations'))).body;
  expect(list.items.find((x: Json) => x.id === d.body.id).status).toBe('active');
  return d.body.id;
}

const alertsOf = async (monitorId: string) => (await json(await api('GET', `/v1/alerts?monitor_id=${monitorId}`))).body.items as Json[];
const mailsTo = (to: string, subject: string) => smtp.mails.filter((m) => m.to.includes(to) && decodeWords(m.subject).includes(subject));

test('catalogue lists every check type with defaults; lip-sync is listed but refused', async () => {
  const viewer = (await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string }).key;
  const c = await json(await api('GET', '/v1/monitors/checks', undefined, viewer));
  expect(c.status).toBe(200);
  const types = c.body.checks.map((x: Json) => x.type);
  for (const t of ['feed_down', 'backup_feed_down', 'failover', 'recorder_gap', 'input_bitrate_low', 'input_errors', 'disk_free_low', 'startup_p95', 'error_rate', 'rebuffer_ratio', 'concurrent_drop', 'lip_sync']) expect(types).toContain(t);
  expect(c.body.checks.find((x: Json) => x.type === 'lip_sync').creatable).toBe(false);
  expect(c.body.presets[0].checks).toEqual(['feed_down', 'recorder_gap', 'startup_p95', 'error_rate']);
  const lip = await json(await api('POST', '/v1/monitors', { name: 'lips', target_kind: 'tenant', checks: [{ type: 'lip_sync' }] }));
  expect(lip.status).toBe(422);
  expect(lip.body.errors[0].field).toBe('checks[0].type');
  expect(lip.body.detail).toContain('lip-sync');
  // A viewer reads the catalogue but cannot create monitors.
  expect((await api('POST', '/v1/monitors', { name: 'x', target_kind: 'tenant', checks: [{ type: 'disk_free_low' }] }, viewer)).status).toBe(403);
});

test('quiet hours in the monitor\'s zone mute e-mail and Telegram (webhook still sent); critical passes with allow_critical; notified when quiet hours end; repeat', async () => {
  const email = await confirmedEmail('night@example.net');
  // Link a Telegram chat: start code → the chat sends /start <code> → the linker reads getUpdates.
  const link = await json(await api('POST', '/v1/alert-destinations/telegram-link', { name: 'Ops chat' }));
  expect(link.status).toBe(201);
  expect(link.body.link).toBe(`https://t.me/vs_test_bot?start=${link.body.start_code}`);
  tg.say(4242, `/start ${link.body.start_code}`);
  await waitFor('chat linked', async () => (await json(await api('GET', '/v1/alert-destinations'))).body.items.find((x: Json) => x.id === link.body.destination.id)?.status === 'active', 15_000);
  // The welcome message is sent after the link is stored: waited for, not assumed (a loaded box showed 'active' first).
  await waitFor('welcome message', () => tg.sent.some((m) => m.chat_id === '4242' && m.text.includes('ViewStream')) || null, 15_000);
  const destinations = [email, link.body.destination.id];
  const quiet = { from: '22:00', to: '07:00', tz: 'Asia/Jerusalem' };
  // disk_free_low with threshold 100 % holds on any real disk.
  const m = await json(await api('POST', '/v1/monitors', { name: 'Disk (quiet)', target_kind: 'tenant', checks: [{ type: 'disk_free_low', threshold: 100, for_s: 0, severity: 'warning' }], destinations, quiet_hours: quiet, repeat_min: 5 }));
  expect(m.status).toBe(201);
  const crit = await json(await api('POST', '/v1/monitors', { name: 'Disk (critical)', target_kind: 'tenant', checks: [{ type: 'disk_free_low', threshold: 100, for_s: 0, severity: 'critical' }], destinations, quiet_hours: { ...quiet, allow_critical: true } }));
  const [a] = (await waitFor('quiet alert recorded', async () => { const l = await alertsOf(m.body.id); return l.length ? l : null; }))!;
  expect(a.state).toBe('firing');
  expect(a.muted).toBe('quiet_hours');
  await waitFor('firing webhook', () => rx.received.find((r) => r.body.type === 'alert.firing' && r.body.data.alert === a.id));
  // The critical one notifies now, on both channels.
  await waitFor('critical mail', () => mailsTo('night@example.net', 'Disk (critical)').length > 0);
  await waitFor('critical telegram', () => tg.sent.some((x) => x.chat_id === '4242' && x.text.includes('Disk (critical)')));
  expect(mailsTo('night@example.net', 'Disk (quiet)')).toHaveLength(0);
  expect(tg.sent.some((x) => x.text.includes('Disk (quiet)'))).toBe(false);
  // 07:05 local: quiet hours over, the still-firing alert is notified.
  clock.set(Date.parse('2026-01-16T05:05:00Z'));
  await waitFor('mail after quiet hours', () => mailsTo('night@example.net', '[FIRING] warning: Disk (quiet)').length === 1);
  await waitFor('telegram after quiet hours', () => tg.sent.some((x) => x.chat_id === '4242' && x.text.includes('Disk (quiet)')));
  // repeat_min 5: nothing more within 5 minutes, one repeat after.
  clock.advance(4 * 60_000);
  await waitFor('two more ticks', async () => (await alertsOf(m.body.id))[0].notifications === 1);
  clock.advance(61_000);
  await waitFor('repeat mail', () => mailsTo('night@example.net', '[STILL FIRING] warning: Disk (quiet)').length === 1);
  expect((await alertsOf(crit.body.id))[0].muted).toBeNull();
}, 60_000);

test('snooze: alerts recorded, notifications muted until lifted; 1 minute to 7 days', async () => {
  const email = await confirmedEmail('snooze@example.net');
  // No destination yet: the alert fires and nothing is notified.
  const m = await json(await api('POST', '/v1/monitors', { name: 'Snoozed disk', target_kind: 'tenant', checks: [{ type: 'disk_free_low', threshold: 100, for_s: 0 }] }));
  const [a] = (await waitFor('alert recorded', async () => { const l = await alertsOf(m.body.id); return l.length ? l : null; }))!;
  expect(a.state).toBe('firing');
  const sn = await json(await api('POST', `/v1/monitors/${m.body.id}/snooze`, { minutes: 10, reason: 'maintenance' }));
  expect(sn.status).toBe(200);
  expect(sn.body.snooze.reason).toBe('maintenance');
  for (const bad of [{ minutes: 0 }, { minutes: 10_081 }, { until: new Date(clock.now() + 30_000).toISOString() }, { until: new Date(clock.now() + 8 * 86_400_000).toISOString() }, {}, { minutes: 5, until: new Date(clock.now() + 600_000).toISOString() }, { minutes: 1.5 }]) {
    expect(`${JSON.stringify(bad)} ${(await api('POST', `/v1/monitors/${m.body.id}/snooze`, bad)).status}`).toBe(`${JSON.stringify(bad)} 422`);
  }
  expect((await api('POST', `/v1/monitors/${m.body.id}/snooze`, { minutes: 5, why: 'x' })).status).toBe(400);
  const d7 = await json(await api('POST', `/v1/monitors/${m.body.id}/snooze`, { until: new Date(clock.now() + 7 * 86_400_000).toISOString(), reason: 'maintenance' }));
  expect(d7.status).toBe(200);
  // The destination is added while snoozed: the firing alert stays silent across evaluations.
  expect((await api('PATCH', `/v1/monitors/${m.body.id}`, { destinations: [email] })).status).toBe(200);
  const seen = rx.received.length;
  const other = await json(await api('POST', '/v1/monitors', { name: 'Tick marker', target_kind: 'tenant', checks: [{ type: 'disk_free_low', threshold: 100, for_s: 0 }] }));
  await waitFor('a later evaluation', async () => (await alertsOf(other.body.id)).length > 0 && rx.received.length > seen);
  expect(mailsTo('snooze@example.net', 'Snoozed disk')).toHaveLength(0);
  // Lifting the snooze: the firing alert is notified at once.
  const lifted = await json(await api('DELETE', `/v1/monitors/${m.body.id}/snooze`));
  expect(lifted.body.snooze).toBeNull();
  await waitFor('mail after snooze lifted', () => mailsTo('snooze@example.net', '[FIRING] critical: Snoozed disk').length === 1);
}, 60_000);

test('destinations: member address active at once, duplicates 409, at most 50; unknown destination on a monitor 422', async () => {
  const email = `dup@example.net`;
  await confirmedEmail(email);
  expect((await api('POST', '/v1/alert-destinations', { kind: 'email', target: 'DUP@example.net' })).status).toBe(409);
  expect((await api('POST', '/v1/alert-destinations', { kind: 'email', target: 'not-an-address' })).status).toBe(422);
  expect((await api('POST', '/v1/alert-destinations', { kind: 'sms', target: '+972500000000' })).status).toBe(422);
  expect((await api('POST', '/v1/alert-destinations', { kind: 'email', target: 'a@b.cd', extra: 1 })).status).toBe(400);
  const have = (await json(await api('GET', '/v1/alert-destinations?limit=200'))).body.items.length as number;
  const bulk = (await (await s.api('POST', '/v1/api-keys', { role: 'admin' })).json() as { key: string }).key;
  for (let i = have; i < 50; i++) expect((await api('POST', '/v1/alert-destinations', { kind: 'email', target: `bulk${i}@example.net` }, bulk)).status).toBe(201);
  const over = await json(await api('POST', '/v1/alert-destinations', { kind: 'email', target: 'one-too-many@example.net' }, bulk));
  expect(over.status).toBe(409);
  expect(over.body.detail).toContain('50');
  const bad = await json(await api('POST', '/v1/monitors', { name: 'x', target_kind: 'tenant', checks: [{ type: 'disk_free_low' }], destinations: ['0190b3b2-0000-7000-8000-000000000000'] }));
  expect(bad.status).toBe(422);
  expect(bad.body.errors[0].field).toBe('destinations[0]');
}, 60_000);

test('monitors: CRUD, 100 per tenant, hostile input (401/400/422/404), other tenants 404', async () => {
  expect((await api('GET', '/v1/monitors', undefined, null)).status).toBe(401);
  expect((await api('POST', '/v1/monitors', { name: 'x' }, null)).status).toBe(401);
  expect((await api('POST', '/v1/monitors', { name: 'x', target_kind: 'tenant', checks: [{ type: 'disk_free_low' }], colour: 'red' })).status).toBe(400);
  expect((await api('POST', '/v1/monitors', { name: 'x', target_kind: 'tenant', checks: [{ type: 'disk_free_low', threshold: 'high' }] })).status).toBe(422);
  expect((await api('POST', '/v1/monitors', { name: 'x', target_kind: 'tenant', checks: [] })).status).toBe(422);
  expect((await api('POST', '/v1/monitors', { name: 'x', target_kind: 'tenant', checks: [{ type: 'error_rate', threshold: 3 }] })).status).toBe(422);
  expect((await api('POST', '/v1/monitors', { name: 'x', target_kind: 'tenant', checks: [{ type: 'feed_down' }] })).status).toBe(422); // a channel check on a tenant
  expect((await api('POST', '/v1/monitors', { name: 'x', target_kind: 'channel', target_id: '0190b3b2-0000-7000-8000-000000000000', checks: [{ type: 'feed_down' }] })).status).toBe(404);
  expect((await api('POST', '/v1/monitors', { name: 'x', target_kind: 'tenant', checks: [{ type: 'disk_free_low' }], quiet_hours: { from: '22:00', to: '07:00', tz: 'Mars/Olympus' } })).status).toBe(422);
  expect((await api('POST', '/v1/monitors', { name: 'x', target_kind: 'tenant', checks: [{ type: 'disk_free_low' }], quiet_hours: { from: '25:00', to: '07:00', tz: 'UTC' } })).status).toBe(422);
  expect((await api('POST', '/v1/monitors', { name: 'x', target_kind: 'site', checks: [{ type: 'error_rate' }] })).status).toBe(422);
  expect((await api('POST', '/v1/monitors/presets/basic', { channel_id: 'nope' })).status).toBe(404);
  for (const p of ['/v1/monitors/nope', '/v1/monitors/0190b3b2-0000-7000-8000-000000000000']) expect((await api('GET', p)).status).toBe(404);
  expect((await api('POST', '/v1/alerts/0190b3b2-0000-7000-8000-000000000000/ack')).status).toBe(404);

  // Create, read, change, delete.
  const c = await json(await api('POST', '/v1/monitors', { name: 'Site quality', target_kind: 'site', target_host: 'News.Example.com', checks: [{ type: 'error_rate', threshold: 0.1 }, { type: 'startup_p95' }] }));
  expect(c.status).toBe(201);
  expect(c.body.target_host).toBe('news.example.com');
  expect(c.body.checks[1]).toMatchObject({ type: 'startup_p95', threshold: 4000, for_s: 300, window_s: 600, severity: 'warning', state: 'normal' });
  const p = await json(await api('PATCH', `/v1/monitors/${c.body.id}`, { name: 'Site QoE', repeat_min: 30 }));
  expect(p.body).toMatchObject({ name: 'Site QoE', repeat_min: 30 });
  expect((await api('PATCH', `/v1/monitors/${c.body.id}`, { checks: [{ type: 'nope' }] })).status).toBe(422);

  // Another tenant sees none of it.
  const other = identityService(s.ctx).createTenant({ name: 'Other', slug: 'other-mon' });
  const otherKey = identityService(s.ctx).createKey(other.id, { role: 'admin' }).key;
  expect((await api('GET', `/v1/monitors/${c.body.id}`, undefined, otherKey)).status).toBe(404);
  expect((await api('DELETE', `/v1/monitors/${c.body.id}`, undefined, otherKey)).status).toBe(404);
  expect((await api('POST', `/v1/monitors/${c.body.id}/snooze`, { minutes: 5 }, otherKey)).status).toBe(404);
  expect((await api('DELETE', `/v1/monitors/${c.body.id}`)).status).toBe(204);
  expect((await api('GET', `/v1/monitors/${c.body.id}`)).status).toBe(404);

  // Up to 100 per tenant (other tests' monitors count too); the 101st answers 409. Spread over keys (rate limit).
  const have = (await json(await api('GET', '/v1/monitors?limit=200'))).body.items.length as number;
  const keys = await Promise.all([0, 1].map(async () => (await (await s.api('POST', '/v1/api-keys', { role: 'admin' })).json() as { key: string }).key));
  for (let i = have; i < 100; i++) expect((await api('POST', '/v1/monitors', { name: `m${i}`, target_kind: 'tenant', checks: [{ type: 'disk_free_low', threshold: 1 }] }, keys[i % 2])).status).toBe(201);
  const over = await json(await api('POST', '/v1/monitors', { name: 'one too many', target_kind: 'tenant', checks: [{ type: 'disk_free_low' }] }, keys[0]));
  expect(over.status).toBe(409);
  expect(over.body.detail).toContain('100');
  const page1 = (await json(await api('GET', '/v1/monitors?limit=60', undefined, keys[1]))).body;
  const page2 = (await json(await api('GET', `/v1/monitors?limit=60&cursor=${encodeURIComponent(page1.next_cursor)}`, undefined, keys[1]))).body;
  expect(page1.items.length + page2.items.length).toBe(100);
  expect(page2.next_cursor).toBeNull();
}, 90_000);

test('hostile monitor bodies never answer 5xx (fast-check)', async () => {
  const key = (await (await s.api('POST', '/v1/api-keys', { role: 'admin' })).json() as { key: string }).key;
  const check = fc.record({ type: fc.oneof(fc.constantFrom('feed_down', 'disk_free_low', 'error_rate', 'lip_sync'), fc.string()), threshold: fc.oneof(fc.double(), fc.string(), fc.constant(null)), for_s: fc.oneof(fc.integer(), fc.double()), severity: fc.oneof(fc.constantFrom('info', 'critical'), fc.string()) }, { requiredKeys: ['type'] });
  const body = fc.record({ name: fc.oneof(fc.string(), fc.integer()), target_kind: fc.oneof(fc.constantFrom('channel', 'asset', 'site', 'tenant'), fc.string()), target_id: fc.string(), target_host: fc.string(), checks: fc.array(check, { maxLength: 3 }), quiet_hours: fc.oneof(fc.constant(null), fc.record({ from: fc.string(), to: fc.string(), tz: fc.string() })) }, { requiredKeys: [] });
  await fc.assert(fc.asyncProperty(body, async (b) => {
    const r = await api('POST', '/v1/monitors', b, key);
    expect([400, 404, 409, 422]).toContain(r.status);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
  }), { numRuns: 60 });
}, 60_000);

test('hostile snooze, destination and alert-list input never answers 5xx (fast-check)', async () => {
  // One key per property: each stays under the per-key rate limit (burst 100).
  const [key, key2, key3] = await Promise.all([0, 1, 2].map(async () => (await (await s.api('POST', '/v1/api-keys', { role: 'admin' })).json() as { key: string }).key));
  // The tenant may be at its 100 monitors by now: fuzz against one that exists.
  const m = { body: (await json(await api('GET', '/v1/monitors?limit=1', undefined, key))).body.items[0] as Json };
  expect(m.body.id).toBeTruthy();
  const anyValue = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }));
  await fc.assert(fc.asyncProperty(fc.record({ minutes: anyValue, until: fc.oneof(anyValue, fc.date({ noInvalidDate: true }).map((d) => d.toISOString())), reason: anyValue }, { requiredKeys: [] }), async (b) => {
    const r = await api('POST', `/v1/monitors/${m.body.id}/snooze`, b, key);
    expect([200, 400, 422]).toContain(r.status);
  }), { numRuns: 40 });
  await fc.assert(fc.asyncProperty(fc.record({ kind: fc.oneof(fc.constant('email'), anyValue), target: anyValue, name: anyValue }, { requiredKeys: [] }), async (b) => {
    const r = await api('POST', '/v1/alert-destinations', b, key2);
    expect([201, 400, 409, 422]).toContain(r.status);
  }), { numRuns: 40 });
  await fc.assert(fc.asyncProperty(fc.dictionary(fc.constantFrom('limit', 'cursor', 'state', 'monitor_id'), fc.string()), async (q) => {
    const r = await api('GET', `/v1/alerts?${new URLSearchParams(q)}`, undefined, key3);
    expect([200, 400, 422]).toContain(r.status);
  }), { numRuns: 40 });
}, 60_000);

test('service status lists the shared layers with state and since', async () => {
  const r = await json(await api('GET', '/v1/service-status'));
  expect(r.status).toBe(200);
  expect(r.body.layers.map((l: Json) => l.name)).toEqual(['api', 'ingest', 'recorder', 'transcode_queue', 'delivery', 'statistics', 'email', 'disk']);
  expect(r.body.layers.find((l: Json) => l.name === 'email').state).toBe('ok');
  for (const l of r.body.layers) expect(Date.parse(l.since)).toBeGreaterThan(0);
  expect((await api('GET', '/v1/service-status', undefined, null)).status).toBe(401);
});

test('alerts: cursor list, filter, ack keeps the first acknowledgement', async () => {
  const all = (await json(await api('GET', '/v1/alerts?limit=2'))).body;
  expect(all.items.length).toBe(2);
  expect(all.next_cursor).toBeTruthy();
  const next = (await json(await api('GET', `/v1/alerts?limit=2&cursor=${encodeURIComponent(all.next_cursor)}`))).body;
  expect(next.items[0].id).not.toBe(all.items[0].id);
  expect((await api('GET', '/v1/alerts?state=open')).status).toBe(422);
  const a = all.items[0];
  const ack = await json(await api('POST', `/v1/alerts/${a.id}/ack`));
  expect(ack.status).toBe(200);
  expect(ack.body.acked_by).toStartWith('key:');
  const again = await json(await api('POST', `/v1/alerts/${a.id}/ack`));
  expect(again.body.acked_at).toBe(ack.body.acked_at);
});
