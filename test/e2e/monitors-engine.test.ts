import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { ManualClock } from '../../src/kernel/clock';
import { MonitorEngine } from '../../src/features/monitors/engine';
import { step } from '../../src/features/monitors/state';
import { inQuietHours, muteReason } from '../../src/features/monitors/quiet';
import { eventsAfter } from '../../src/kernel/events/outbox';
import { lastFrameArgs } from '../../src/media/args/frame';

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

test('state machine: pending for for_s, firing, resolve; unknown keeps the state', () => {
  expect(step('normal', 0, true, 1000, 5000)).toEqual({ state: 'pending', since: 1000, fire: false, resolve: false });
  expect(step('pending', 1000, true, 5999, 5000)).toEqual({ state: 'pending', since: 1000, fire: false, resolve: false });
  expect(step('pending', 1000, true, 6000, 5000)).toEqual({ state: 'firing', since: 1000, fire: true, resolve: false });
  expect(step('firing', 1000, null, 9000, 5000)).toEqual({ state: 'firing', since: 1000, fire: false, resolve: false });
  expect(step('firing', 1000, false, 9000, 5000)).toEqual({ state: 'normal', since: 9000, fire: false, resolve: true });
  expect(step('pending', 1000, false, 3000, 5000)).toEqual({ state: 'normal', since: 3000, fire: false, resolve: false });
  expect(step('normal', 0, true, 7, 0)).toEqual({ state: 'firing', since: 7, fire: true, resolve: false });
});

test('quiet hours follow the zone (DST included), wrap midnight; critical passes only with allow_critical; snooze first', () => {
  const q = { from: '22:00', to: '07:00', tz: 'Asia/Jerusalem', allow_critical: false };
  expect(inQuietHours(q, Date.parse('2026-01-15T20:30:00Z'))).toBe(true); // 22:30 IST (UTC+2)
  expect(inQuietHours(q, Date.parse('2026-01-15T19:30:00Z'))).toBe(false); // 21:30
  expect(inQuietHours(q, Date.parse('2026-07-15T19:30:00Z'))).toBe(true); // 22:30 IDT (UTC+3)
  expect(inQuietHours(q, Date.parse('2026-07-16T04:00:00Z'))).toBe(false); // 07:00 IDT: the end is exclusive
  expect(inQuietHours({ ...q, from: '09:00', to: '17:00', tz: 'America/New_York' }, Date.parse('2026-03-09T14:00:00Z'))).toBe(true); // 10:00 EDT
  expect(inQuietHours({ ...q, from: '09:00', to: '09:00' }, Date.parse('2026-03-09T07:00:00Z'))).toBe(false);
  const at = Date.parse('2026-01-15T20:30:00Z');
  expect(muteReason({ snooze_until: null, quiet: q }, 'critical', at)).toBe('quiet_hours');
  expect(muteReason({ snooze_until: null, quiet: { ...q, allow_critical: true } }, 'critical', at)).toBeNull();
  expect(muteReason({ snooze_until: null, quiet: { ...q, allow_critical: true } }, 'warning', at)).toBe('quiet_hours');
  expect(muteReason({ snooze_until: at + 1, quiet: null }, 'critical', at)).toBe('snooze');
  expect(muteReason({ snooze_until: at, quiet: null }, 'critical', at)).toBeNull();
});

