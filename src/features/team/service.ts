import { AppError, notFound } from '../../kernel/errors';
import { newId, randomToken } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import { tx } from '../../kernel/db/sqlite';
import { hashKey, type Principal } from '../../kernel/http/auth';
import { scopesForRole, type Role } from '../../kernel/http/scopes';
import type { Mailer } from '../../kernel/mail';
import { PeopleService, type PeopleCtx } from '../people/service';
import { normEmail, checkPassword } from '../people/password';
import { inviteMail } from '../people/mails';
import { wrongCredentials } from '../people/throttle';
import type { UserRow } from '../people/store';
import { TeamStore, type InvitationRow } from './store';

/** Invitations (and the first-owner link) are valid 7 days. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

/** A member as listed. */
export interface MemberView { user_id: string; email: string; name: string; role: string; joined_at: string }
/** An invitation as listed (never the link). */
export interface InvitationView { id: string; email: string | null; role: string; created_at: string; expires_at: string }

const invitationView = (r: InvitationRow): InvitationView => ({ id: r.id, email: r.email, role: r.role, created_at: iso(r.created_at), expires_at: iso(r.expires_at) });

/** Team members, roles and invitations by e-mail. */
export class TeamService {
  private store: TeamStore;
  readonly people: PeopleService;
  constructor(private ctx: PeopleCtx, private mailer: Mailer | null = null) {
    this.store = new TeamStore(ctx.db);
    this.people = new PeopleService(ctx, mailer);
  }

  private now(): number { return this.ctx.clock.now(); }

  /** Members of a tenant. */
  members(tenantId: string): MemberView[] {
    return this.people.store.members(tenantId).map((m) => ({ user_id: m.user_id, email: m.email, name: m.user_name, role: m.role, joined_at: iso(m.created_at) }));
  }

  /** The caller may hand out a role only when it holds every scope of that role. */
  private mayGrant(by: Principal, role: Role): void {
    const missing = scopesForRole(role).filter((s) => !by.scopes.has(s));
    if (missing.length) throw new AppError('insufficient_scope', `cannot grant role ${role}: the caller lacks ${missing.join(', ')}`);
  }

  /** Changes a member's role (never leaving the tenant without an owner); effective from the member's next request. */
  changeRole(tenantId: string, userId: string, role: Role, by: Principal): { before: string; after: Role } {
    this.mayGrant(by, role);
    const before = tx(this.ctx.db, () => {
      const m = this.people.store.membership(tenantId, userId);
      if (!m) throw notFound('member');
      this.mayGrant(by, m.role as Role);
      if (m.role === 'owner' && role !== 'owner' && this.people.store.countRole(tenantId, 'owner') <= 1) throw new AppError('conflict', 'this is the tenant\'s last owner; make someone else owner first');
      this.people.store.setRole(tenantId, userId, role);
      return m.role;
    });
    this.ctx.keys.invalidateUser(userId);
    return { before, after: role };
  }

  /**
   * A password reset started by an admin for a member whose role the caller could grant; refused (409) for people who
   * also belong to other organisations (their password guards those too: they use "forgot password" themselves).
   */
  async sendReset(tenantId: string, userId: string, by: Principal): Promise<{ mailed: boolean; reset_url?: string; expires_at: string }> {
    const m = this.people.store.membership(tenantId, userId);
    if (!m) throw notFound('member');
    this.mayGrant(by, m.role as Role);
    if (this.people.store.memberships(userId).some((x) => x.tenant_id !== tenantId)) throw new AppError('conflict', 'this person also belongs to other organisations; they can reset their password from the sign-in page');
    return this.people.sendReset(userId);
  }

  /** Removes a member (never the last owner). */
  remove(tenantId: string, userId: string, by: Principal): string {
    const role = tx(this.ctx.db, () => {
      const m = this.people.store.membership(tenantId, userId);
      if (!m) throw notFound('member');
      this.mayGrant(by, m.role as Role);
      if (m.role === 'owner' && this.people.store.countRole(tenantId, 'owner') <= 1) throw new AppError('conflict', 'this is the tenant\'s last owner; it cannot be removed');
      this.people.store.removeMembership(tenantId, userId);
      return m.role;
    });
    this.ctx.keys.invalidateUser(userId);
    return role;
  }

