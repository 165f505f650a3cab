import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { CreateWebhookBody, CreatedWebhook, DeliveriesQuery, DeliveryView, PatchWebhookBody, PingAnswer, WebhookList, WebhookView } from './model';
import { WebhookService, deliveryView, endpointView } from './service';
import { EVENT_TYPE_NAMES, eventTypesMarkdown } from './event-types';
import { webhookDispatcher } from './dispatcher';
import { DELIVERY_DOC } from './docs';
import { answers, PageQuery } from '../meta/model';

const Id = t.Object({ id: t.String() });

/** /v1/webhooks: endpoints, test pings, the delivery log and redelivery. */
export function webhookRoutes(ctx: AppContext) {
  const svc = new WebhookService(ctx);
  const kick = () => webhookDispatcher(ctx)?.kick();
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .post('/webhooks', async ({ principal: p, body, set }) => {
      const out = await svc.create(p.tenantId, body);
      set.status = 201;
      return out;
    }, {
      auth: { scope: 'webhooks:manage' },
      body: CreateWebhookBody,
      response: { 201: CreatedWebhook },
      detail: doc('Webhooks', 'Create a webhook endpoint', 'יצירת נקודת webhook',
        `\`url\` must be public HTTPS; private and internal addresses are refused here and again at every delivery (plain http is accepted only for addresses in the operator's \`VS_PRIVATE_ALLOWLIST\`, for labs). \`events\` lists event types or is \`["*"]\`. The answer holds \`secret\` (\`whsec_...\`) once; only events emitted after creation are delivered.\n\n${DELIVERY_DOC}\n\n${eventTypesMarkdown()}`),
    })
    .get('/webhooks', ({ principal: p, query }) => {
      const limit = parseLimit(query.limit, 50, 200);
      const scope = `webhooks:${p.tenantId}`;
      const cursor = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null;
      const page = svc.list(p.tenantId, limit, cursor, (rows) => ctx.cursors.page(scope, rows, limit, endpointView));
      return { ...page, event_types: EVENT_TYPE_NAMES };
    }, {
      auth: { scope: 'webhooks:manage' },
      query: PageQuery(),
      response: { 200: WebhookList },
      detail: doc('Webhooks', 'List webhook endpoints', 'רשימת נקודות webhook',
        `Newest first, with \`secret_hint\`. \`event_types\` is the authoritative list of event types; the \`data\` of each:\n\n${eventTypesMarkdown()}`),
    })
    .get('/webhooks/:id', ({ principal: p, params }) => svc.read(p.tenantId, params.id), {
      auth: { scope: 'webhooks:manage' }, params: Id, response: { 200: WebhookView },
      detail: doc('Webhooks', 'Read a webhook endpoint', 'קריאת נקודת webhook', 'The endpoint with `secret_hint` (the secret itself is shown only at creation).'),
    })
    .patch('/webhooks/:id', ({ principal: p, params, body }) => svc.patch(p.tenantId, params.id, body), {
      auth: { scope: 'webhooks:manage' }, params: Id, body: PatchWebhookBody, response: { 200: WebhookView },
      detail: doc('Webhooks', 'Change a webhook endpoint', 'שינוי נקודת webhook',
        '`enabled: false` pauses deliveries (queued ones wait; events emitted while disabled are not queued for it); `events` and `url` are checked as at creation.'),
    })
    .delete('/webhooks/:id', ({ principal: p, params, set }) => {
      svc.remove(p.tenantId, params.id);
      set.status = 204;
      return null;
    }, {
      auth: { scope: 'webhooks:manage' }, params: Id,
      detail: doc('Webhooks', 'Delete a webhook endpoint', 'מחיקת נקודת webhook', 'Removes the endpoint and its delivery log.', answers({ 204: null })),
    })
    .post('/webhooks/:id/test', ({ principal: p, params, set }) => {
      const out = svc.ping(p.tenantId, params.id);
      kick();
      set.status = 202;
      return out;
    }, {
      auth: { scope: 'webhooks:manage' }, params: Id, response: { 202: PingAnswer },
      detail: doc('Webhooks', 'Send a test ping', 'שליחת ping לבדיקה',
        'Emits a `ping` event (`data: {webhook_id}`) to this endpoint only, signed and retried like any delivery. 409 when the endpoint is disabled.'),
    })
    .get('/webhooks/:id/deliveries', ({ principal: p, params, query }) => {
      const limit = parseLimit(query.limit, 50, 200);
      const scope = `webhook-deliveries:${p.tenantId}:${params.id}`;
      const cursor = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null;
      return svc.deliveries(p.tenantId, params.id, query.status ?? null, limit, cursor, (rows) => ctx.cursors.page(scope, rows, limit, deliveryView));
    }, {
      auth: { scope: 'webhooks:manage' }, params: Id, query: DeliveriesQuery,
      response: { 200: t.Object({ items: t.Array(DeliveryView), next_cursor: t.Union([t.String(), t.Null()]) }) },
      detail: doc('Webhooks', 'List deliveries', 'רשימת משלוחים',
        'Newest first; filter with `status`. Each delivery shows its attempts, the last response code and time, and the next attempt.'),
    })
    .post('/webhooks/:id/deliveries/:delivery_id/redeliver', ({ principal: p, params, set }) => {
      const out = svc.redeliver(p.tenantId, params.id, params.delivery_id);
      kick();
      set.status = 202;
      return out;
    }, {
      auth: { scope: 'webhooks:manage' }, params: t.Object({ id: t.String(), delivery_id: t.String() }), response: { 202: DeliveryView },
      detail: doc('Webhooks', 'Redeliver', 'שליחה חוזרת',
        'Makes the delivery due now with a fresh budget of 7 attempts. The `X-VS-Delivery` id stays the same.'),
    });
}
