import { afterAll, beforeAll, expect, test } from 'bun:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server';
import { rawRequest, type RawAnswer } from '../helpers/raw-http';
import { ManualClock } from '../../src/kernel/clock';
import { PeopleService } from '../../src/features/people/service';
import { identityService } from '../../src/features/identity/service';
import { linkIn, signIn, startSmtp, type Studio } from './people-helpers';

// Issue 41 items 1 and 2: every route that checks a password shares one throttle (reserved before the slow hash,
// keyed by account and by client address) and one generic error. Each attack runs against the appliance's own port
// and through the native delivery front (nginx), where a request can only reach a password route by a target the
// front should not forward (`/m/x\..\..\v1\...`): through the front it must never give a session either.
let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let own: number, front: number;
let tenantA: string, tenantB: string;
let adminB: Studio;
let people: PeopleService;
const clock = new ManualClock(Date.parse('2026-11-24T03:00:00Z'));
/** The per-account limit of the shared throttle (failed or in-flight attempts in 15 minutes). */
const LIMIT = 5;
const RIGHT = 'victim passphrase 41';
let victims = 0;

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ workers: false, clock, env: { VS_DELIVERY_FRONT_PORT: '0', VS_SMTP_URL: smtp.url } });
  own = Number(new URL(s.url).port);
  front = s.front!.port;
  const ids = identityService(s.ctx);
  tenantA = ids.tenant('default').id;
  tenantB = ids.createTenant({ name: 'Tenant B', slug: 'tenant-b' }).id;
  people = new PeopleService(s.ctx);
  await people.createUser({ email: 'admin@b.test', password: 'tenant b passphrase', tenantId: tenantB, role: 'admin' });
  adminB = await signIn(s, 'admin@b.test', 'tenant b passphrase');
  expect((await adminB.call('PUT', '/v1/me/tenant', { tenant: 'tenant-b' })).status).toBe(200);
}, 60_000);
afterAll(async () => { await s?.stop(); await smtp?.stop(); }, 60_000);

/** Moves the clock past the throttle's window: each scenario starts with nothing counted for 127.0.0.1. */
const freshWindow = () => clock.advance(16 * 60_000);

/** A new owner of tenant A (the victim) with the password RIGHT. */
async function newOwnerOfA(): Promise<string> {
  const email = `owner${++victims}@a.test`;
  await people.createUser({ email, password: RIGHT, tenantId: tenantA, role: 'owner' });
  return email;
}

/** Tenant B's admin invites `email` (to tenant B); the token from the link in the mail. */
async function inviteFromB(email: string): Promise<string> {
  const before = smtp.mails.length;
  const r = await adminB.call('POST', '/v1/team/invitations', { email, role: 'viewer' });
  expect(r.status).toBe(201);
  const link = linkIn((await smtp.next(email, before)).text, `${s.url}/studio/invite?token=`);
  return new URL(link).searchParams.get('token')!;
}

type Via = 'own' | 'front';
/** The target a client uses to reach `path`: as is on the appliance's port; by backslash dot segments through the front. */
const target = (via: Via, path: string) => via === 'own' ? path : `/m/x\\..\\..${path.replace(/\//g, '\\')}`;

/** One raw JSON POST (nothing normalised on the way). */
async function post(via: Via, path: string, body: unknown, headers: Record<string, string> = {}): Promise<RawAnswer & { json: Record<string, unknown> }> {
  const port = via === 'own' ? own : front;
  const payload = Buffer.from(JSON.stringify(body));
  const extra = Object.entries(headers).map(([k, v]) => `\r\n${k}: ${v}`).join('');
  const a = await rawRequest(port, `POST ${target(via, path)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}${extra}`, payload, 30_000);
  let json: Record<string, unknown> = {};
  try { json = JSON.parse(a.body.toString('utf8')) as Record<string, unknown>; } catch { /* not JSON */ }
  return { ...a, json };
}

/** A refusal by the shared throttle: 429 problem details with Retry-After, and no session. */
function expectThrottled(a: RawAnswer & { json: Record<string, unknown> }) {
  expect(a.status).toBe(429);
  expect(a.headers['content-type']).toStartWith('application/problem+json');
  expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(String(a.json.type)).toEndWith('/rate_limited');
  expect(a.headers['set-cookie']).toBeUndefined();
}

