import { AppError, invalid, notFound } from '../../kernel/errors';
import { newId, randomToken } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import { tx } from '../../kernel/db/sqlite';
import { hashKey, type Principal, type SessionRecord, type SessionSource } from '../../kernel/http/auth';
import { isRole, scopesForRole, type Role } from '../../kernel/http/scopes';
import type { AppContext } from '../../kernel/context';
import type { Mailer } from '../../kernel/mail';
import { PeopleStore, type SessionRow, type UserRow } from './store';
import { checkPassword, hashPassword, normEmail, verifyPassword } from './password';
import { resetMail } from './mails';
import { passwordThrottle, type PasswordThrottle } from './throttle';

/** Studio session lifetimes: idle 12 hours, absolute 7 days. */
export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_MAX_MS = 7 * 24 * 3600_000;
/** Password reset links are valid one hour. */
export const RESET_TTL_MS = 3600_000;

/** The parts of the app context people and team services use (the CLI builds just these). */
export type PeopleCtx = Pick<AppContext, 'db' | 'clock' | 'keys' | 'config' | 'log' | 'slots'>;

/** A person as the API shows them. */
export interface UserView { id: string; email: string; name: string; created_at: string }
/** A signed-in session as its owner sees it. */
export interface SessionView { id: string; current: boolean; ip: string | null; user_agent: string; created_at: string; last_seen_at: string; expires_at: string; tenant_id: string | null }

/** Maps a user row to its view. */
export const userView = (u: UserRow): UserView => ({ id: u.id, email: u.email, name: u.name, created_at: iso(u.created_at) });

/** Users, passwords, studio sessions and password resets. */
export class PeopleService {
  readonly store: PeopleStore;
  /** The appliance's one password throttle: every password check reserves an attempt here first. */
  readonly throttle: PasswordThrottle;
  private dummy: Promise<string> | null = null;
  constructor(private ctx: PeopleCtx, private mailer: Mailer | null = null) {
    this.store = new PeopleStore(ctx.db);
    this.throttle = passwordThrottle(ctx);
  }

  private now(): number { return this.ctx.clock.now(); }

  /** The person's role in a tenant, or null when not a member (read by connect when a code is exchanged). */
  roleIn(tenantId: string, userId: string): string | null {
    return this.store.membership(tenantId, userId)?.role ?? null;
  }

  /** Creates a user (e-mail unique, password checked and hashed); with `tenantId` and `role` also a membership. */
  async createUser(input: { email: string; name?: string; password: string; tenantId?: string; role?: Role }): Promise<UserRow> {
    const email = normEmail(input.email);
    const name = (input.name ?? '').trim();
    if (name.length > 200) throw invalid('name', 'at most 200 characters');
    checkPassword(input.password, email);
    const hash = await hashPassword(input.password);
    return tx(this.ctx.db, () => {
      if (this.store.userByEmail(email)) throw new AppError('conflict', 'a user with this e-mail address exists');
      const now = this.now();
      const row = { id: newId(), email, name, password_hash: hash, created_at: now, password_changed_at: now };
      this.store.insertUser(row);
      if (input.tenantId && input.role) this.store.upsertMembership(input.tenantId, row.id, input.role, now);
      return { ...row, seq: 0, disabled_at: null };
    });
  }

  /**
   * Checks an e-mail and password under the shared throttle: the attempt is reserved first (429 `rate_limited` past
   * the limit, without checking anything), then verified. An unknown address costs the same argon2id verification
   * as a wrong password (against a stand-in hash), so neither the answer nor its time tells whether the account
   * exists. Null when wrong.
   */
  async verify(emailIn: string, password: string, from: { ip: string | null; also?: string[] }): Promise<UserRow | null> {
    const email = emailIn.trim().toLowerCase();
    return this.throttle.reserve({ account: email, ip: from.ip, also: from.also }).run(async () => {
      const u = email.length <= 254 ? this.store.userByEmail(email) : null;
      const hash = u && !u.disabled_at ? u.password_hash : await (this.dummy ??= hashPassword(randomToken(18)));
      const ok = password.length <= 1024 && await verifyPassword(password, hash);
      return ok && u && !u.disabled_at ? u : null;
    });
  }

