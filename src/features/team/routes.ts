import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc, hidden } from '../../kernel/http/plugin';
import { clientIp } from '../../kernel/http/server';
import { AppError, notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { createMailer } from '../../kernel/mail';
import { answers } from '../meta/model';
import { audit } from '../audit/service';
import { sessionCookie } from '../people/cookie';
import { SESSION_MAX_MS, userView } from '../people/service';
import { TeamService } from './service';
import { identityService } from '../identity/service';
import { AcceptBody, CreatedInvitation, InvitationView, InviteBody, MemberView, RoleBody } from './model';

/** /v1/team (members, roles, invitations; `team:manage`) and the studio's invitation acceptance. */
export function teamRoutes(ctx: AppContext) {
  const svc = new TeamService(ctx, createMailer(ctx.config, ctx.log));
  const base = ctx.config.baseUrl;
  const MANAGE = { scope: 'team:manage' } as const;
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .get('/team/members', ({ principal: p }) => ({ items: svc.members(p.tenantId) }), {
      auth: MANAGE,
      response: { 200: t.Object({ items: t.Array(MemberView) }) },
      detail: doc('Team', 'List team members', 'רשימת חברי הצוות', 'Every person with a role in the tenant (all of them, by join time).'),
    })
    .patch('/team/members/:user_id', ({ principal: p, params, body, request }) => {
      if (!isUuid(params.user_id)) throw notFound('member');
      const r = svc.changeRole(p.tenantId, params.user_id, body.role, p);
      const member = svc.members(p.tenantId).find((m) => m.user_id === params.user_id)!;
      // Whose role changed, from what and to what: the log reads without looking the id up.
      audit(ctx, { tenantId: p.tenantId, action: 'member.role_changed', actor: p, request, target: params.user_id, details: { email: member.email, name: member.name, from: r.before, to: r.after } });
      return member;
    }, {
      auth: MANAGE,
      params: t.Object({ user_id: t.String() }),
      body: RoleBody,
      response: { 200: MemberView },
      detail: doc('Team', 'Change a member\'s role', 'שינוי תפקיד של חבר צוות', 'Takes effect on the member\'s next request. The caller can only give (or take away) a role whose scopes it holds (else 403); the last owner cannot be demoted (409).'),
    })
    .delete('/team/members/:user_id', ({ principal: p, params, set, request }) => {
      if (!isUuid(params.user_id)) throw notFound('member');
      const who = svc.members(p.tenantId).find((m) => m.user_id === params.user_id);
      const role = svc.remove(p.tenantId, params.user_id, p);
      audit(ctx, { tenantId: p.tenantId, action: 'member.removed', actor: p, request, target: params.user_id, details: { role, ...(who ? { email: who.email, name: who.name } : {}) } });
      set.status = 204;
      return null;
    }, {
      auth: MANAGE,
      params: t.Object({ user_id: t.String() }),
      detail: doc('Team', 'Remove a member', 'הסרת חבר צוות', 'The person loses access to the tenant from their next request. The last owner cannot be removed (409).', answers({ 204: null })),
    })
    .post('/team/members/:user_id/password-reset', async ({ principal: p, params, request }) => {
      if (!isUuid(params.user_id)) throw notFound('member');
      const r = await svc.sendReset(p.tenantId, params.user_id, p);
      const who = svc.members(p.tenantId).find((m) => m.user_id === params.user_id);
      audit(ctx, { tenantId: p.tenantId, action: 'password.reset_sent', actor: p, request, target: params.user_id, details: { email: who?.email, mailed: r.mailed } });
      return r;
    }, {
      auth: MANAGE,
      params: t.Object({ user_id: t.String() }),
      detail: doc('Team', 'Send a member a password reset', 'שליחת איפוס סיסמה לחבר צוות', 'A one-hour reset link: e-mailed to the member when SMTP is set up (`mailed: true`), otherwise returned as `reset_url` for the admin to pass on. Only for a role the caller could grant (else 403), and not for people who also belong to other organisations (409).',
        answers({ 200: t.Object({ mailed: t.Boolean(), reset_url: t.Optional(t.String()), expires_at: t.String() }) })),
    })
    .post('/team/invitations', async ({ principal: p, body, set, request }) => {
      const inv = await svc.invite(p.tenantId, p.tenantName, { email: body.email, role: body.role }, p);
      audit(ctx, { tenantId: p.tenantId, action: 'invitation.created', actor: p, request, target: inv.id, details: { email: inv.email, role: inv.role } });
      set.status = 201;
      return inv;
    }, {
      auth: MANAGE,
      body: InviteBody,
      response: { 201: CreatedInvitation },
      detail: doc('Team', 'Invite a person by e-mail', 'הזמנת אדם בדואר אלקטרוני', 'Sends a single-use link valid 7 days. Without SMTP configured the link is returned in `accept_url` instead. The caller can only invite to a role whose scopes it holds. Accepting a link for an address that already has an account takes that account\'s password, counted on the same throttle as studio sign-in (5 per 15 minutes per account, then 429 with `Retry-After`, the right password too).'),
    })
    .get('/team/invitations', ({ principal: p }) => ({ items: svc.pending(p.tenantId) }), {
      auth: MANAGE,
      response: { 200: t.Object({ items: t.Array(InvitationView) }) },
      detail: doc('Team', 'List pending invitations', 'רשימת הזמנות ממתינות', 'Invitations not yet accepted, withdrawn or expired, newest first.'),
    })
    .delete('/team/invitations/:id', ({ principal: p, params, set, request }) => {
      if (!isUuid(params.id)) throw notFound('pending invitation');
      svc.revoke(p.tenantId, params.id);
      audit(ctx, { tenantId: p.tenantId, action: 'invitation.revoked', actor: p, request, target: params.id });
      set.status = 204;
      return null;
    }, {
      auth: MANAGE,
      params: t.Object({ id: t.String() }),
      detail: doc('Team', 'Withdraw an invitation', 'ביטול הזמנה', 'Its link answers 410 from now on.', answers({ 204: null })),
    })
    .get('/invitations/lookup', ({ query }) => {
      const r = svc.usable(query.token);
      return { email: r.email, role: r.role, tenant_id: r.tenant_id, tenant_name: identityService(ctx).tenant(r.tenant_id).name, expires_at: new Date(r.expires_at).toISOString() };
    }, { query: t.Object({ token: t.String({ maxLength: 200 }) }), detail: hidden })
    .post('/invitations/accept', async ({ body, set, request }) => {
      let accepted: Awaited<ReturnType<typeof svc.accept>>;
      try { accepted = await svc.accept(body.token, body, clientIp(request)); } catch (e) {
        // A refused or throttled password is audited as a sign-in failure in every tenant of the account it was aimed
        // at (guessing through another tenant's invitation shows in the victim's own log).
        const action = e instanceof AppError ? ({ invalid_credentials: 'signin.failed', rate_limited: 'signin.throttled' } as const)[e.code as string] : undefined;
        if (action) {
          const a = svc.attemptOf(body.token, body.email);
          const tenants = a.user ? svc.people.store.memberships(a.user.id).map((m) => m.tenant_id) : [null];
          for (const tenantId of tenants) audit(ctx, { tenantId, action, actor: null, actorLabel: a.email ?? '', request, target: a.user?.id ?? null, details: { via: 'invitation', invitation: a.invitation } });
        }
        throw e;
      }
      const { user, invitation } = accepted;
      audit(ctx, { tenantId: invitation.tenant_id, action: 'member.added', actor: null, actorLabel: user.email, ip: clientIp(request), target: user.id, details: { role: invitation.role, invitation: invitation.id, email: user.email, name: user.name } });
      // Accepting signs the person in, with the invited tenant as the current one.
      const s = svc.people.openSession(user, clientIp(request), request.headers.get('user-agent') ?? '');
      svc.people.store.setSessionTenant(s.id, invitation.tenant_id);
      set.headers['set-cookie'] = sessionCookie(s.token, SESSION_MAX_MS / 1000, base);
      return { user: userView(user), tenant_id: invitation.tenant_id, role: invitation.role, csrf_token: s.csrf };
    }, { publicJson: true, body: AcceptBody, detail: hidden });
}
