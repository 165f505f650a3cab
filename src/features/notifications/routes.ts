/** Notification rules (`/v1/notification-rules`) and the studio inbox (`/v1/inbox`). */
import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { Int } from '../../kernel/http/schema';
import { answers } from '../meta/model';
import { NotificationService } from './service';
import { InboxItemView, InboxView, RuleCreate, RulePatch, RuleView } from './model';

const Id = t.Object({ id: t.String({ minLength: 1, maxLength: 64 }) });

/** Rules and inbox routes. */
export function notificationRoutes(ctx: AppContext) {
  const svc = new NotificationService(ctx);
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .get('/notification-rules', ({ principal: p, query }) => svc.list(p, query.all === true), {
      auth: { scope: 'events:read' },
      query: t.Object({ all: t.Optional(t.Boolean({ description: 'every person\'s rules (scope notifications:manage)' })) }),
      detail: doc('Events', 'List notification rules', 'רשימת כללי התראות', 'The signed-in person\'s rules: which events (types, channels, lowest severity) reach their studio inbox and/or e-mail. `all=true` lists every person\'s (scope notifications:manage).', answers({ 200: t.Object({ items: t.Array(RuleView) }) })),
    })
    .post('/notification-rules', ({ principal: p, body, set }) => { set.status = 201; return svc.create(p, body); }, {
      auth: { scope: 'events:read' },
      body: RuleCreate,
      detail: doc('Events', 'Create a notification rule', 'יצירת כלל התראות', 'A person\'s rule: `event_types` (types such as `alert.firing`, families such as `asset.*`, or `*`), `channels` (empty: any), `min_severity` (alerts carry their own; failures and security events count as warning; others info) and `deliver` (`inbox`, `email`). Each matching event becomes one inbox item per person (however many of their rules match) and one e-mail to their address. Rules of another member (`person_id`) need scope notifications:manage.', answers({ 201: RuleView })),
    })
    .patch('/notification-rules/:id', ({ principal: p, params, body }) => svc.patch(p, params.id, body), {
      auth: { scope: 'events:read' },
      params: Id, body: RulePatch,
      detail: doc('Events', 'Change a notification rule', 'שינוי כלל התראות', 'Any subset of the fields; own rules, or any with scope notifications:manage.', answers({ 200: RuleView })),
    })
    .delete('/notification-rules/:id', ({ principal: p, params, set }) => { svc.remove(p, params.id); set.status = 204; return null; }, {
      auth: { scope: 'events:read' },
      params: Id,
      detail: doc('Events', 'Delete a notification rule', 'מחיקת כלל התראות', 'Items already in the inbox stay.', answers({ 204: null })),
    })
    .get('/inbox', ({ principal: p, query }) => svc.inbox(p, query), {
      auth: { scope: 'events:read' },
      query: t.Object({
        unread: t.Optional(t.Boolean({ description: 'only unread items' })),
        before: t.Optional(t.String({ maxLength: 20, description: 'the previous page\'s `next_before`' })),
        limit: t.Optional(t.Integer({ minimum: 1, maximum: 200, description: '1-200 (default 50)' })),
      }),
      detail: doc('Events', 'List the inbox', 'רשימת תיבת ההתראות', 'The signed-in person\'s studio inbox (the bell): events their notification rules routed here, newest first, with the unread count.', answers({ 200: InboxView })),
    })
    .get('/inbox/unread', ({ principal: p }) => svc.unread(p), {
      auth: { scope: 'events:read' },
      detail: doc('Events', 'Count unread inbox items', 'ספירת התראות שלא נקראו', 'The number on the studio bell.', answers({ 200: t.Object({ unread: Int() }) })),
    })
    .post('/inbox/:id/read', ({ principal: p, params }) => svc.read(p, params.id), {
      auth: { scope: 'events:read' },
      params: Id,
      detail: doc('Events', 'Mark an inbox item read', 'סימון התראה כנקראה', 'Marks one item read (the first read time is kept) and answers the new unread count.', answers({ 200: t.Object({ item: InboxItemView, unread: Int() }) })),
    })
    .post('/inbox/read-all', ({ principal: p }) => svc.readAll(p), {
      auth: { scope: 'events:read' },
      detail: doc('Events', 'Mark every inbox item read', 'סימון כל ההתראות כנקראו', 'Marks every unread item read; answers how many.', answers({ 200: t.Object({ marked: Int(), unread: Int() }) })),
    });
}
