import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { audit } from '../audit/service';
import { CreateDestinationBody, DeliveryView, DestinationView, PatchDestinationBody, TestAnswer } from './destinations-model';
import { DestinationService } from './destinations';
import { testDelivery } from './deliveries';

const T = 'Guide';
const Id = t.Object({ id: t.String() });
const PUBLISH = { anyOf: ['channels:write', 'epg:publish'] as ('channels:write' | 'epg:publish')[], scope: null, platform: true };

const CREATE_DOC = `After each publish of a listed channel's guide, the published guide over the window (\`days_behind\` before today to
\`days_ahead\` after, in \`timezone\`) is pushed as a durable job: \`https\` (POST or PUT; headers \`X-VS-Event: epg.published\`,
\`X-VS-Delivery\` (stable across retries), \`X-VS-Timestamp\`, \`X-VS-Signature: sha256=<HMAC-SHA256 of "timestamp.body">\` with the
\`secret\` answered once, here), \`sftp\` (written to \`path\` under a temporary name, then renamed; key or password; the host key
pinned with \`host_key_sha256\`) or \`s3\` (the object \`key\`, overwritten). \`pull\` pushes nothing. Every destination has a
\`pull_url\`. A failed attempt is retried \`retries\` times (after \`retry_delay_s\`, doubling); after the last one
\`epg.delivery_failed\` \`{destination_id, destination, channel, error, attempts}\`; a delivery that arrives emits \`epg.published\`
with \`destination_id\`. Private addresses are refused unless allowlisted (VS_PRIVATE_ALLOWLIST). docs/guide-partners.md.`;

/** /v1/guide/destinations (scope epg:publish) and the token-protected pull URL /v1/guide/pull/{id}. */
export function guideDestinationRoutes(ctx: AppContext) {
  const svc = new DestinationService(ctx);
  return new Elysia()
    .use(ctx.http)
    .post('/v1/guide/destinations', async ({ principal: p, body, set, request }) => {
      const v = await svc.create(p.tenantId, body);
      audit(ctx, { tenantId: p.tenantId, action: 'guide.destination_created', actor: p, request, target: v.id, details: { name: v.name, kind: v.kind } });
      set.status = 201;
      return v;
    }, { auth: PUBLISH, body: CreateDestinationBody, detail: doc(T, 'Create a guide destination', 'יצירת יעד פרסום ללוח השידורים', CREATE_DOC, { 'x-problems': [422], ...answers({ 201: DestinationView }) }) })
    .get('/v1/guide/destinations', ({ principal: p }) => ({ items: svc.list(p.tenantId) }), {
      auth: PUBLISH, detail: doc(T, 'List guide destinations', 'רשימת יעדי פרסום', 'Every publishing destination of the tenant with its last delivery attempt and pull URL.', answers({ 200: t.Object({ items: t.Array(DestinationView) }) })) })
    .get('/v1/guide/destinations/:id', ({ principal: p, params }) => svc.view(svc.row(p.tenantId, params.id)), {
      auth: PUBLISH, params: Id, detail: doc(T, 'Get a guide destination', 'יעד פרסום', 'One destination (credentials are never shown).', { 'x-problems': [404], ...answers({ 200: DestinationView }) }) })
    .patch('/v1/guide/destinations/:id', ({ principal: p, params, body }) => svc.patch(p.tenantId, params.id, body), {
      auth: PUBLISH, params: Id, body: PatchDestinationBody,
      detail: doc(T, 'Change a guide destination', 'שינוי יעד פרסום', 'Name, format, channels, window, time zone, retries or `enabled`; `rotate_token: true` issues a new pull token. The push settings of a kind are fixed: delete and create again to change them.', { 'x-problems': [404, 422], ...answers({ 200: DestinationView }) }) })
    .delete('/v1/guide/destinations/:id', ({ principal: p, params, set }) => { svc.delete(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: PUBLISH, params: Id, detail: doc(T, 'Delete a guide destination', 'מחיקת יעד פרסום', 'Deletes the destination and its delivery log; queued deliveries are dropped.', { 'x-problems': [404], ...answers({ 204: null }) }) })
    .post('/v1/guide/destinations/:id/test', async ({ principal: p, params }) => testDelivery(ctx, svc.row(p.tenantId, params.id)), {
      auth: PUBLISH, params: Id, detail: doc(T, 'Test a guide destination', 'בדיקת יעד פרסום', 'Pushes the current published guide once, now (no retries, no events); the outcome is answered and logged with trigger `test`.', { 'x-problems': [404], ...answers({ 200: TestAnswer }) }) })
    .get('/v1/guide/destinations/:id/deliveries', ({ principal: p, params, query }) => ({ items: svc.deliveries(p.tenantId, params.id, query.limit ?? 100) }), {
      auth: PUBLISH, params: Id, query: t.Object({ limit: t.Optional(t.Integer({ minimum: 1, maximum: 500 })) }),
      detail: doc(T, 'Guide delivery log', 'יומן מסירות של לוח השידורים', 'Delivery attempts, newest first (the newest 500 are kept).', { 'x-problems': [404], ...answers({ 200: t.Object({ items: t.Array(DeliveryView) }) }) }) })
    .get('/v1/guide/pull/:id', ({ params, query, request }) => {
      const r = svc.pull(params.id, query.token, query.format, request.headers.get('if-none-match'));
      const headers = { etag: r.etag, 'cache-control': 'private, no-cache' };
      return r.notModified ? new Response(null, { status: 304, headers }) : new Response(r.body, { headers: { ...headers, 'content-type': r.type } });
    }, {
      params: Id, query: t.Object({ token: t.Optional(t.String({ maxLength: 200 })), format: t.Optional(t.Union([t.Literal('xmltv'), t.Literal('json')])) }),
      detail: doc(T, 'Pull the published guide', 'משיכת לוח השידורים המפורסם', 'No API key: the destination\'s `pull_url` carries its token (401 without it). The published guide over the destination\'s window as XMLTV (or `format=json`), with a strong ETag; `If-None-Match` with it answers 304.', { 'x-problems': [401], responses: { 200: { description: 'the guide', content: { 'application/xml': { schema: t.String({ description: 'XMLTV document' }) }, 'application/json': { schema: t.Object({}, { additionalProperties: true, description: 'the JSON form (docs/guide-partners.md)' }) } } }, 304: { description: 'not modified (If-None-Match named the current ETag)' } } }) });
}