for (const via of ['own', 'front'] as const) {
  test(`reproduction (${via}): tenant B's admin invites tenant A's owner; 12 wrong guesses, then the right password gives no session`, async () => {
    freshWindow();
    const victim = await newOwnerOfA();
    const token = await inviteFromB(victim);
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      const a = await post(via, '/v1/invitations/accept', { token, password: `wrong guess number ${i}` });
      answers.push(a.status);
      expect(a.headers['set-cookie']).toBeUndefined();
      if (a.status === 401) expect(a.json).toMatchObject({ status: 401, detail: 'wrong e-mail address or password' });
      if (a.status === 429) expectThrottled(a);
    }
    const right = await post(via, '/v1/invitations/accept', { token, password: RIGHT });
    expect(right.headers['set-cookie']).toBeUndefined();
    expect(right.status).not.toBe(200);
    if (via === 'own') {
      // Five guesses verified (401), every later one refused before its hash is checked, the right password too.
      expect(answers).toEqual([...Array(LIMIT).fill(401), ...Array(12 - LIMIT).fill(429)]);
      expectThrottled(right);
      // One throttle: the guesses made through the invitation lock sign-in to the same account as well.
      expectThrottled(await post(via, '/v1/session', { email: victim, password: RIGHT }));
      // Tenant A's own audit log shows the guessing aimed at its owner through tenant B's invitation.
      const log = async (action: string) => (await (await s.api('GET', `/v1/audit?action=${action}&limit=200`)).json() as { items: { actor: { label: string }; details: { via?: string } }[] }).items
        .filter((e) => e.actor.label === victim && e.details.via === 'invitation');
      expect((await log('signin.failed')).length).toBe(LIMIT);
      expect((await log('signin.throttled')).length).toBe(12 - LIMIT + 1);
      // Once the window has passed the right password is verified again (the lock is the throttle's, not permanent).
      freshWindow();
      const later = await post(via, '/v1/invitations/accept', { token, password: RIGHT });
      expect(later.status).toBe(200);
    } else {
      // Through the front a password route is either not reached at all (4xx from the front or the target check) or
      // reached under the same throttle; never more than LIMIT verified guesses, never a session.
      expect(answers.filter((x) => x === 401).length).toBeLessThanOrEqual(LIMIT);
      for (const x of [...answers, right.status]) expect([400, 401, 404, 429]).toContain(x);
    }
    // The victim is not a member of tenant B (no session was opened through the invitation).
    const members = await (await adminB.call('GET', '/v1/team/members')).json() as { items: { email: string }[] };
    if (via === 'front') expect(members.items.map((m) => m.email)).not.toContain(victim);
  }, 120_000);
}

/**
 * N parallel attempts with the right password at generated positions: at most LIMIT of them are verified (answered
 * 200, 401 or, for a second right password on a used invitation, 410); every other one is a 429 refusal.
 */
async function burst(via: Via, route: 'session' | 'accept', n: number, rightAt: Set<number>) {
  freshWindow();
  const victim = await newOwnerOfA();
  const token = route === 'accept' ? await inviteFromB(victim) : '';
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => {
    const password = rightAt.has(i) ? RIGHT : `parallel guess ${i}`;
    return route === 'session'
      ? post(via, '/v1/session', { email: victim, password })
      : post(via, '/v1/invitations/accept', { token, password });
  }));
  const verified = answers.filter((a) => a.status !== 429 && a.status !== 400 && a.status !== 404);
  const summary = `${via} ${route} n=${n} right at ${[...rightAt].join(',')}: ${answers.map((a) => a.status).join(' ')}`;
  expect(verified.length, summary).toBeLessThanOrEqual(LIMIT);
  for (const a of verified) expect([200, 401, 410], summary).toContain(a.status);
  for (const a of answers) if (a.status === 429) expectThrottled(a);
  if (via === 'own') expect(answers.filter((a) => a.status === 429).length, summary).toBe(n - LIMIT);
}

for (const via of ['own', 'front'] as const) {
  for (const route of ['session', 'accept'] as const) {
    test(`concurrency (${via}, ${route}): N parallel attempts never verify more than the limit`, async () => {
      await fc.assert(fc.asyncProperty(
        fc.integer({ min: 50, max: 100 }).chain((n) => fc.tuple(fc.constant(n), fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: 3 }))),
        async ([n, at]) => { await burst(via, route, n, new Set(at)); },
      ), { numRuns: 3 });
    }, 180_000);
  }
}

/** Status, type, title and detail of an answer, and its field errors: what a client can compare. */
const shape = (a: RawAnswer & { json: Record<string, unknown> }) => ({
  status: a.status, type: a.json.type, title: a.json.title, detail: a.json.detail, errors: a.json.errors, cookie: a.headers['set-cookie'],
  contentType: a.headers['content-type'],
});

for (const via of ['own', 'front'] as const) {
  test(`enumeration (${via}): an unknown and an existing address answer alike (weak password, wrong password, throttled)`, async () => {
    freshWindow();
    const existing = await newOwnerOfA();
    const unknown = `nobody${victims}@a.test`;
    const [tExisting, tUnknown] = [await inviteFromB(existing), await inviteFromB(unknown)];
    // A weak password: refused for both in the same words, whether or not the address has an account.
    for (const weak of ['short', 'password123', 'x'.repeat(12)]) {
      const a = await post(via, '/v1/invitations/accept', { token: tExisting, password: weak });
      const b = await post(via, '/v1/invitations/accept', { token: tUnknown, password: weak });
      expect(shape(a), weak).toEqual(shape(b));
      if (via === 'own') expect(a.status).toBe(422);
    }
    // Sign-in: wrong password for an existing account and any password for an unknown address, then throttled alike.
    const seen = { existing: [] as ReturnType<typeof shape>[], unknown: [] as ReturnType<typeof shape>[] };
    for (let i = 0; i < LIMIT + 2; i++) {
      seen.existing.push(shape(await post(via, '/v1/session', { email: existing, password: `wrong guess ${i} here` })));
      seen.unknown.push(shape(await post(via, '/v1/session', { email: unknown, password: `wrong guess ${i} here` })));
    }
    expect(seen.existing).toEqual(seen.unknown);
    if (via === 'own') expect(seen.existing.map((x) => x.status)).toEqual([...Array(LIMIT).fill(401), 429, 429]);
  }, 120_000);
}