  /** Opens a studio session for a user; returns the cookie token (shown once; only its hash is kept) and CSRF token. */
  openSession(user: UserRow, ip: string | null, userAgent: string): { token: string; csrf: string; id: string; expiresAt: number } {
    const token = randomToken(32);
    const csrf = randomToken(24);
    const now = this.now();
    const id = newId();
    this.store.insertSession({
      id, user_id: user.id, hash: hashKey(token), csrf, tenant_id: null, ip, user_agent: userAgent.slice(0, 300),
      created_at: now, last_seen_at: now, expires_at: now + SESSION_MAX_MS,
    });
    return { token, csrf, id, expiresAt: now + SESSION_MAX_MS };
  }

  /** The session source the auth layer uses: session row → principal with the current tenant's role scopes. */
  sessionSource(): SessionSource {
    return {
      lookup: (hash) => {
        const s = this.store.activeSessionByHash(hash);
        return s ? this.record(s) : null;
      },
      touch: (id, at) => this.store.touchSession(id, at),
      now: () => this.now(),
    };
  }

  private record(s: SessionRow & { email: string; user_name: string }): SessionRecord {
    const ms = this.store.memberships(s.user_id);
    const cur = s.tenant_id ? ms.find((m) => m.tenant_id === s.tenant_id) : undefined;
    const role = cur && isRole(cur.role) ? cur.role : null;
    const principal: Principal = {
      kind: 'session', keyId: s.id, userId: s.user_id, tenantId: role ? cur!.tenant_id : '', tenantSlug: role ? cur!.slug : '',
      tenantName: role ? cur!.name : '', cdnOnly: role ? cur!.cdn_only === 1 : false,
      scopes: new Set(role ? scopesForRole(role) : []), role,
      session: {
        csrf: s.csrf, user: { id: s.user_id, email: s.email, name: s.user_name },
        tenants: ms.map((m) => ({ id: m.tenant_id, slug: m.slug, name: m.name, role: m.role, cdn_only: m.cdn_only === 1 })),
      },
    };
    return { principal, lastSeenAt: s.last_seen_at, expiresAt: s.expires_at, idleMs: SESSION_IDLE_MS };
  }

  /** Makes one of the person's tenants (slug or id) the session's current tenant. */
  chooseTenant(p: Principal, slugOrId: string): void {
    const t = p.session!.tenants.find((m) => m.slug === slugOrId || m.id === slugOrId);
    if (!t) throw notFound(`membership in tenant "${slugOrId}"`);
    this.store.setSessionTenant(p.keyId, t.id);
    this.ctx.keys.invalidateSession(p.keyId);
  }

  /** The person's live sessions. */
  sessions(p: Principal): SessionView[] {
    return this.store.userSessions(p.userId!, this.now()).map((s) => ({
      id: s.id, current: s.id === p.keyId, ip: s.ip, user_agent: s.user_agent, created_at: iso(s.created_at),
      last_seen_at: iso(s.last_seen_at), expires_at: iso(s.expires_at), tenant_id: s.tenant_id,
    }));
  }

  /** Revokes one of the person's sessions (their own current one = sign out). */
  revokeSession(userId: string, id: string): void {
    if (!this.store.revokeSession(userId, id, this.now())) throw notFound('session');
    this.ctx.keys.invalidateSession(id);
  }