test('pending and firing states survive a restart: the pending period continues, no second alert.firing', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vs-mon-restart-'));
  dirs.push(dataDir);
  const clock = new ManualClock(Date.parse('2026-03-01T10:00:00Z'));
  // A long evaluation period: this test ticks the engine itself with the injected clock.
  const env = { VS_MONITOR_EVAL_MS: '3600000' };
  let s: TestServer = await startTestServer({ dataDir, clock, env });
  const key = s.key;
  const m = await (await s.api('POST', '/v1/monitors', { name: 'Restart', target_kind: 'tenant', checks: [{ type: 'disk_free_low', threshold: 100, for_s: 60 }, { type: 'disk_free_low', threshold: 100, for_s: 0, severity: 'info' }] })).json() as { id: string };
  let engine = new MonitorEngine(s.ctx);
  expect((await engine.tick()).fired).toBe(1); // for_s 0 fires at once; the other is pending
  clock.advance(30_000);
  expect((await engine.tick()).fired).toBe(0);
  const view = await (await s.api('GET', `/v1/monitors/${m.id}`)).json() as { checks: { state: string; since: string }[] };
  expect(view.checks.map((c) => c.state)).toEqual(['pending', 'firing']);
  await s.stop();

  clock.advance(31_000);
  s = await startTestServer({ dataDir, clock, env, ownerKey: key });
  engine = new MonitorEngine(s.ctx);
  const r = await engine.tick();
  expect(r.fired).toBe(1); // 61 s after the condition began, across the restart
  const alerts = (await (await s.api('GET', `/v1/alerts?monitor_id=${m.id}`)).json() as { items: { check: string; severity: string; state: string }[] }).items;
  expect(alerts).toHaveLength(2);
  const firing = eventsAfter(s.ctx.db, 0, 1000).filter((e) => e.type === 'alert.firing');
  expect(firing).toHaveLength(2);
  const pendingFired = firing.find((e) => (e.data as { severity: string }).severity === 'critical')!.data as { since: string; started_at: string };
  expect(Date.parse(pendingFired.started_at) - Date.parse(pendingFired.since)).toBe(61_000);
  // A rename changes nothing; changed checks start from normal and their firing alerts resolve once.
  await s.api('PATCH', `/v1/monitors/${m.id}`, { name: 'Restart (renamed)' });
  expect((await engine.tick())).toMatchObject({ fired: 0, resolved: 0 });
  await s.api('PATCH', `/v1/monitors/${m.id}`, { checks: [{ type: 'disk_free_low', threshold: 0 }, { type: 'disk_free_low', threshold: 0 }] });
  await engine.tick();
  await engine.tick();
  const resolved = eventsAfter(s.ctx.db, 0, 1000).filter((e) => e.type === 'alert.resolved');
  expect(resolved.map((e) => (e.data as { reason: string }).reason)).toEqual(['check changed', 'check changed']);
  expect((await (await s.api('GET', `/v1/alerts?monitor_id=${m.id}&state=firing`)).json() as { items: unknown[] }).items).toHaveLength(0);
  // Deleting a monitor resolves its firing alert; the alert stays in the history.
  const d = await (await s.api('POST', '/v1/monitors', { name: 'Deleted', target_kind: 'tenant', checks: [{ type: 'disk_free_low', threshold: 100, for_s: 0 }] })).json() as { id: string };
  expect((await engine.tick()).fired).toBe(1);
  expect((await s.api('DELETE', `/v1/monitors/${d.id}`)).status).toBe(204);
  const gone = (await (await s.api('GET', `/v1/alerts?monitor_id=${d.id}`)).json() as { items: { state: string }[] }).items;
  expect(gone.map((a) => a.state)).toEqual(['resolved']);
  expect(eventsAfter(s.ctx.db, 0, 1000).filter((e) => e.type === 'alert.resolved' && (e.data as { reason: string }).reason === 'monitor deleted')).toHaveLength(1);
  expect((await engine.tick()).checks).toBe(2);
  await s.stop();
}, 60_000);

test('last-frame argument builder (golden)', () => {
  expect(lastFrameArgs('ffmpeg', '/d/a.src.mp4', '/d/a.tmp.jpg')).toEqual([
    'ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-protocol_whitelist', 'file', '-format_whitelist', 'mov,mp4,m4a,3gp,3g2,mj2',
    '-i', '/d/a.src.mp4', '-an', '-vf', 'scale=480:-2,reverse', '-frames:v', '1', '-q:v', '4', '-update', '1', '/d/a.tmp.jpg',
  ]);
});
