import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { hidden } from '../../kernel/http/plugin';
import { clientIp } from '../../kernel/http/server';
import { AppError, notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { createMailer } from '../../kernel/mail';
import { audit } from '../audit/service';
import { PeopleService, SESSION_MAX_MS, userView } from './service';
import { wrongCredentials } from './throttle';
import { sessionCookie, clearCookie } from './cookie';
import { sessionMe } from './me';
import { studioLinkPages } from './pages';
import { ChangePasswordBody, ChooseTenantBody, ResetConfirmBody, ResetRequestBody, SignInBody } from './model';

const SESSION_ONLY = { scope: null, only: 'session' } as const;

/**
 * Studio sign-in and sessions (omitted from the public OpenAPI): POST/GET/DELETE /v1/session, /v1/me/sessions,
 * PUT /v1/me/tenant, password reset. Building these routes enables session cookies in the auth layer.
 */
export function peopleRoutes(ctx: AppContext) {
  const svc = new PeopleService(ctx, createMailer(ctx.config, ctx.log));
  ctx.keys.attachSessions(svc.sessionSource());
  const cdnHost = new URL(ctx.config.cdnBaseUrl).host;
  const base = ctx.config.baseUrl;
  const api = new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .post('/session', async ({ body, request, set }) => {
      const ip = clientIp(request);
      const email = body.email.trim().toLowerCase();
      // Reserved before the slow hash (429 past the shared limit, the right password too), settled after it.
      let u;
      try { u = await svc.verify(email, body.password, { ip }); } catch (e) {
        if (e instanceof AppError && e.code === 'rate_limited') audit(ctx, { tenantId: null, action: 'signin.throttled', actor: null, actorLabel: email, ip });
        throw e;
      }
      if (!u) {
        const known = svc.store.userByEmail(email);
        const tenants = known ? svc.store.memberships(known.id).map((m) => m.tenant_id) : [null];
        for (const tenantId of tenants) audit(ctx, { tenantId, action: 'signin.failed', actor: null, actorLabel: email, ip, target: known?.id ?? null });
        throw wrongCredentials();
      }
      const s = svc.openSession(u, ip, request.headers.get('user-agent') ?? '');
      set.headers['set-cookie'] = sessionCookie(s.token, SESSION_MAX_MS / 1000, base);
      const tenants = svc.store.memberships(u.id).map((m) => ({ id: m.tenant_id, slug: m.slug, name: m.name, role: m.role, cdn_only: m.cdn_only === 1 }));
      return { auth: 'session' as const, user: userView(u), tenants, current_tenant: null, csrf_token: s.csrf, session_id: s.id, expires_at: new Date(s.expiresAt).toISOString() };
    }, { publicJson: true, body: SignInBody, detail: hidden })
    .get('/session', ({ principal: p }) => ({ ...sessionMe(p, cdnHost), csrf_token: p.session!.csrf, session_id: p.keyId }), { auth: SESSION_ONLY, detail: hidden })
    .delete('/session', ({ principal: p, set }) => {
      svc.revokeSession(p.userId!, p.keyId);
      set.headers['set-cookie'] = clearCookie(base);
      set.status = 204;
      return null;
    }, { auth: SESSION_ONLY, detail: hidden })
    .get('/me/sessions', ({ principal: p }) => ({ items: svc.sessions(p) }), { auth: SESSION_ONLY, detail: hidden })
    .delete('/me/sessions/:id', ({ principal: p, params, set }) => {
      if (!isUuid(params.id)) throw notFound('session');
      svc.revokeSession(p.userId!, params.id);
      if (params.id === p.keyId) set.headers['set-cookie'] = clearCookie(base);
      set.status = 204;
      return null;
    }, { auth: SESSION_ONLY, params: t.Object({ id: t.String() }), detail: hidden })
    .put('/me/tenant', ({ principal: p, body, request }) => {
      svc.chooseTenant(p, body.tenant);
      // Answer as /v1/me would on the next request (the cached principal was dropped; resolve it again).
      const next = ctx.keys.session(sessionToken(request)!);
      return next ? sessionMe(next, cdnHost) : null;
    }, { auth: SESSION_ONLY, body: ChooseTenantBody, detail: hidden })
    .put('/me/password', async ({ principal: p, body, set, request }) => {
      await svc.changePassword(p, body.current_password, body.new_password, clientIp(request));
      set.status = 204;
      return null;
    }, { auth: SESSION_ONLY, body: ChangePasswordBody, detail: hidden })
    .post('/password-reset', async ({ body, set, request }) => {
      await svc.requestReset(body.email, clientIp(request));
      set.status = 202;
      return { status: 'sent if the address belongs to an account' };
    }, { publicJson: true, body: ResetRequestBody, detail: hidden })
    .post('/password-reset/confirm', async ({ body, request, set }) => {
      const u = await svc.confirmReset(body.token, body.password);
      for (const m of svc.store.memberships(u.id)) audit(ctx, { tenantId: m.tenant_id, action: 'password.reset', actor: null, actorLabel: u.email, request, target: u.id });
      set.status = 204;
      return null;
    }, { publicJson: true, body: ResetConfirmBody, detail: hidden });
  return new Elysia().use(studioLinkPages()).use(api);
}

function sessionToken(req: Request): string | null {
  const m = /(?:^|;\s*)vs_session=([^;]*)/.exec(req.headers.get('cookie') ?? '');
  return m ? m[1] : null;
}