  /**
   * Changes a signed-in person's password (the current one required, checked under the shared throttle: 429 past
   * the limit, 403 when wrong); their other sessions are signed out. A weak new password is refused (422) before
   * the current one is checked, so it costs no attempt.
   */
  async changePassword(p: Principal, current: string, next: string, ip: string | null = null): Promise<void> {
    const u = this.store.userById(p.userId!);
    if (!u) throw new AppError('forbidden', 'the current password is wrong');
    checkPassword(next, u.email, 'new_password');
    const ok = await this.throttle.reserve({ account: u.email, ip }).run(async () => (await verifyPassword(current.slice(0, 1024), u.password_hash)) || null);
    if (!ok) throw new AppError('forbidden', 'the current password is wrong');
    const pw = await hashPassword(next);
    const now = this.now();
    tx(this.ctx.db, () => {
      this.store.setPassword(u.id, pw, now);
      for (const s of this.store.userSessions(u.id, now)) if (s.id !== p.keyId) this.store.revokeSession(u.id, s.id, now);
    });
    this.ctx.keys.invalidateUser(u.id);
  }

  /** Sends a reset link when the address belongs to a user; neither the answer nor its time says whether it does. */
  async requestReset(emailIn: string, ip: string | null = null): Promise<void> {
    const email = normEmail(emailIn);
    // Counted per address (existing or not) and per client on the shared throttle: 429 alike past 5 per 15 minutes.
    this.throttle.reserve({ account: `reset:${email}`, ip }).settle(false);
    const u = this.store.userByEmail(email);
    if (!u || u.disabled_at) return;
    const token = randomToken(32);
    const now = this.now();
    this.store.insertReset(hashKey(token), u.id, now, now + RESET_TTL_MS);
    const link = `${this.ctx.config.baseUrl}/studio/reset?token=${token}`;
    if (!this.mailer?.configured) { this.ctx.log.warn('password reset requested but smtp is not configured', { user: u.id }); return; }
    // Not awaited: the answer must not take longer for an existing address than for an unknown one.
    void this.mailer.send({ to: u.email, ...resetMail(link) }).catch((e) => this.ctx.log.error('reset mail failed', { user: u.id, error: String(e) }));
  }

  /**
   * A reset link for a person, started by a team admin: mailed when SMTP is set up (`mailed: true`), otherwise (or
   * when the mail fails) handed back for the admin to pass on, like an invitation link.
   */
  async sendReset(userId: string): Promise<{ mailed: boolean; reset_url?: string; expires_at: string }> {
    const u = this.store.userById(userId);
    if (!u || u.disabled_at) throw notFound('member');
    const token = randomToken(32);
    const now = this.now();
    this.store.insertReset(hashKey(token), u.id, now, now + RESET_TTL_MS);
    const link = `${this.ctx.config.baseUrl}/studio/reset?token=${token}`;
    const expires_at = iso(now + RESET_TTL_MS);
    if (this.mailer?.configured) {
      const ok = await this.mailer.send({ to: u.email, ...resetMail(link) }).then(() => true, (e) => { this.ctx.log.error('reset mail failed', { user: u.id, error: String(e) }); return false; });
      if (ok) return { mailed: true, expires_at };
    }
    return { mailed: false, reset_url: link, expires_at };
  }

  /**
   * Sets a new password from a reset link (single use, one hour); every session of the user is signed out. The link
   * proves the mailbox, so the account's counted password attempts are forgiven (a locked-out person resets).
   */
  async confirmReset(token: string, password: string): Promise<UserRow> {
    const hash = hashKey(token);
    const r = this.store.reset(hash);
    if (!r) throw new AppError('not_found', 'unknown reset link');
    if (r.used_at) throw new AppError('gone', 'this reset link was already used; request a new one');
    if (r.expires_at <= this.now()) throw new AppError('gone', 'this reset link expired; request a new one');
    const u = this.store.userById(r.user_id)!;
    checkPassword(password, u.email);
    const pw = await hashPassword(password);
    tx(this.ctx.db, () => {
      if (!this.store.useReset(hash, this.now())) throw new AppError('gone', 'this reset link was already used; request a new one');
      this.store.setPassword(u.id, pw, this.now());
      this.store.revokeAllSessions(u.id, this.now());
    });
    this.ctx.keys.invalidateUser(u.id);
    this.throttle.forgive(u.email);
    return u;
  }
}