  /** Creates a single-use invitation link (e-mailed when `email` is given and SMTP is configured). */
  async invite(tenantId: string, tenantName: string, input: { email: string | null; role: Role }, by: Principal | null): Promise<InvitationView & { mailed: boolean; accept_url?: string }> {
    if (by) this.mayGrant(by, input.role);
    const email = input.email === null ? null : normEmail(input.email);
    if (email) {
      const u = this.people.store.userByEmail(email);
      if (u && this.people.store.membership(tenantId, u.id)) throw new AppError('conflict', 'this person is already a member');
    }
    const token = randomToken(32);
    const now = this.now();
    const row = { id: newId(), tenant_id: tenantId, email, role: input.role, hash: hashKey(token), invited_by: by?.userId ?? by?.keyId ?? null, created_at: now, expires_at: now + INVITE_TTL_MS };
    this.store.insert(row);
    const link = `${this.ctx.config.baseUrl}/studio/invite?token=${token}`;
    let mailed = false;
    if (email && this.mailer?.configured) {
      // A mail server that refuses or is down must not lose the invitation: the link is then returned to the caller.
      try {
        await this.mailer.send({ to: email, ...inviteMail(link, tenantName, input.role, by?.session?.user.email ?? '') });
        mailed = true;
      } catch (e) { this.ctx.log.error('invitation mail failed', { invitation: row.id, error: String(e) }); }
    }
    return { ...invitationView({ ...row, seq: 0, accepted_at: null, revoked_at: null }), mailed, ...(mailed ? {} : { accept_url: link }) };
  }

  /** Pending invitations of a tenant. */
  pending(tenantId: string): InvitationView[] {
    return this.store.pending(tenantId, this.now()).map(invitationView);
  }

  /** Revokes a pending invitation. */
  revoke(tenantId: string, id: string): void {
    if (!this.store.revoke(tenantId, id, this.now())) throw notFound('pending invitation');
  }

  /** The invitation behind a link, if still usable (used, revoked or expired → 410 with the reason). */
  usable(token: string): InvitationRow {
    const r = this.store.byHash(hashKey(token));
    if (!r) throw new AppError('not_found', 'unknown invitation link');
    if (r.accepted_at) throw new AppError('gone', 'this invitation link was already used');
    if (r.revoked_at) throw new AppError('gone', 'this invitation was withdrawn');
    if (r.expires_at <= this.now()) throw new AppError('gone', 'this invitation link expired; ask for a new one');
    return r;
  }

  /** Whom an acceptance attempt was aimed at: the invitation's (or typed) address and its account, if any (for the audit). */
  attemptOf(token: string, typed?: string): { invitation: string | null; email: string | null; user: UserRow | null } {
    const inv = this.store.byHash(hashKey(token));
    const email = (inv?.email ?? typed ?? '').trim().toLowerCase() || null;
    return { invitation: inv?.id ?? null, email, user: email ? this.people.store.userByEmail(email) : null };
  }

  /**
   * Accepts an invitation: a new address creates the user with the given password; an existing user proves it
   * with their password. The membership is added once (the link is single use).
   *
   * The same answers whatever the address: a weak password is refused (422) before anything else, for an existing
   * account as for a new one (every stored password met these rules when it was set, so a weak one is never right);
   * then an attempt is reserved on the shared password throttle for the address, the client and this invitation
   * (429 past the limit, the right password too), and only then is the password verified (a wrong one: the generic
   * 401 of sign-in) or the new account created.
   */
  async accept(token: string, input: { email?: string; name?: string; password: string }, ip: string | null = null): Promise<{ user: UserRow; invitation: InvitationRow }> {
    const inv = this.usable(token);
    const email = inv.email ?? (input.email ? normEmail(input.email) : null);
    if (!email) throw new AppError('validation_error', 'email: required for this link', { errors: [{ field: 'email', detail: 'required for this link' }] });
    if (inv.email && input.email && normEmail(input.email) !== inv.email) throw new AppError('validation_error', 'email: the invitation is for another address', { errors: [{ field: 'email', detail: 'the invitation is for another address' }] });
    checkPassword(input.password, email);
    const from = { ip, also: [`invitation:${inv.id}`] };
    const user = this.people.store.userByEmail(email)
      ? await this.people.verify(email, input.password, from)
      : await this.people.throttle.reserve({ account: email, ...from }).run(() => this.people.createUser({ email, name: input.name, password: input.password }));
    if (!user) throw wrongCredentials();
    const u = user;
    tx(this.ctx.db, () => {
      if (!this.store.accept(inv.id, this.now())) throw new AppError('gone', 'this invitation link was already used');
      this.people.store.upsertMembership(inv.tenant_id, u.id, inv.role, this.now());
    });
    this.ctx.keys.invalidateUser(u.id);
    return { user: u, invitation: inv };
  }
}

/** First start: a one-time link (7 days) that creates the first owner of `tenantSlug`; null when it already has members. */
export async function firstOwnerLink(ctx: PeopleCtx, tenantId: string, tenantName: string): Promise<string | null> {
  const team = new TeamService(ctx);
  if (team.members(tenantId).length) return null;
  const inv = await team.invite(tenantId, tenantName, { email: null, role: 'owner' }, null);
  return inv.accept_url ?? null;
}
