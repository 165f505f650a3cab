import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { ManualClock } from '../../src/kernel/clock';
import { PeopleService } from '../../src/features/people/service';
import { identityService } from '../../src/features/identity/service';
import { signIn, startSmtp, studioOf, linkIn, type Studio } from './people-helpers';

let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: Studio;
const clock = new ManualClock(Date.parse('2026-11-23T02:00:00Z'));

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ workers: false, clock, env: { VS_SMTP_URL: smtp.url } });
  const def = identityService(s.ctx).tenant('default');
  await new PeopleService(s.ctx).createUser({ email: 'boss@example.com', name: 'Boss', password: 'owner passphrase 1', tenantId: def.id, role: 'owner' });
  admin = await signIn(s, 'boss@example.com', 'owner passphrase 1');
  await admin.call('PUT', '/v1/me/tenant', { tenant: 'default' });
});
afterAll(async () => { await s?.stop(); await smtp?.stop(); });

/** Invites by e-mail, reads the mail, follows the link's token to accept it. */
async function inviteAndAccept(email: string, role: string, password: string): Promise<{ studio: Studio; token: string; userId: string }> {
  const before = smtp.mails.length;
  const r = await admin.call('POST', '/v1/team/invitations', { email, role });
  expect(r.status).toBe(201);
  const inv = await r.json() as { mailed: boolean; accept_url?: string; role: string };
  expect(inv).toMatchObject({ mailed: true, role });
  expect(inv.accept_url).toBeUndefined();
  const mail = await smtp.next(email, before);
  const link = linkIn(mail.text, `${s.url}/studio/invite?token=`);
  const token = new URL(link).searchParams.get('token')!;
  const pageRes = await fetch(link);
  expect(pageRes.status).toBe(200);
  expect(await pageRes.text()).toContain('/v1/invitations/accept');
  const look = await s.api('GET', `/v1/invitations/lookup?token=${token}`, undefined, { key: null });
  expect(await look.json()).toMatchObject({ email, role, tenant_name: 'Default' });
  const acc = await s.api('POST', '/v1/invitations/accept', { token, name: email.split('@')[0], password }, { key: null });
  expect(acc.status).toBe(200);
  const body = await acc.json() as { csrf_token: string; user: { id: string } };
  return { studio: studioOf(s, acc.headers.get('set-cookie')!.split(';')[0], body.csrf_token), token, userId: body.user.id };
}

test('invitation by e-mail: link accepted once, signs the person in on the invited tenant; reuse → 410', async () => {
  const { studio, token } = await inviteAndAccept('ed@example.com', 'editor', 'editor passphrase 1');
  const me = await (await studio.call('GET', '/v1/me')).json() as { current_tenant: { slug: string; role: string }; scopes: string[] };
  expect(me.current_tenant).toMatchObject({ slug: 'default', role: 'editor' });
  expect(me.scopes).toContain('assets:write');
  expect(me.scopes).not.toContain('assets:publish');
  const again = await s.api('POST', '/v1/invitations/accept', { token, password: 'editor passphrase 1' }, { key: null });
  expect(again.status).toBe(410);
  expect((await again.json() as { detail: string }).detail).toContain('already used');
  const members = await (await admin.call('GET', '/v1/team/members')).json() as { items: { email: string; role: string }[] };
  expect(members.items.map((m) => [m.email, m.role])).toEqual([['boss@example.com', 'owner'], ['ed@example.com', 'editor']]);
});

test('invitation refusals: expired, withdrawn, weak password, unknown link, role above the inviter', async () => {
  const mk = async (email: string) => {
    const before = smtp.mails.length;
    const inv = await (await admin.call('POST', '/v1/team/invitations', { email, role: 'viewer' })).json() as { id: string };
    const token = new URL(linkIn((await smtp.next(email, before)).text, `${s.url}/studio/invite?token=`)).searchParams.get('token')!;
    return { id: inv.id, token };
  };
  const weak = await mk('weak@example.com');
  const w = await s.api('POST', '/v1/invitations/accept', { token: weak.token, password: 'short' }, { key: null });
  expect(w.status).toBe(422);
  expect((await w.json() as { errors: { detail: string }[] }).errors[0].detail).toContain('too short');
  const gone = await mk('gone@example.com');
  expect((await admin.call('DELETE', `/v1/team/invitations/${gone.id}`)).status).toBe(204);
  const g = await s.api('POST', '/v1/invitations/accept', { token: gone.token, password: 'good passphrase 12' }, { key: null });
  expect(g.status).toBe(410);
  expect((await g.json() as { detail: string }).detail).toContain('withdrawn');
  const late = await mk('late@example.com');
  clock.advance(7 * 24 * 3600_000 + 1000);
  const l = await s.api('POST', '/v1/invitations/accept', { token: late.token, password: 'good passphrase 12' }, { key: null });
  expect(l.status).toBe(410);
  expect((await l.json() as { detail: string }).detail).toContain('expired');
  expect((await s.api('POST', '/v1/invitations/accept', { token: 'x'.repeat(43), password: 'good passphrase 12' }, { key: null })).status).toBe(404);
  // Sessions idle out after the week: sign in again.
  admin = await signIn(s, 'boss@example.com', 'owner passphrase 1');
  await admin.call('PUT', '/v1/me/tenant', { tenant: 'default' });
  // An admin key cannot invite an owner.
  const adminKey = (await (await s.api('POST', '/v1/api-keys', { role: 'admin' })).json() as { key: string }).key;
  expect((await s.api('POST', '/v1/team/invitations', { email: 'o2@example.com', role: 'owner' }, { key: adminKey })).status).toBe(403);
  expect((await s.api('POST', '/v1/team/invitations', { email: 'bad', role: 'viewer' }, { key: adminKey })).status).toBe(422);
});

