import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, pushForever } from './live-helpers';
import { linkIn, startSmtp } from './people-helpers';
import { startReceiver, type Receiver, type Received } from './webhooks-receiver';
import { decodeWords, startFakeTelegram, type FakeTelegram } from './monitors-helpers';
import { eventsAfter } from '../../src/kernel/events/outbox';
import { liveControl } from '../../src/live/registry';

type Json = Record<string, any>;
let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let rx: Receiver;
let tg: FakeTelegram;

beforeAll(async () => {
  smtp = await startSmtp();
  rx = startReceiver();
  tg = startFakeTelegram();
  s = await startTestServer({ env: { ...await liveEnv(), VS_PRIVATE_ALLOWLIST: '127.0.0.1/32', VS_SMTP_URL: smtp.url, VS_MONITOR_EVAL_MS: '500', VS_TELEGRAM_API: tg.url, VS_TELEGRAM_BOT_TOKEN: tg.token } });
  expect((await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['alert.firing', 'alert.resolved', 'channel.programme_started'] })).status).toBe(201);
}, 60_000);
afterAll(async () => { await killPushers(); await s?.stop(); await smtp?.stop(); rx?.stop(); tg?.stop(); });

const json = async (r: Response) => await r.json() as Json;
const hook = (type: string, pred: (d: Json) => boolean) => rx.received.find((r) => r.body.type === type && pred(r.body.data)) as (Received & { body: { data: Json } }) | undefined;
const mail = (subject: string) => smtp.mails.find((m) => decodeWords(m.subject).includes(subject));

