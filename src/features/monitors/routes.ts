import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc, hidden } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { PageQuery } from '../meta/model';
import { CHECKS, LIMITS, PRESETS, SEVERITIES } from './catalogue';
import { AlertPage, AlertQuery, AlertView, CatalogueView, CreateMonitorBody, DestinationBody, DestinationPage, DestinationView, MonitorPage, MonitorView, PatchMonitorBody, PresetBody, ServiceStatusView, SnoozeBody, TelegramLinkBody, TelegramLinkView } from './model';
import { MonitorService } from './service';
import { DestinationService } from './destinations/service';
import { ServiceStatus } from './service-status';

const T = 'Monitors';
const Id = t.Object({ id: t.String() });
const MANAGE = { scope: 'notifications:manage' as const };
const READ_OPS = { scope: null, anyOf: ['stats:read' as const, 'channels:read' as const] };

/** The check catalogue answer (static). */
function catalogue() {
  return {
    checks: CHECKS.map(({ title_he: _he, ...c }) => ({ ...c, targets: [...c.targets], severities: [...SEVERITIES] })),
    presets: PRESETS,
    limits: { monitors: LIMITS.monitors, destinations: LIMITS.destinations, snooze_min_minutes: LIMITS.snoozeMinMin, snooze_max_minutes: LIMITS.snoozeMaxMin },
  };
}

