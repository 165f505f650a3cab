import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc, hidden } from '../../kernel/http/plugin';
import { clientIp } from '../../kernel/http/server';
import { cookieValue, SESSION_COOKIE, type Principal } from '../../kernel/http/auth';
import { RateLimiter } from '../../kernel/http/rate-limit';
import { AppError } from '../../kernel/errors';
import { randomToken } from '../../kernel/ids';
import { answers } from '../meta/model';
import { audit } from '../audit/service';
import { identityService } from '../identity/service';
import { ConnectService } from './service';
import { consentPage, pageLang } from './consent';
import { siteOrigin } from './redirect';
import { AuthorizeAnswer, AuthorizeBody, TokenAnswer, TokenBody } from './model';

/** Site connection: studio consent page, /v1/connect/authorize, /token (10 per minute per IP) and /disconnect. */
export function connectRoutes(ctx: AppContext) {
  const svc = new ConnectService(ctx);
  // The token endpoint's own limiter: 10 per minute per client IP (burst 10, refilled 1 every 6 s).
  const tokenLimiter = new RateLimiter(10 / 60, 10);
  const sweep = setInterval(() => tokenLimiter.sweep(), 60_000);
  sweep.unref();
  ctx.onStop(() => clearInterval(sweep));
  return new Elysia()
    .use(ctx.http)
    .get('/studio/connect', ({ query, request }) => {
      const token = cookieValue(request.headers.get('cookie'), SESSION_COOKIE);
      const person: Principal | null = token && /^[A-Za-z0-9_-]{20,120}$/.test(token) ? ctx.keys.session(token) : null;
      const scopes = (query.scope ?? '').split(/[\s,]+/).filter(Boolean);
      const req = {
        redirect_uri: query.redirect_uri ?? '', state: query.state ?? '', code_challenge: query.code_challenge ?? '',
        code_challenge_method: query.code_challenge_method ?? '', scopes, ...(query.site_name ? { site_name: query.site_name } : {}),
      };
      let origin: string | null = null, error: string | null = null, denyUrl: string | null = null;
      try {
        origin = siteOrigin(req.redirect_uri);
        const deny = new URL(req.redirect_uri);
        deny.searchParams.set('error', 'access_denied');
        deny.searchParams.set('state', req.state);
        denyUrl = deny.toString();
        if (!scopes.length) throw new AppError('validation_error', 'scope: at least one');
        if (person?.tenantId) svc.check(person, req);
        else if (!req.state) throw new AppError('validation_error', 'state: required');
      } catch (e) { error = e instanceof AppError ? e.detail : String(e); }
      const nonce = randomToken(16);
      const html = consentPage({ lang: pageLang(query.lang, request.headers.get('accept-language')), nonce, person, origin, error, siteName: query.site_name ?? '', scopes, request: req, denyUrl });
      return new Response(html, {
        status: error ? 400 : 200,
        headers: {
          'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer',
          'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'`,
        },
      });
    }, {
      query: t.Object({
        redirect_uri: t.Optional(t.String({ maxLength: 2000 })), state: t.Optional(t.String({ maxLength: 500 })),
        code_challenge: t.Optional(t.String({ maxLength: 200 })), code_challenge_method: t.Optional(t.String({ maxLength: 10 })),
        scope: t.Optional(t.String({ maxLength: 2000 })), site_name: t.Optional(t.String({ maxLength: 200 })), lang: t.Optional(t.String({ maxLength: 5 })),
      }),
      detail: hidden,
    })
    .post('/v1/connect/authorize', ({ principal: p, body, request }) => {
      const r = svc.authorize(p, body);
      audit(ctx, { tenantId: p.tenantId, action: 'connect.approved', actor: p, request, target: r.origin, details: { site: r.origin, site_name: body.site_name ?? '', scopes: r.scopes } });
      return { code: r.code, state: r.state, redirect_to: r.redirect_to, expires_in: r.expires_in };
    }, {
      auth: { scope: 'keys:manage', only: 'session' },
      body: AuthorizeBody,
      response: { 200: AuthorizeAnswer },
      detail: doc('Identity', 'Approve a site connection', 'אישור חיבור אתר', 'Called by the studio consent page for a signed-in person with `keys:manage` (an API key answers 403). PKCE S256 and a non-empty `state` are mandatory; `redirect_uri` must be https (plain http only for localhost) without user info or fragment; the scopes must be a subset of the person\'s. Answers a one-time code valid 60 seconds; only its hash is stored.'),
    })
    .post('/v1/connect/token', ({ body, request }) => {
      const ip = clientIp(request) ?? 'unknown';
      const wait = tokenLimiter.take(ip);
      if (wait > 0) throw new AppError('rate_limited', `at most 10 token requests per minute; retry in ${wait} s`, { headers: { 'retry-after': String(wait) } });
      const r = svc.token(body);
      audit(ctx, { tenantId: r.tenantId, action: 'key.created', actor: null, actorLabel: `site ${r.origin}`, ip, target: r.key.id, details: { via: 'connect', site: r.origin, approved_by: r.userId, scopes: r.key.scopes } });
      return { key: r.key.key, key_id: r.key.id, scopes: r.key.scopes, tenant: r.tenant };
    }, {
      publicJson: true,
      body: TokenBody,
      response: { 200: TokenAnswer },
      detail: doc('Identity', 'Exchange a connection code for a key', 'החלפת קוד חיבור במפתח', 'Server to server. `code_verifier` must match the approved challenge and `redirect_uri` must be identical to the approved one; a wrong verifier or address voids the code (400 `invalid_grant`), a code works once and for 60 seconds. At most 10 requests per minute per IP (429 with `Retry-After`).'),
    })
    .post('/v1/connect/disconnect', ({ principal: p, set, request }) => {
      identityService(ctx).revokeKey(p.tenantId, p.keyId);
      audit(ctx, { tenantId: p.tenantId, action: 'connect.disconnected', actor: p, request, target: p.keyId });
      set.status = 204;
      return null;
    }, {
      auth: { scope: null, only: 'key' },
      detail: doc('Identity', 'Disconnect a site', 'ניתוק אתר', 'Called with the site\'s key; revokes it (the next request with it answers 401).', answers({ 204: null })),
    });
}
