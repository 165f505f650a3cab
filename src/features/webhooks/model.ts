import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';
import { Cursor, Limit } from '../meta/model';

/** Body of POST /v1/webhooks. */
export const CreateWebhookBody = t.Object({
  url: t.String({ minLength: 1, maxLength: 2048, description: 'Public HTTPS address (plain http only for operator-allowlisted addresses).' }),
  events: t.Array(t.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 50, description: 'Event type names, or `["*"]` for all.' }),
}, { additionalProperties: false });

/** Body of PATCH /v1/webhooks/{id}. */
export const PatchWebhookBody = t.Object({
  enabled: t.Optional(t.Boolean()),
  events: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 50 })),
  url: t.Optional(t.String({ minLength: 1, maxLength: 2048 })),
}, { additionalProperties: false });

/** A webhook endpoint as read back (the secret only as a hint). */
export const WebhookView = t.Object({
  id: t.String(),
  url: t.String(),
  events: t.Array(t.String()),
  enabled: t.Boolean(),
  secret_hint: t.String(),
  created_at: t.String({ format: 'date-time' }),
  updated_at: t.String({ format: 'date-time' }),
});

/** The creation answer: the view plus the secret, shown this once. */
export const CreatedWebhook = t.Composite([WebhookView, t.Object({ secret: t.String({ description: 'Signing secret (`whsec_...`), returned only here.' }) })]);

/** The endpoint list with the authoritative event type list. */
export const WebhookList = t.Object({
  items: t.Array(WebhookView),
  next_cursor: t.Union([t.String(), t.Null()]),
  event_types: t.Array(t.String()),
});

/** One delivery of one event to one endpoint. */
export const DeliveryView = t.Object({
  id: t.String({ description: 'Also sent as `X-VS-Delivery`; stable across retries and redelivery.' }),
  event_id: t.String(),
  event_type: t.String(),
  status: t.String({ description: '`pending`, `failed` (retry scheduled), `delivered` or `dead`.' }),
  attempts: Int(),
  last_response_code: t.Union([Int(), t.Null()]),
  last_error: t.Union([t.String(), t.Null()]),
  last_attempt_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
  next_attempt_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
  delivered_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
  created_at: t.String({ format: 'date-time' }),
});

/** Answer of POST .../test. */
export const PingAnswer = t.Object({ event_id: t.String(), delivery_id: t.String() });

/** Query of the deliveries list. */
export const DeliveriesQuery = t.Object({
  status: t.Optional(t.Union([t.Literal('pending'), t.Literal('failed'), t.Literal('delivered'), t.Literal('dead')])),
  limit: Limit(200),
  cursor: Cursor,
});