test('password change and reset go through the same throttle: wrong current passwords lock sign-in; a reset unlocks', async () => {
  freshWindow();
  const email = await newOwnerOfA();
  const st = await signIn(s, email, RIGHT);
  for (let i = 0; i < LIMIT; i++) {
    const r = await st.call('PUT', '/v1/me/password', { current_password: `not the current ${i}`, new_password: 'a new passphrase 41' });
    expect(r.status).toBe(403);
  }
  // The right current password is refused too now, and so is sign-in to the account.
  const locked = await st.call('PUT', '/v1/me/password', { current_password: RIGHT, new_password: 'a new passphrase 41' });
  expect(locked.status).toBe(429);
  expect(Number(locked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expectThrottled(await post('own', '/v1/session', { email, password: RIGHT }));
  // The owner of the mailbox resets the password: that proves the account and clears its failures.
  const before = smtp.mails.length;
  expect((await s.api('POST', '/v1/password-reset', { email }, { key: null })).status).toBe(202);
  const token = new URL(linkIn((await smtp.next(email, before)).text, `${s.url}/studio/reset?token=`)).searchParams.get('token')!;
  expect((await s.api('POST', '/v1/password-reset/confirm', { token, password: 'a reset passphrase 41' }, { key: null })).status).toBe(204);
  expect((await post('own', '/v1/session', { email, password: 'a reset passphrase 41' })).status).toBe(200);
}, 120_000);

test('with delivery workers on the same port (VS_DELIVERY_WORKERS=3), a burst is still counted by the one throttle', async () => {
  const w = await startTestServer({ workers: false, env: { VS_DELIVERY_WORKERS: '3' } });
  try {
    expect(w.tier?.pids().length).toBe(2);
    const port = Number(new URL(w.url).port);
    const def = identityService(w.ctx).tenant('default');
    await new PeopleService(w.ctx).createUser({ email: 'owner@w.test', password: RIGHT, tenantId: def.id, role: 'owner' });
    // Fresh connections: the kernel spreads them over the three processes; workers forward sign-in to the main one.
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => {
      const payload = JSON.stringify({ email: 'owner@w.test', password: i % 17 === 3 ? RIGHT : `parallel guess ${i}` });
      return rawRequest(port, `POST /v1/session HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}`, payload, 30_000);
    }));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((x) => x !== 429).length, statuses.join(' ')).toBeLessThanOrEqual(LIMIT);
    for (const x of statuses) expect([200, 401, 429]).toContain(x);
  } finally { await w.stop(); }
}, 120_000);

test('reset request: an unknown and an existing address answer alike and at once, even when the mail server never answers; 5 per address', async () => {
  // A mail server that accepts connections and never greets: sending to it hangs until nodemailer gives up.
  const held: import('node:net').Socket[] = [];
  const mute = (await import('node:net')).createServer((c) => { held.push(c); });
  await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', () => resolve()));
  const w = await startTestServer({ workers: false, env: { VS_SMTP_URL: `smtp://127.0.0.1:${(mute.address() as { port: number }).port}` } });
  try {
    const def = identityService(w.ctx).tenant('default');
    await new PeopleService(w.ctx).createUser({ email: 'owner@r.test', password: RIGHT, tenantId: def.id, role: 'owner' });
    const ask = async (email: string) => {
      const t0 = performance.now();
      const r = await w.api('POST', '/v1/password-reset', { email }, { key: null });
      return { status: r.status, body: await r.text(), retry: r.headers.get('retry-after') !== null, slow: performance.now() - t0 > 3_000 };
    };
    const existing: Awaited<ReturnType<typeof ask>>[] = [], unknown: Awaited<ReturnType<typeof ask>>[] = [];
    for (let i = 0; i < LIMIT + 1; i++) { existing.push(await ask('owner@r.test')); unknown.push(await ask('nobody@r.test')); }
    // The answer never waits for the mail (before: the existing address hung ~30 s on the mute server, the unknown one did not).
    expect(existing.map((x) => ({ ...x, body: x.body.replace(/req_[A-Za-z0-9_-]+/, '') }))).toEqual(unknown.map((x) => ({ ...x, body: x.body.replace(/req_[A-Za-z0-9_-]+/, '') })));
    expect(existing.map((x) => x.status)).toEqual([...Array(LIMIT).fill(202), 429]);
    expect(existing.every((x) => !x.slow)).toBe(true);
  } finally {
    for (const c of held) c.destroy();
    mute.close();
    await w.stop();
  }
}, 120_000);
