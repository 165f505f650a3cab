import { t } from 'elysia';
import { SEVERITIES, TARGET_KINDS } from './catalogue';

const At = t.String({ format: 'date-time' });
const Lit = (xs: readonly string[], description?: string) => t.Union(xs.map((x) => t.Literal(x)), description ? { description } : {});
const HHMM = t.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM (24 h)' });

/** One check of a monitor as sent. */
export const CheckBody = t.Object({
  type: t.String({ minLength: 1, maxLength: 40, description: 'a type from GET /v1/monitors/checks' }),
  threshold: t.Optional(t.Number({ description: 'default from the catalogue' })),
  for_s: t.Optional(t.Integer({ minimum: 0, maximum: 86_400, description: 'how long the condition must hold before firing (0-86400 s)' })),
  window_s: t.Optional(t.Integer({ minimum: 10, maximum: 86_400, description: 'look-back window of windowed checks (10-86400 s)' })),
  severity: t.Optional(Lit(SEVERITIES, 'info, warning or critical')),
  params: t.Optional(t.Record(t.String({ maxLength: 40 }), t.Union([t.String({ maxLength: 200 }), t.Number(), t.Boolean()]), { description: 'type-specific options (e.g. `min_peak` of concurrent_drop)' })),
}, { additionalProperties: false });

/** Quiet hours: notifications muted between `from` and `to` local time in `tz` (critical passes with `allow_critical`). */
export const QuietHours = t.Object({
  from: HHMM, to: HHMM,
  tz: t.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Asia/Jerusalem' }),
  allow_critical: t.Optional(t.Boolean({ description: 'critical alerts still notify (default false)' })),
}, { additionalProperties: false });

const MonitorFields = {
  name: t.String({ minLength: 1, maxLength: 200 }),
  target_kind: Lit(TARGET_KINDS, 'channel, asset, site (with target_host) or tenant'),
  target_id: t.Optional(t.String({ maxLength: 200, description: 'id of the channel or asset (absent for tenant and site)' })),
  target_host: t.Optional(t.String({ maxLength: 253, description: 'page host of a site target' })),
  checks: t.Array(CheckBody, { minItems: 1, maxItems: 20 }),
  destinations: t.Optional(t.Array(t.String({ maxLength: 64 }), { maxItems: 50, description: 'alert destination ids' })),
  inapp: t.Optional(t.Boolean({ description: 'show alerts in the studio bell (default true)' })),
  notify_resolve: t.Optional(t.Boolean({ description: 'notify when an alert resolves (default true)' })),
  repeat_min: t.Optional(t.Integer({ minimum: 0, maximum: 10_080, description: 'repeat notifications every N minutes while firing (0 = never; default 0)' })),
  quiet_hours: t.Optional(t.Union([QuietHours, t.Null()])),
};

/** Body of POST /v1/monitors. */
export const CreateMonitorBody = t.Object(MonitorFields, { additionalProperties: false });
/** Body of PATCH /v1/monitors/{id} (any field of a monitor). */
export const PatchMonitorBody = t.Partial(t.Object(MonitorFields), { additionalProperties: false });

/** Body of POST /v1/monitors/presets/basic. */
export const PresetBody = t.Object({
  channel_id: t.String({ minLength: 1, maxLength: 64 }),
  destinations: t.Optional(t.Array(t.String({ maxLength: 64 }), { maxItems: 50 })),
  name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
}, { additionalProperties: false });

/** Body of POST /v1/monitors/{id}/snooze. */
export const SnoozeBody = t.Object({
  minutes: t.Optional(t.Integer({ minimum: 1, maximum: 10_080, description: '1 minute to 7 days' })),
  until: t.Optional(t.String({ format: 'date-time', description: 'RFC 3339; 1 minute to 7 days ahead' })),
  reason: t.Optional(t.String({ maxLength: 500 })),
}, { additionalProperties: false });

const CheckView = t.Object({
  type: t.String(), threshold: t.Number(), for_s: t.Integer(), window_s: t.Union([t.Integer(), t.Null()]), severity: t.String(),
  params: t.Record(t.String(), t.Unknown()), state: t.String({ description: 'normal, pending or firing' }), since: t.Union([At, t.Null()]),
});

