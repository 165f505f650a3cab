import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { Int } from '../../kernel/http/schema';
import { answers } from '../meta/model';
import { EVENT_TYPE_NAMES } from '../webhooks/event-types';
import { inboxPage } from './inbox';

/** Answer of GET /v1/events. */
export const InboxPage = t.Object({
  items: t.Array(t.Object({
    seq: Int({ description: 'outbox sequence number (the event stream\'s `id:`)' }),
    id: t.String(), type: t.String(), at: t.String({ format: 'date-time' }),
    data: t.Unknown({ description: 'the event\'s `data`, as in webhook deliveries' }),
  })),
  next_before: t.Union([Int(), t.Null()], { description: '`before` for the next (older) page; null at the end' }),
  last_seq: Int({ description: 'the tenant\'s newest event `seq`, whatever the filter (0 when none): open the event stream with `last_event_id` = this to miss nothing after this page' }),
  event_types: t.Array(t.String(), { description: 'every event type (for a filter)' }),
});

/** GET /v1/events: the events inbox. */
export function inboxRoutes(ctx: AppContext) {
  return new Elysia()
    .use(ctx.http)
    .get('/v1/events', ({ principal: p, query }) => ({ ...inboxPage(ctx.db, p.tenantId, query), event_types: EVENT_TYPE_NAMES }), {
      auth: { scope: 'events:read' },
      query: t.Object({
        type: t.Optional(t.String({ maxLength: 100, description: 'one event type (`asset.ready`) or a family (`asset.*`)' })),
        before: t.Optional(t.Integer({ minimum: 1, description: 'only events with a smaller `seq` (the previous page\'s `next_before`)' })),
        limit: t.Optional(t.Integer({ minimum: 1, maximum: 200, description: '1-200 (default 50)' })),
      }),
      detail: doc('Events', 'List events', 'רשימת אירועים', 'The events inbox: the events the tenant received (the same as webhooks and the event stream send), newest first. `type` keeps one type or a family (`asset.*`); page with `before` = the previous answer\'s `next_before`; `limit` 1-200 (default 50). New events arrive on `GET /v1/events/stream` (its `id:` is an item\'s `seq`; open it with `last_event_id` = `last_seq` to miss nothing).', answers({ 200: InboxPage })),
    });
}