test('role change takes effect on the next request; last owner is kept; removal; audit trail', async () => {
  const { studio, userId } = await inviteAndAccept('pub@example.com', 'viewer', 'publisher passphrase');
  expect((await studio.call('GET', '/v1/api-keys')).status).toBe(403);
  const up = await admin.call('PATCH', `/v1/team/members/${userId}`, { role: 'engineer' });
  expect(up.status).toBe(200);
  expect((await studio.call('GET', '/v1/api-keys')).status).toBe(200);
  await admin.call('PATCH', `/v1/team/members/${userId}`, { role: 'viewer' });
  expect((await studio.call('GET', '/v1/api-keys')).status).toBe(403);
  // The last owner can be neither demoted nor removed.
  const bossId = ((await (await admin.call('GET', '/v1/me')).json()) as { user: { id: string } }).user.id;
  expect((await admin.call('PATCH', `/v1/team/members/${bossId}`, { role: 'admin' })).status).toBe(409);
  expect((await admin.call('DELETE', `/v1/team/members/${bossId}`)).status).toBe(409);
  expect((await admin.call('PATCH', `/v1/team/members/${bossId}`, { role: 'root' })).status).toBe(422);
  // Removal: the person keeps the session but loses the tenant.
  expect((await admin.call('DELETE', `/v1/team/members/${userId}`)).status).toBe(204);
  const me = await (await studio.call('GET', '/v1/me')).json() as { tenants: unknown[]; current_tenant: unknown; scopes: unknown[] };
  expect(me).toMatchObject({ tenants: [], current_tenant: null, scopes: [] });
  expect((await studio.call('GET', '/v1/assets')).status).toBe(403);
  // A viewer has no team:manage.
  const viewerKey = (await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string }).key;
  expect((await s.api('GET', '/v1/team/members', undefined, { key: viewerKey })).status).toBe(403);
  expect((await s.api('GET', '/v1/audit', undefined, { key: viewerKey })).status).toBe(403);
  // Audit: member changes with actor, IP and time; key creation; failed sign-ins.
  await s.api('POST', '/v1/session', { email: 'boss@example.com', password: 'not the password' }, { key: null });
  const log = await (await admin.call('GET', '/v1/audit?limit=200')).json() as { items: { action: string; actor: { kind: string; label: string }; ip: string | null; at: string; details: Record<string, unknown> }[] };
  const actions = log.items.map((e) => e.action);
  for (const a of ['member.role_changed', 'member.removed', 'member.added', 'invitation.created', 'invitation.revoked', 'key.created', 'signin.failed']) expect(actions).toContain(a);
  const rc = log.items.find((e) => e.action === 'member.role_changed')!;
  expect(rc).toMatchObject({ actor: { kind: 'user', label: 'boss@example.com' }, ip: '127.0.0.1', details: { from: 'engineer', to: 'viewer' } });
  expect(Date.parse(rc.at)).toBeGreaterThan(0);
  expect(log.items.find((e) => e.action === 'signin.failed')).toMatchObject({ actor: { kind: 'anonymous', label: 'boss@example.com' } });
  expect(log.items.find((e) => e.action === 'key.created')!.actor.kind).toBe('key');
});