/** /v1/monitors, /v1/alert-destinations, /v1/alerts and /v1/service-status. */
export function monitorRoutes(ctx: AppContext) {
  const svc = new MonitorService(ctx);
  const dests = new DestinationService(ctx);
  const status = new ServiceStatus(ctx);
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .get('/monitors/checks', () => catalogue(), {
      auth: READ_OPS, response: { 200: CatalogueView },
      detail: doc(T, 'List monitor check types', 'קטלוג סוגי הבדיקות', 'The authoritative check catalogue: type, unit, comparison, default threshold, `for_s` and window, severities, the targets each applies to, presets and limits. `lip_sync` is listed with `creatable: false` while lip-sync analysis is off.'),
    })
    .post('/monitors/presets/basic', ({ principal: p, body, set }) => { set.status = 201; return svc.preset(p.tenantId, body); }, {
      auth: MANAGE, body: PresetBody, response: { 201: MonitorView },
      detail: doc(T, 'Create the basic monitor preset', 'יצירת ערכת ניטור בסיסית', 'Creates one monitor on the channel with feed down, recorder gap, startup time p95 and error rate checks at their catalogue defaults. An unknown channel answers 404.', { 'x-problems': [404, 409] }),
    })
    .post('/monitors', ({ principal: p, body, set }) => { set.status = 201; return svc.create(p.tenantId, body); }, {
      auth: MANAGE, body: CreateMonitorBody, response: { 201: MonitorView },
      detail: doc(T, 'Create a monitor', 'יצירת מוניטור', 'A target (`channel`, `asset`, `site` with `target_host`, or `tenant`) and 1-20 checks from the catalogue; defaults fill `threshold`, `for_s`, `window_s` and `severity`. At most 100 monitors per tenant (409 beyond). Unknown check types, checks that do not fit the target, `lip_sync` while lip-sync is off, unknown destinations and unknown time zones answer 422.', { 'x-problems': [404, 409] }),
    })
    .get('/monitors', ({ principal: p, query }) => svc.list(p.tenantId, parseLimit(query.limit, 50, 200), query.cursor), {
      auth: MANAGE, query: PageQuery(), response: { 200: MonitorPage },
      detail: doc(T, 'List monitors', 'רשימת מוניטורים', 'Newest first, each check with its current state (`normal`, `pending`, `firing`) and since when.'),
    })
    .get('/monitors/:id', ({ principal: p, params }) => svc.get(p.tenantId, params.id), {
      auth: MANAGE, params: Id, response: { 200: MonitorView },
      detail: doc(T, 'Get a monitor', 'קבלת מוניטור', 'The monitor with the state of each check and its snooze.'),
    })
    .patch('/monitors/:id', ({ principal: p, params, body }) => svc.patch(p.tenantId, params.id, body), {
      auth: MANAGE, params: Id, body: PatchMonitorBody, response: { 200: MonitorView },
      detail: doc(T, 'Change a monitor', 'שינוי מוניטור', 'Any field of a monitor. Changed checks start again from `normal`; an alert of a changed check resolves.'),
    })
    .delete('/monitors/:id', ({ principal: p, params, set }) => { svc.remove(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: MANAGE, params: Id,
      detail: doc(T, 'Delete a monitor', 'מחיקת מוניטור', 'Stops evaluating it; its alerts stay in the history.', { responses: { 204: { description: 'deleted' } } }),
    })
    .post('/monitors/:id/snooze', ({ principal: p, params, body }) => svc.snooze(p.tenantId, params.id, body), {
      auth: MANAGE, params: Id, body: SnoozeBody, response: { 200: MonitorView },
      detail: doc(T, 'Snooze a monitor', 'השתקת מוניטור', 'Exactly one of `minutes` or `until`, 1 minute to 7 days ahead (422 otherwise), and an optional `reason`. Alerts are still recorded and webhooks still sent; e-mail and Telegram notifications are muted until the time passes (a still-firing alert is then notified).'),
    })
    .delete('/monitors/:id/snooze', ({ principal: p, params }) => svc.unsnooze(p.tenantId, params.id), {
      auth: MANAGE, params: Id, response: { 200: MonitorView },
      detail: doc(T, 'Lift a monitor snooze', 'ביטול השתקה', 'Notifications resume at once.'),
    })
    .post('/alert-destinations', async ({ principal: p, body, set }) => { const d = await dests.addEmail(p.tenantId, body); set.status = 201; return d; }, {
      auth: MANAGE, body: DestinationBody, response: { 201: DestinationView },
      detail: doc(T, 'Add an alert destination', 'הוספת יעד התראות', 'An e-mail address. A member of the tenant is `active` at once; any other address is `pending` until the link e-mailed to it is opened. At most 50 destinations per tenant (409 beyond); the same address twice answers 409; 403 `feature_disabled` when e-mail is not configured and the address is not a member\'s.', { 'x-problems': [403, 409] }),
    })
    .post('/alert-destinations/telegram-link', async ({ principal: p, body, set }) => { const r = await dests.linkTelegram(p.tenantId, body); set.status = 201; return r; }, {
      auth: MANAGE, body: TelegramLinkBody, response: { 201: TelegramLinkView },
      detail: doc(T, 'Link a Telegram chat', 'קישור צ\'אט טלגרם', 'Creates a `pending` Telegram destination and a one-time start code (valid one hour). Send `/start <code>` to the appliance\'s bot from the chat (or open `link`); the appliance reads it with `getUpdates`, stores the chat and answers it, and the destination becomes `active`. 403 `feature_disabled` when no bot token is configured.', { 'x-problems': [403, 409] }),
    })
    .get('/alert-destinations', ({ principal: p, query }) => dests.list(p.tenantId, parseLimit(query.limit, 50, 200), query.cursor), {
      auth: MANAGE, query: PageQuery(), response: { 200: DestinationPage },
      detail: doc(T, 'List alert destinations', 'רשימת יעדי התראות', 'Newest first, with `status` (`active` or `pending`).'),
    })
    .delete('/alert-destinations/:id', ({ principal: p, params, set }) => { dests.remove(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: MANAGE, params: Id,
      detail: doc(T, 'Delete an alert destination', 'מחיקת יעד התראות', 'Monitors naming it skip it from then on.', { responses: { 204: { description: 'deleted' } } }),
    })
    .get('/alert-destinations/confirm', ({ query, set }) => {
      const d = dests.confirm(query.token);
      set.headers['content-type'] = 'text/html; charset=utf-8';
      set.headers['cache-control'] = 'no-store';
      return `<!doctype html><meta charset="utf-8"><title>ViewStream</title><p>${escape(d.target ?? '')} will receive ViewStream alerts.</p><p dir="rtl" lang="he">הכתובת תקבל התראות של ViewStream.</p>`;
    }, { query: t.Object({ token: t.String({ maxLength: 200 }) }), detail: hidden })
    .get('/alerts', ({ principal: p, query }) => svc.alerts(p.tenantId, { limit: parseLimit(query.limit, 50, 200), cursor: query.cursor, state: query.state, monitor_id: query.monitor_id }), {
      auth: { scope: null, anyOf: ['events:read', 'notifications:manage'] }, query: AlertQuery, response: { 200: AlertPage },
      detail: doc(T, 'List alerts', 'היסטוריית התראות', 'Alert history newest first (cursor list); `state` keeps only `firing` or `resolved`, `monitor_id` one monitor. Each alert names its check, severity, target, value, a summary (a recorder gap names the missing range and the programme it hit), whether notifications were muted at firing, and its acknowledgement.'),
    })
    .get('/alerts/:id/thumbnail', ({ principal: p, params }) => {
      const file = svc.thumbnail(p.tenantId, params.id);
      return new Response(Bun.file(file), { headers: { 'content-type': 'image/jpeg', 'cache-control': 'private, max-age=3600' } });
    }, {
      auth: { scope: null, anyOf: ['events:read', 'notifications:manage'] }, params: Id,
      detail: doc(T, 'Get an alert thumbnail', 'תמונה ממוזערת של התראה', 'The last good frame before a recorder gap (JPEG, 480 pixels wide), named in the alert\'s `detail.thumbnail`; 404 while it is being made or when the alert has none.', {
        responses: { 200: { description: 'JPEG image', content: { 'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } } } } },
      }),
    })
    .post('/alerts/:id/ack', ({ principal: p, params }) => svc.ack(p, params.id), {
      auth: MANAGE, params: Id, response: { 200: AlertView },
      detail: doc(T, 'Acknowledge an alert', 'אישור קבלת התראה', 'Records who acknowledged the alert and when; a second acknowledgement keeps the first.'),
    })
    .get('/service-status', () => status.read(), {
      auth: READ_OPS, response: { 200: ServiceStatusView },
      detail: doc(T, 'Get service status', 'מצב השירות', 'The shared layers of this appliance (api, ingest, recorder, transcode_queue, delivery, statistics, email, disk), each `ok`, `degraded`, `down` or `off`, with `since` (the time it entered that state, or the start of the process).'),
    });
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
