/** Schemas of notification rules and the inbox. */
import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';

const EventPattern = t.String({ minLength: 1, maxLength: 100, pattern: '^(\\*|[a-z0-9_]+(\\.[a-z0-9_]+)*(\\.\\*)?)$', description: 'an event type (`alert.firing`), a family (`alert.*`) or `*`' });
const Severity = t.Union([t.Literal('info'), t.Literal('warning'), t.Literal('critical')], { description: 'lowest severity taken: alerts carry their own; failures and security events are `warning`; others `info`' });
const Deliver = t.Array(t.Union([t.Literal('inbox'), t.Literal('email')]), { minItems: 1, maxItems: 2, uniqueItems: true, description: '`inbox` (the studio bell) and/or `email` (to the person\'s address)' });
const Channels = t.Array(t.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, uniqueItems: true, description: 'channel ids; empty = events of any channel and of none' });

/** Body of POST /v1/notification-rules. */
export const RuleCreate = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  person_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'whose rule (default: the signed-in person); another person needs `notifications:manage`' })),
  event_types: t.Array(EventPattern, { minItems: 1, maxItems: 50 }),
  channels: t.Optional(Channels),
  min_severity: t.Optional(Severity),
  deliver: Deliver,
  enabled: t.Optional(t.Boolean()),
}, { additionalProperties: false });

/** Body of PATCH /v1/notification-rules/{id}. */
export const RulePatch = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  event_types: t.Optional(t.Array(EventPattern, { minItems: 1, maxItems: 50 })),
  channels: t.Optional(Channels),
  min_severity: t.Optional(Severity),
  deliver: t.Optional(Deliver),
  enabled: t.Optional(t.Boolean()),
}, { additionalProperties: false, minProperties: 1 });

/** A rule as answered. */
export const RuleView = t.Object({
  id: t.String(), person_id: t.String(), name: t.String(), event_types: t.Array(t.String()), channels: t.Array(t.String()),
  min_severity: t.String(), deliver: t.Array(t.String()), enabled: t.Boolean(),
  created_at: t.String({ format: 'date-time' }), updated_at: t.String({ format: 'date-time' }),
});

/** One inbox item. */
export const InboxItemView = t.Object({
  id: t.String(), event_id: t.String(), type: t.String(), severity: t.String(), channel_id: t.Union([t.String(), t.Null()]),
  title: t.String(), data: t.Unknown({ description: 'the event\'s `data`' }), at: t.String({ format: 'date-time' }),
  read: t.Boolean(), read_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
  email: t.Union([t.String(), t.Null()], { description: 'e-mail state: `pending`, `sent`, `failed`, or null when no rule asked for e-mail' }),
});

/** Answer of GET /v1/inbox. */
export const InboxView = t.Object({
  items: t.Array(InboxItemView), unread: Int({ description: 'unread items in the inbox' }),
  next_before: t.Union([t.String(), t.Null()], { description: '`before` for the next (older) page; null at the end' }),
});
