import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { PeopleService } from '../../src/features/people/service';
import { identityService } from '../../src/features/identity/service';
import { signIn, startSmtp, type Studio } from './people-helpers';
import { decodeWords } from './monitors-helpers';

type Json = Record<string, any>;
let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let desk: Studio, boss: Studio, other: Studio;
let admin: string;

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ env: { VS_SMTP_URL: smtp.url, VS_MONITOR_EVAL_MS: '150' } });
  const def = identityService(s.ctx).tenant('default');
  const people = new PeopleService(s.ctx);
  await people.createUser({ email: 'boss@example.com', name: 'Boss', password: 'owner passphrase 1', tenantId: def.id, role: 'owner' });
  await people.createUser({ email: 'desk@example.com', name: 'Desk', password: 'viewer passphrase 1', tenantId: def.id, role: 'viewer' });
  await people.createUser({ email: 'other@example.com', name: 'Other', password: 'viewer passphrase 2', tenantId: def.id, role: 'viewer' });
  for (const [who, pw] of [['boss', 'owner passphrase 1'], ['desk', 'viewer passphrase 1'], ['other', 'viewer passphrase 2']] as const) {
    const st = await signIn(s, `${who}@example.com`, pw);
    await st.call('PUT', '/v1/me/tenant', { tenant: 'default' });
    if (who === 'boss') boss = st; else if (who === 'desk') desk = st; else other = st;
  }
  admin = (await (await s.api('POST', '/v1/api-keys', { role: 'admin', name: 'notify' })).json() as { key: string }).key;
}, 60_000);
afterAll(async () => { await s?.stop(); await smtp?.stop(); });

const json = async (r: Response) => ({ status: r.status, body: (r.status === 204 ? null : await r.json()) as Json });

test('a monitor alert is routed by a person\'s rule to their inbox and e-mail; unread count, mark read, mark all read', async () => {
  // The desk (a viewer) keeps its own rule: warning-or-worse alerts → inbox and e-mail. Other's rule wants critical only.
  const rule = await json(await desk.call('POST', '/v1/notification-rules', { name: 'Alerts', event_types: ['alert.*'], min_severity: 'warning', deliver: ['inbox', 'email'] }));
  expect(rule.status).toBe(201);
  expect(rule.body).toMatchObject({ name: 'Alerts', event_types: ['alert.*'], channels: [], min_severity: 'warning', deliver: ['inbox', 'email'], enabled: true });
  expect((await other.call('POST', '/v1/notification-rules', { event_types: ['alert.firing'], min_severity: 'critical', deliver: ['inbox'] })).status).toBe(201);
  // A second matching rule of the desk does not double the item.
  expect((await desk.call('POST', '/v1/notification-rules', { event_types: ['*'], deliver: ['inbox'] })).status).toBe(201);
  expect((await json(await desk.call('GET', '/v1/inbox/unread'))).body.unread).toBe(0);
  // A real monitor: disk_free_low with threshold 100 % fires on any disk, severity warning.
  const before = smtp.mails.length;
  const m = await json(await s.api('POST', '/v1/monitors', { name: 'Disk full desk', target_kind: 'tenant', checks: [{ type: 'disk_free_low', threshold: 100, for_s: 0, severity: 'warning' }] }, { key: admin }));
  expect(m.status).toBe(201);
  const firing = await waitFor('alert in the desk inbox', async () => {
    const b = (await json(await desk.call('GET', '/v1/inbox'))).body;
    return b.items.find((i: Json) => i.type === 'alert.firing') ? b : null;
  }, 20_000) as Json;
  const item = firing.items.find((i: Json) => i.type === 'alert.firing');
  expect(item).toMatchObject({ severity: 'warning', read: false, channel_id: null });
  expect(item.title).toContain('Disk full desk');
  expect(item.data.monitor).toBe(m.body.id);
  expect(firing.items.filter((i: Json) => i.event_id === item.event_id)).toHaveLength(1);
  expect(firing.unread).toBe(firing.items.length);
  const mail = await smtp.next('desk@example.com', before);
  expect(decodeWords(mail.subject)).toBe('[ViewStream] warning: alert.firing · Disk full desk · ' + item.data.summary);
  expect(mail.text).toContain('alert.firing');
  await waitFor('e-mail recorded as sent', async () => (await json(await desk.call('GET', '/v1/inbox'))).body.items.find((i: Json) => i.id === item.id).email === 'sent');
  // Other's rule wants critical: nothing for them; the boss has no rule: nothing either.
  expect((await json(await other.call('GET', '/v1/inbox'))).body.items).toHaveLength(0);
  expect((await json(await boss.call('GET', '/v1/inbox'))).body.unread).toBe(0);
  expect(smtp.mails.slice(before).some((x) => x.to.includes('other@example.com') || x.to.includes('boss@example.com'))).toBe(false);
  // Mark one read, then all.
  const unread0 = (await json(await desk.call('GET', '/v1/inbox/unread'))).body.unread;
  const r = await json(await desk.call('POST', `/v1/inbox/${item.id}/read`));
  expect(r.status).toBe(200);
  expect(r.body.item.read).toBe(true);
  expect(r.body.unread).toBe(unread0 - 1);
  expect((await json(await desk.call('GET', '/v1/inbox?unread=true'))).body.items.some((i: Json) => i.id === item.id)).toBe(false);
  const all = await json(await desk.call('POST', '/v1/inbox/read-all'));
  expect(all.body.unread).toBe(0);
  // Others cannot read or mark the desk's items.
  expect((await other.call('POST', `/v1/inbox/${item.id}/read`)).status).toBe(404);
  await s.api('DELETE', `/v1/monitors/${m.body.id}`, undefined, { key: admin });
}, 60_000);