/** A monitor as answered. */
export const MonitorView = t.Object({
  id: t.String(), name: t.String(), target_kind: t.String(), target_id: t.Union([t.String(), t.Null()]), target_host: t.Union([t.String(), t.Null()]),
  checks: t.Array(CheckView), destinations: t.Array(t.String()), inapp: t.Boolean(), notify_resolve: t.Boolean(), repeat_min: t.Integer(),
  quiet_hours: t.Union([t.Object({ from: t.String(), to: t.String(), tz: t.String(), allow_critical: t.Boolean() }), t.Null()]),
  snooze: t.Union([t.Object({ until: At, reason: t.Union([t.String(), t.Null()]) }), t.Null()]),
  created_at: At, updated_at: At,
});
/** A page of monitors. */
export const MonitorPage = t.Object({ items: t.Array(MonitorView), next_cursor: t.Union([t.String(), t.Null()]) });

/** The check catalogue answer. */
export const CatalogueView = t.Object({
  checks: t.Array(t.Object({
    type: t.String(), title: t.String(), unit: t.String(), compare: t.String(), default_threshold: t.Number(), default_for_s: t.Integer(),
    default_window_s: t.Union([t.Integer(), t.Null()]), default_severity: t.String(), severities: t.Array(t.String()), targets: t.Array(t.String()),
    creatable: t.Boolean(), description: t.String(),
  }, { additionalProperties: true })),
  presets: t.Array(t.Object({ name: t.String(), target_kind: t.String(), checks: t.Array(t.String()), description: t.String() })),
  limits: t.Object({ monitors: t.Integer(), destinations: t.Integer(), snooze_min_minutes: t.Integer(), snooze_max_minutes: t.Integer() }),
});

/** Body of POST /v1/alert-destinations. */
export const DestinationBody = t.Object({
  kind: t.Literal('email', { description: 'email (Telegram chats are linked with POST /v1/alert-destinations/telegram-link)' }),
  target: t.String({ minLength: 3, maxLength: 254, description: 'e-mail address' }),
  name: t.Optional(t.String({ maxLength: 200 })),
}, { additionalProperties: false });
/** Body of POST /v1/alert-destinations/telegram-link. */
export const TelegramLinkBody = t.Object({ name: t.Optional(t.String({ maxLength: 200 })) }, { additionalProperties: false });

/** An alert destination as answered. */
export const DestinationView = t.Object({
  id: t.String(), kind: t.String(), target: t.Union([t.String(), t.Null()]), name: t.Union([t.String(), t.Null()]),
  status: t.String({ description: 'active, or pending (waiting for the e-mail confirmation or the Telegram /start message)' }),
  created_at: At, confirmed_at: t.Union([At, t.Null()]),
});
/** Answer of the Telegram link operation. */
export const TelegramLinkView = t.Object({
  destination: DestinationView,
  start_code: t.String({ description: 'send `/start <code>` to the bot (or open `link`); valid 1 hour' }),
  link: t.Union([t.String(), t.Null()], { description: 'https://t.me/<bot>?start=<code> when the bot name is known' }),
  expires_at: At,
});
/** A page of destinations. */
export const DestinationPage = t.Object({ items: t.Array(DestinationView), next_cursor: t.Union([t.String(), t.Null()]) });

/** An alert as answered. */
export const AlertView = t.Object({
  id: t.String(), monitor_id: t.String(), monitor_name: t.String(), check: t.String(), severity: t.String(),
  target_kind: t.String(), target_id: t.Union([t.String(), t.Null()]), state: t.String({ description: 'firing or resolved' }),
  value: t.Union([t.Number(), t.Null()]), threshold: t.Union([t.Number(), t.Null()]), summary: t.String(), detail: t.Record(t.String(), t.Unknown()),
  inapp: t.Boolean(), muted: t.Union([t.String(), t.Null()], { description: 'snooze or quiet_hours when notifications were muted at firing' }),
  notifications: t.Integer(), started_at: At, resolved_at: t.Union([At, t.Null()]), acked_at: t.Union([At, t.Null()]), acked_by: t.Union([t.String(), t.Null()]),
});
/** A page of alerts. */
export const AlertPage = t.Object({ items: t.Array(AlertView), next_cursor: t.Union([t.String(), t.Null()]) });
/** Query of GET /v1/alerts. */
export const AlertQuery = t.Object({
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 200, description: 'page size, 1-200 (default 50)' })),
  cursor: t.Optional(t.String({ maxLength: 512 })),
  state: t.Optional(Lit(['firing', 'resolved'], 'only firing or only resolved alerts')),
  monitor_id: t.Optional(t.String({ maxLength: 64 })),
});

/** GET /v1/service-status. */
export const ServiceStatusView = t.Object({
  status: t.String({ description: 'ok, degraded or down (the worst layer)' }), at: At,
  layers: t.Array(t.Object({ name: t.String(), state: t.String({ description: 'ok, degraded, down or off' }), since: At, detail: t.String() })),
});
