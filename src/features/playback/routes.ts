import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc, hidden } from '../../kernel/http/plugin';
import { requireScope } from '../../kernel/http/auth';
import { parseLimit } from '../../kernel/http/pagination';
import { clientIp } from '../../kernel/http/server';
import { notFound } from '../../kernel/errors';
import { IdentityService } from '../identity/service';
import { PlaybackService } from './service';
import { PolicyService } from './policies';
import { geoOf } from './geo';
import { AttachBody, PolicyBody, PolicyPatch, PolicyView, RevocationView, RevokeBody, RevokedView, RotatedKeyView, SessionBody, SigningKeyView, TokenAnswer, TokenBody } from './model';
import { answers, Page, PageQuery } from '../meta/model';

const TOKEN_DOC = `Signs a playback URL for exactly one target. The token sits in the path (\`/t/<token>/...\`) so every
relative URL in the playlists inherits it. It is bound to its tenant and target (a token for asset A never opens asset
B; a catch-up token opens only sub-ranges of its window), its expiry, and optionally the viewer IP.

Format: \`v1.<payload>.<signature>\`, payload = base64url(JSON claims \`{v:1, kid, t: tenant id, k: kind, i: target,
a?: start ms, b?: end ms|null, e: expiry Unix s, s: session id, ip?}\`), signature = base64url(HMAC-SHA256(key, "v1." +
payload)) with a signing key from GET /v1/playback/signing-keys. Verify in Node:
\`crypto.timingSafeEqual(Buffer.from(sig,'base64url'), crypto.createHmac('sha256', Buffer.from(secret,'base64url')).update('v1.'+payload).digest())\`.
\`ttl_s\` 0 uses the policy default (3600 s without a policy).`;