test('rules: channel filter, validation, other people\'s rules need notifications:manage, API keys have no inbox', async () => {
  const bad = await json(await desk.call('POST', '/v1/notification-rules', { event_types: ['Alert!'], deliver: ['inbox'] }));
  expect(bad.status).toBe(422);
  expect((await desk.call('POST', '/v1/notification-rules', { event_types: ['alert.*'], deliver: [] })).status).toBe(422);
  expect((await desk.call('POST', '/v1/notification-rules', { event_types: ['alert.*'], deliver: ['sms'] })).status).toBe(422);
  expect((await desk.call('POST', '/v1/notification-rules', { event_types: ['alert.*'], deliver: ['inbox'], colour: 'red' })).status).toBe(400);
  const me = (await json(await boss.call('GET', '/v1/me'))).body;
  // A viewer cannot write rules for the boss; the admin key can write one for the desk, naming them.
  expect((await desk.call('POST', '/v1/notification-rules', { person_id: me.user.id, event_types: ['*'], deliver: ['inbox'] })).status).toBe(403);
  const deskId = (await json(await desk.call('GET', '/v1/me'))).body.user.id;
  const forDesk = await json(await s.api('POST', '/v1/notification-rules', { person_id: deskId, event_types: ['channel.*'], channels: ['ch-x'], deliver: ['email'] }, { key: admin }));
  expect(forDesk.status).toBe(201);
  expect(forDesk.body.person_id).toBe(deskId);
  expect((await s.api('POST', '/v1/notification-rules', { person_id: 'nobody', event_types: ['*'], deliver: ['inbox'] }, { key: admin })).status).toBe(422);
  const mine = (await json(await desk.call('GET', '/v1/notification-rules'))).body.items;
  expect(mine.map((x: Json) => x.id)).toContain(forDesk.body.id);
  expect((await json(await other.call('GET', '/v1/notification-rules'))).body.items.some((x: Json) => x.id === forDesk.body.id)).toBe(false);
  expect((await other.call('PATCH', `/v1/notification-rules/${forDesk.body.id}`, { enabled: false })).status).toBe(404);
  const off = await json(await desk.call('PATCH', `/v1/notification-rules/${forDesk.body.id}`, { enabled: false, min_severity: 'critical' }));
  expect(off.body).toMatchObject({ enabled: false, min_severity: 'critical', channels: ['ch-x'] });
  expect((await desk.call('DELETE', `/v1/notification-rules/${forDesk.body.id}`)).status).toBe(204);
  expect((await desk.call('DELETE', `/v1/notification-rules/${forDesk.body.id}`)).status).toBe(404);
  // The inbox is a person's: an API key is refused; no credentials → 401.
  expect((await s.api('GET', '/v1/inbox', undefined, { key: admin })).status).toBe(403);
  expect((await s.api('GET', '/v1/inbox', undefined, { key: null })).status).toBe(401);
  expect((await s.api('GET', '/v1/notification-rules?all=true', undefined, { key: admin })).status).toBe(200);
  expect((await desk.call('GET', '/v1/notification-rules?all=true')).status).toBe(403);
});