test('tenant settings and branding: read with assets:read, change with tenant:settings, audited', async () => {
  const viewerKey = (await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string }).key;
  const cur = await (await s.api('GET', '/v1/settings', undefined, { key: viewerKey })).json() as Record<string, unknown>;
  expect(cur).toMatchObject({ name: 'Default', slug: 'default', time_zone: 'Asia/Jerusalem', default_ladder: 'standard', auto_publish: false, default_languages: ['he'], logo_url: null });
  expect((await s.api('PATCH', '/v1/settings', { auto_publish: true }, { key: viewerKey })).status).toBe(403);
  const bad: [Record<string, unknown>, number, string][] = [
    [{ time_zone: 'Mars/Olympus' }, 422, 'time_zone'], [{ default_ladder: 'nope' }, 422, 'default_ladder'],
    [{ logo_url: 'http://x.example/logo.png' }, 422, 'logo_url'], [{ colors: { primary: 'red' } }, 422, 'primary'],
    [{}, 422, ''], [{ surprise: 1 }, 400, ''], [{ default_languages: ['Hebrew!'] }, 422, ''],
  ];
  for (const [b, status, word] of bad) {
    const r = await admin.call('PATCH', '/v1/settings', b);
    expect(r.status).toBe(status);
    expect(JSON.stringify(await r.json())).toContain(word);
  }
  const r = await admin.call('PATCH', '/v1/settings', { name: 'Channel 9', colors: { primary: '#112233' }, time_zone: 'Europe/London', default_ladder: 'fast', auto_publish: true, default_languages: ['he', 'en'], logo_url: 'https://cdn.example/logo.svg' });
  expect(r.status).toBe(200);
  expect(await r.json()).toMatchObject({ name: 'Channel 9', colors: { primary: '#112233', accent: '#f0883e' }, time_zone: 'Europe/London', default_ladder: 'fast', auto_publish: true, default_languages: ['he', 'en'] });
  const me = await (await admin.call('GET', '/v1/me')).json() as { current_tenant: { name: string } };
  expect(me.current_tenant.name).toBe('Channel 9');
  const keyMe = await (await s.api('GET', '/v1/me')).json() as { current_tenant: { name: string } };
  expect(keyMe.current_tenant.name).toBe('Channel 9');
  const log = await (await admin.call('GET', '/v1/audit?action=settings.changed')).json() as { items: { details: { changed: Record<string, { from: unknown; to: unknown }> } }[] };
  expect(log.items[0].details.changed.name).toEqual({ from: 'Default', to: 'Channel 9' });
});

test('an existing person invited to a second tenant proves their password; /v1/me lists both; choosing either', async () => {
  const other = identityService(s.ctx).createTenant({ name: 'Radio', slug: 'radio' });
  const key = identityService(s.ctx).createKey(other.id, { role: 'owner' }).key;
  const before = smtp.mails.length;
  const r = await s.api('POST', '/v1/team/invitations', { email: 'boss@example.com', role: 'editor' }, { key });
  expect(r.status).toBe(201);
  const token = new URL(linkIn((await smtp.next('boss@example.com', before)).text, `${s.url}/studio/invite?token=`)).searchParams.get('token')!;
  expect((await s.api('POST', '/v1/invitations/accept', { token, password: 'not my password at all' }, { key: null })).status).toBe(401);
  expect((await s.api('POST', '/v1/invitations/accept', { token, password: 'owner passphrase 1' }, { key: null })).status).toBe(200);
  const me = await (await admin.call('GET', '/v1/me')).json() as { tenants: { slug: string; role: string }[]; current_tenant: { slug: string } };
  expect(me.tenants.map((t) => [t.slug, t.role])).toEqual([['default', 'owner'], ['radio', 'editor']]);
  expect(me.current_tenant.slug).toBe('default');
  await admin.call('PUT', '/v1/me/tenant', { tenant: 'radio' });
  const me2 = await (await admin.call('GET', '/v1/me')).json() as { current_tenant: { slug: string; role: string }; scopes: string[] };
  expect(me2.current_tenant).toMatchObject({ slug: 'radio', role: 'editor' });
  expect(me2.scopes).not.toContain('team:manage');
  expect((await admin.call('GET', '/v1/team/members')).status).toBe(403);
  // Already a member: a second invitation is refused.
  expect((await s.api('POST', '/v1/team/invitations', { email: 'boss@example.com', role: 'viewer' }, { key })).status).toBe(409);
  await admin.call('PUT', '/v1/me/tenant', { tenant: 'default' });
});

test('mail server down or unset: the invitation is kept and its link returned to the inviter', async () => {
  const { freePort } = await import('../helpers/server');
  for (const env of [{ VS_SMTP_URL: `smtp://127.0.0.1:${await freePort()}` }, {}] as Record<string, string>[]) {
    const t = await startTestServer({ workers: false, env });
    try {
      const r = await t.api('POST', '/v1/team/invitations', { email: 'later@example.com', role: 'viewer' });
      expect(r.status).toBe(201);
      const b = await r.json() as { mailed: boolean; accept_url: string };
      expect(b.mailed).toBe(false);
      expect(b.accept_url).toStartWith(`${t.url}/studio/invite?token=`);
      // Password reset never tells whether the address exists, mail or not.
      expect((await t.api('POST', '/v1/password-reset', { email: 'later@example.com' }, { key: null })).status).toBe(202);
    } finally { await t.stop(); }
  }
});