/** Playback protection: tokens, player sessions, revocations, policies, signing keys, and the /t/ token path. */
export function playbackRoutes(ctx: AppContext) {
  const svc = new PlaybackService(ctx);
  const policies = new PolicyService(ctx);
  const identity = new IdentityService(ctx.db, null);
  const tenantOf = (p: { tenantId: string; tenantSlug: string }) => ({ id: p.tenantId, slug: p.tenantSlug });
  const cors = (origin: string | null): Record<string, string> => (origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {});
  return new Elysia()
    .use(ctx.http)
    .post('/v1/playback/tokens', ({ principal: p, body }) => {
      const { ttl_s, viewer_ip, viewer_asn, viewer_id, ...target } = body;
      return svc.issue(tenantOf(p), target, { ttl_s, viewer_ip, viewer_asn, viewer_id });
    }, {
      auth: { scope: 'playback:sign' }, body: TokenBody, response: { 200: TokenAnswer },
      detail: doc('Playback', 'Sign a playback URL', 'חתימת כתובת ניגון', TOKEN_DOC, { 'x-problems': [403, 404, 409] }),
    })
    .options('/v1/playback/session', ({ request }) => new Response(null, { status: 204, headers: { ...cors(request.headers.get('origin')), 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type', 'access-control-max-age': '600' } }), { detail: hidden })
    .post('/v1/playback/session', ({ body, request, set }) => {
      const { tenant: slug, page_origin, ...target } = body;
      let tenant;
      try { tenant = identity.tenant(slug); } catch { throw notFound('tenant'); }
      const origin = request.headers.get('origin');
      const ip = clientIp(request);
      const net = geoOf(ctx).lookup(ip);
      // A blackout refusal carries CORS (the player reads its x-vs-refusal header to show the blackout slate).
      const answer = svc.session({ id: tenant.id, slug: tenant.slug }, target, page_origin, { ip, origin, ...net }, cors(origin));
      Object.assign(set.headers, cors(origin));
      return answer;
    }, {
      publicJson: true, body: SessionBody, response: { 200: TokenAnswer },
      detail: doc('Playback', 'Open a player session (public)', 'פתיחת הפעלת נגן (ציבורי)', 'Used by the hosted player; no key. Checks the target policy: referrer (page_origin and Origin), network and rate rules; a referrer refusal answers 403, too many sessions from one address 429 with `Retry-After` (the policy\'s `sessions_per_ip_per_min`, by default 120 a minute per address; an IPv6 address counts by its /64). An unknown tenant or target answers 404, an asset not ready yet 409. Answers like POST /v1/playback/tokens.', { 'x-problems': [404, 409, 429] }),
    })
    .post('/v1/security/revocations', ({ principal: p, body, set }) => { set.status = 201; return svc.revoke(p.tenantId, body.sid, body.reason ?? null); }, {
      auth: { scope: 'security:manage' }, body: RevokeBody,
      detail: doc('Playback', 'Revoke a playback session', 'ביטול הפעלת ניגון', 'The session (`sid` from a token answer) is refused on its next request on every path, across restarts. An unknown `sid` answers 404.', answers({ 201: RevokedView })),
    })
    .get('/v1/security/revocations', ({ principal: p }) => ({ items: svc.revocations(p.tenantId) }), {
      auth: { scope: 'stats:read' }, detail: doc('Playback', 'List revocations', 'רשימת ביטולים', 'Newest 200 revocations.', answers({ 200: t.Object({ items: t.Array(RevocationView) }) })),
    })
    .get('/v1/playback/signing-keys', ({ principal: p }) => ({ items: svc.listKeys(p.tenantId) }), {
      auth: { scope: 'keys:manage' }, detail: doc('Playback', 'Download playback signing keys', 'הורדת מפתחות חתימה', 'Secrets (base64url, HMAC-SHA256) to sign tokens in your own backend. Created on first use.', answers({ 200: t.Object({ items: t.Array(SigningKeyView) }) })),
    })
    .post('/v1/playback/signing-keys/rotate', ({ principal: p, set }) => { set.status = 201; return svc.rotateKey(p.tenantId); }, {
      auth: { scope: 'keys:manage' }, detail: doc('Playback', 'Rotate the signing key', 'החלפת מפתח חתימה', 'New tokens use the new key; tokens of older keys verify until those keys are retired.', answers({ 201: RotatedKeyView })),
    })
    .delete('/v1/playback/signing-keys/:kid', ({ principal: p, params, set }) => { svc.retireKey(p.tenantId, params.kid); set.status = 204; return null; }, {
      auth: { scope: 'keys:manage' }, params: t.Object({ kid: t.String() }),
      detail: doc('Playback', 'Retire a signing key', 'הוצאת מפתח חתימה משימוש', 'Tokens signed with it stop opening content at once. The active key cannot be retired (409).', answers({ 204: null })),
    })
    .get('/v1/playback/policies', ({ principal: p, query }) => {
      const limit = parseLimit(query.limit, 50, 200);
      const scope = `policies:${p.tenantId}`;
      const rows = policies.rows(p.tenantId, query.cursor ? ctx.cursors.decode(scope, query.cursor) : null, limit);
      return ctx.cursors.page(scope, rows, limit, (r) => policies.one(p.tenantId, r.id));
    }, {
      auth: { scope: 'stats:read' }, query: PageQuery(),
      detail: doc('Playback', 'List playback policies', 'רשימת מדיניות ניגון', 'Newest first; `limit` up to 200 (default 50).', answers({ 200: Page(PolicyView) })),
    })
    .post('/v1/playback/policies', ({ principal: p, body, set }) => { if (body.watermark) requireScope(p, 'security:manage'); set.status = 201; return policies.create(p.tenantId, body); }, {
      auth: { scope: 'delivery:write' }, body: PolicyBody,
      detail: doc('Playback', 'Create a playback policy', 'יצירת מדיניות ניגון', 'Rules: require_token, default_ttl_s, bind_viewer_ip, referrers (origins or *.domain), countries {allow, deny} (needs a known viewer country), asn_deny, block_datacenters, sessions_per_ip_per_min, leaks {max_addresses, max_networks, max_countries, window_s, auto_revoke} (leak detection: a session seen from more addresses, networks or countries within the window becomes a suspicion at GET /v1/leaks; 0 = no limit), watermark {mode: off | ab} (A/B forensic marking of VOD segments per session; setting it needs security:manage as well).', answers({ 201: PolicyView })),
    })
    .get('/v1/playback/policies/:id', ({ principal: p, params }) => policies.one(p.tenantId, params.id), {
      auth: { scope: 'stats:read' }, params: t.Object({ id: t.String() }), detail: doc('Playback', 'Get a playback policy', 'מדיניות ניגון', 'The rules with defaults filled in and where the policy is attached.', answers({ 200: PolicyView })),
    })
    .patch('/v1/playback/policies/:id', ({ principal: p, params, body }) => { if (body.watermark) requireScope(p, 'security:manage'); return policies.patch(p.tenantId, params.id, body); }, {
      auth: { scope: 'delivery:write' }, params: t.Object({ id: t.String() }), body: PolicyPatch,
      detail: doc('Playback', 'Change a playback policy', 'עדכון מדיניות ניגון', 'Fields given replace the stored ones; the rest stay.', answers({ 200: PolicyView })),
    })
    .delete('/v1/playback/policies/:id', ({ principal: p, params, set }) => { policies.remove(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: { scope: 'delivery:write' }, params: t.Object({ id: t.String() }),
      detail: doc('Playback', 'Delete a playback policy', 'מחיקת מדיניות ניגון', 'Its attach points fall back to the next, more general attachment (channel, then tenant) or to open playback.', answers({ 204: null })),
    })
    .post('/v1/playback/policies/:id/attach', ({ principal: p, params, body }) => policies.attach(p.tenantId, params.id, body.target_kind, body.target_id), {
      auth: { scope: 'delivery:write' }, params: t.Object({ id: t.String() }), body: AttachBody,
      detail: doc('Playback', 'Attach a policy', 'הצמדת מדיניות', 'Attach points: the tenant, a channel (slug; also covers its catch-up and start-over) or an asset. The most specific attachment applies.', answers({ 200: PolicyView })),
    })
    .post('/v1/playback/policies/:id/detach', ({ principal: p, params, body }) => policies.detach(p.tenantId, params.id, body.target_kind, body.target_id), {
      auth: { scope: 'delivery:write' }, params: t.Object({ id: t.String() }), body: AttachBody,
      detail: doc('Playback', 'Detach a policy', 'ניתוק מדיניות', 'Removes the attachment named by `target_kind` and `target_id`.', answers({ 200: PolicyView })),
    });
}