test('feed down fires after for_s (webhook, e-mail, Telegram), an ffmpeg push resolves it; killed primary fires failover; recorder gap names the missing range and programme; programme_started from the guide clock', async () => {
  // Destinations: a confirmed e-mail address and a linked Telegram chat.
  const d = await json(await s.api('POST', '/v1/alert-destinations', { kind: 'email', target: 'mcr@example.net' }));
  const link = linkIn((await smtp.next('mcr@example.net')).text, `${s.url}/v1/alert-destinations/confirm?token=`);
  expect((await fetch(link)).status).toBe(200);
  const t = await json(await s.api('POST', '/v1/alert-destinations/telegram-link', {}));
  tg.say(777, `/start ${t.start_code}`);
  await waitFor('chat linked', async () => (await json(await s.api('GET', '/v1/alert-destinations'))).items.every((x: Json) => x.status === 'active'), 15_000);

  const ch = await json(await s.api('POST', '/v1/channels', { name: 'Alerts One', ingest: { failover_s: 2 }, recording: { retention_hours: 24 } }));
  const ing = await json(await s.api('GET', `/v1/channels/${ch.id}/ingest`));
  const m = await json(await s.api('POST', '/v1/monitors', {
    name: 'MCR Alerts One', target_kind: 'channel', target_id: ch.id, destinations: [d.id, t.destination.id], notify_resolve: true,
    checks: [{ type: 'feed_down', for_s: 3, severity: 'critical' }, { type: 'failover', threshold: 0, window_s: 600 }, { type: 'recorder_gap', threshold: 2, window_s: 600 }],
  }));
  // Input checks on a second monitor (no destinations): backup missing, bitrate below an unreachable floor, ingest restarts.
  const inputs = await json(await s.api('POST', '/v1/monitors', {
    name: 'Inputs Alerts One', target_kind: 'channel', target_id: ch.id,
    checks: [{ type: 'backup_feed_down', for_s: 0 }, { type: 'input_bitrate_low', threshold: 1_000_000, for_s: 0 }, { type: 'input_errors', threshold: 0, window_s: 600 }],
  }));
  expect(m.id).toBeTruthy();
  const startedAt = Date.now();
  expect((await s.api('POST', `/v1/channels/${ch.id}/start`)).status).toBe(200);

  // Started, no feed: pending for 3 s, then firing.
  const fired = (await waitFor('feed_down webhook', () => hook('alert.firing', (x) => x.monitor === m.id && x.check === 'feed_down'), 30_000))!;
  expect(fired.at - startedAt).toBeGreaterThanOrEqual(3000);
  expect(Date.parse(fired.body.data.started_at) - Date.parse(fired.body.data.since)).toBeGreaterThanOrEqual(3000);
  expect(fired.body.data).toMatchObject({ severity: 'critical', target_kind: 'channel', target_id: ch.id });
  await waitFor('feed_down e-mail', () => mail('[FIRING] critical: MCR Alerts One'), 15_000);
  await waitFor('feed_down telegram', () => tg.sent.find((x) => x.chat_id === '777' && x.text.includes('feed_down')), 15_000);

  // A guide programme starting in a few seconds: the guide clock announces it.
  const progStart = Date.now() + 3000;
  const prog = await json(await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Evening News', start_at: new Date(progStart).toISOString(), end_at: new Date(progStart + 3_600_000).toISOString() }));
  expect(prog.id).toBeTruthy();

  // Push primary and backup: the feed returns, the alert resolves with a notification.
  let primary = pushForever(ing.srt.primary.url);
  const resolved = (await waitFor('feed_down resolved', () => hook('alert.resolved', (x) => x.alert === fired.body.data.alert), 40_000))!;
  expect(resolved.body.data.duration_s).toBeGreaterThanOrEqual(0);
  await waitFor('resolve e-mail', () => mail('[RESOLVED] critical: MCR Alerts One'), 15_000);
  await waitFor('resolve telegram', () => tg.sent.filter((x) => x.chat_id === '777' && x.text.includes('feed_down')).length >= 2, 15_000);
  const started = (await waitFor('programme_started', () => hook('channel.programme_started', (x) => x.programme === prog.id), 20_000))!;
  expect(started.body.data).toMatchObject({ channel: ch.id, title: 'Evening News' });
  expect(eventsAfter(s.ctx.db, 0, 10_000).filter((e) => e.type === 'channel.programme_started' && (e.data as Json).programme === prog.id)).toHaveLength(1);

  // Kill the primary encoder: ingest fails over to the backup, the failover check fires.
  await waitFor('live on primary', async () => (await json(await s.api('GET', `/v1/channels/${ch.id}`))).feed === 'primary', 30_000);
  const low = (await waitFor('bitrate low fires while on air', () => hook('alert.firing', (x) => x.monitor === inputs.id && x.check === 'input_bitrate_low'), 20_000))!;
  expect(low.body.data.value).toBeGreaterThan(0);
  const noBackup = (await waitFor('backup down fires', () => hook('alert.firing', (x) => x.monitor === inputs.id && x.check === 'backup_feed_down'), 20_000))!;
  const backup = pushForever(ing.srt.backup.url);
  await waitFor('backup input alive', () => liveControl(s.ctx.db)?.inputs?.(ch.id)?.backup.alive, 30_000);
  await waitFor('backup down resolves', () => hook('alert.resolved', (x) => x.alert === noBackup.body.data.alert), 20_000);
  await primary.stop();
  const fo = (await waitFor('failover webhook', () => hook('alert.firing', (x) => x.monitor === m.id && x.check === 'failover'), 30_000))!;
  expect(fo.body.data.value).toBeGreaterThanOrEqual(1);
  expect(fo.body.data.detail.last.to).toBe('backup');

  // Both encoders gone for a while, then the primary returns: the recorder gap alert names the exact missing range.
  await backup.stop();
  await waitFor('no feed', async () => (await json(await s.api('GET', `/v1/channels/${ch.id}`))).feed === 'none', 20_000);
  const gapOpen = (await waitFor('recorder gap fires', () => hook('alert.firing', (x) => x.monitor === m.id && x.check === 'recorder_gap'), 40_000))!;
  expect(gapOpen.body.data.detail.gap.from).toBeTruthy();
  primary = pushForever(ing.srt.primary.url);
  const gap = await waitFor('gap closed in the alert', async () => {
    const a = (await json(await s.api('GET', `/v1/alerts?monitor_id=${m.id}&state=firing`))).items.find((x: Json) => x.check === 'recorder_gap');
    return a?.detail.gap.to ? a : null;
  }, 60_000);
  const from = Date.parse(gap.detail.gap.from), to = Date.parse(gap.detail.gap.to);
  expect(to - from).toBeGreaterThan(2000);
  expect(gap.detail.gap.seconds).toBeCloseTo((to - from) / 1000, 0);
  expect(gap.summary).toContain(gap.detail.gap.from);
  expect(gap.summary).toContain('Evening News');
  expect(gap.detail.programmes[0].id).toBe(prog.id);
  // The last good frame before the hole, as a JPEG beside the alert.
  expect(gap.detail.thumbnail).toBe(`${s.url}/v1/alerts/${gap.id}/thumbnail`);
  const jpeg = await waitFor('thumbnail', async () => { const r = await s.api('GET', `/v1/alerts/${gap.id}/thumbnail`); return r.status === 200 ? new Uint8Array(await r.arrayBuffer()) : null; }, 30_000);
  expect([...jpeg!.slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  expect((await s.api('GET', `/v1/alerts/${gap.id}/thumbnail`, undefined, { key: null })).status).toBe(401);
  // The ingest restarted its processes when the encoders went away: counted by input_errors.
  const errs = (await waitFor('input errors fire', () => hook('alert.firing', (x) => x.monitor === inputs.id && x.check === 'input_errors'), 20_000))!;
  expect(errs.body.data.value).toBeGreaterThanOrEqual(1);
  await primary.stop();
}, 240_000);
