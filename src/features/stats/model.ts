import { t } from 'elysia';
import { METRICS } from './sessions';
import { DIMENSIONS } from './service';
import { REPORTS } from './export';

const Str = (description: string, maxLength = 200) => t.Optional(t.String({ maxLength, description }));
const Num = t.Union([t.Number(), t.Null()]);

/** The common statistics query: range and filters. */
export const CommonQuery = {
  from: Str('range start: RFC 3339 date-time or epoch milliseconds (default: `to` minus 24 hours)', 40),
  to: Str('range end, exclusive: RFC 3339 date-time or epoch milliseconds (default: now, rounded up to the minute); at most 2 years after `from`', 40),
  country: t.Optional(t.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 country of the viewer (MaxMind)' })),
  device: Str('device type: desktop, mobile, tablet, tv, bot, other', 20),
  pathway: Str('delivery pathway the player reported', 100),
  channel: Str('channel slug or id', 100),
  asset: Str('asset id', 100),
  clip: Str('clip id', 100),
  page_host: Str('host of the page that embedded the player', 253),
  live: t.Optional(t.Union([t.Literal('true'), t.Literal('false')], { description: 'true: live viewing only; false: everything else' })),
};

/** Query of the timeseries read. */
export const TimeseriesQuery = t.Object({
  ...CommonQuery,
  metric: t.String({ maxLength: 40, description: `one of ${METRICS.join(', ')} (unknown → 422)` }),
  interval: t.Optional(t.Union([t.Literal('1m'), t.Literal('1h'), t.Literal('1d')], { description: 'bucket: default 1m up to 1 day, 1h up to 90 days, else 1d; longest range 2 days (1m), 180 days (1h), 2 years (1d) → 422 past it' })),
  group_by: t.Optional(t.Union(DIMENSIONS.map((d) => t.Literal(d)), { description: 'one series per value (top 10 by total)' })),
});

/** Query of the top read. */
export const TopQuery = t.Object({
  ...CommonQuery,
  entity: t.Union([t.Literal('assets'), t.Literal('clips'), t.Literal('channels')]),
  metric: t.Optional(t.String({ maxLength: 40, description: 'default plays' })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, description: '1-100 (default 10)' })),
});

/** Query of the breakdown read. */
export const BreakdownQuery = t.Object({ ...CommonQuery, by: t.Optional(t.Union(DIMENSIONS.map((d) => t.Literal(d)), { description: 'dimension (default country)' })) });

/** Query of the sessions read. */
export const SessionsQuery = t.Object({ ...CommonQuery, limit: t.Optional(t.Integer({ minimum: 1, maximum: 1000, description: '1-1000 (default 100)' })) });

/** Query of the streamed export. */
export const ExportQuery = t.Object({
  ...CommonQuery,
  report: t.String({ maxLength: 40, description: `one of ${REPORTS.join(', ')} (unknown → 422 naming them)` }),
  format: t.Optional(t.Union([t.Literal('csv'), t.Literal('ndjson')], { description: 'csv (UTF-8 with BOM; default) or ndjson' })),
});

/** Metric values by name. */
export const MetricValues = t.Record(t.String(), Num);

/** Answer of the overview. */
export const OverviewView = t.Object({
  from: t.String(), to: t.String(), previous: t.Object({ from: t.String(), to: t.String() }),
  current: MetricValues, previous_values: MetricValues, change: t.Record(t.String(), Num, { description: '(current − previous) ÷ previous; null when previous is 0 or unknown' }),
});

const Points = t.Array(t.Object({ t: t.String({ description: 'bucket start (UTC)' }), value: Num }));
/** Answer of the timeseries. */
export const TimeseriesView = t.Object({
  metric: t.String(), interval: t.String(), from: t.String(), to: t.String(), group_by: t.Union([t.String(), t.Null()]),
  points: Points, series: t.Array(t.Object({ key: t.String(), points: Points })),
});

/** Answer of the top read. */
export const TopView = t.Object({ entity: t.String(), metric: t.String(), items: t.Array(t.Object({ id: t.String(), value: Num })) });

/** Answer of the realtime read. */
export const RealtimeView = t.Object({
  at: t.String(), window_s: t.Number(), concurrent: t.Number(),
  by_content: t.Array(t.Object({ kind: t.Union([t.String(), t.Null()]), id: t.Union([t.String(), t.Null()]), concurrent: t.Number() })),
});

/** Answer of GET /v1/stats/beacons: what the beacon intake did with this tenant's beacons since the process started. */
export const BeaconsView = t.Object({
  since: t.String({ description: 'when counting started (the service start)' }),
  audience: t.Number({ description: 'beacons counted as audience (bound to a viewer session of this tenant)' }),
  studio: t.Number({ description: 'beacons of studio previews: kept out of every audience figure' }),
  studio_concurrent: t.Number({ description: 'studio previews playing now (the realtime rules)' }),
  dropped: t.Object({
    unbound: t.Number({ description: 'naming this tenant with a sid no session has' }),
    tenant: t.Number({ description: 'naming this tenant with another tenant\'s session' }),
    content: t.Number({ description: 'naming content other than its session\'s target' }),
    viewer: t.Number({ description: 'from another viewer id than the one that first reported on the session' }),
  }),
});

/** Answer of a list-shaped read (rows of named values). */
export const ItemsView = t.Object({ items: t.Array(t.Record(t.String(), t.Unknown())) }, { additionalProperties: true });

/** Answer of a read of named values. */
export const ValuesView = t.Record(t.String(), t.Unknown());

/** Body of POST /v1/stats/exports. */
export const ExportBody = t.Object({
  report: t.String({ maxLength: 40, description: `one of ${REPORTS.join(', ')}` }),
  format: t.Optional(t.Union([t.Literal('csv'), t.Literal('ndjson')], { description: 'csv (UTF-8 with BOM; default) or ndjson' })),
  from: t.Optional(t.String({ maxLength: 40, description: 'RFC 3339 or epoch milliseconds (as text)' })),
  to: t.Optional(t.String({ maxLength: 40 })),
  email: t.Optional(t.Boolean({ description: 'mail the link when ready (signed-in studio users only)' })),
  filters: t.Optional(t.Object({
    country: t.Optional(t.String({ maxLength: 2 })), device: t.Optional(t.String({ maxLength: 20 })), pathway: t.Optional(t.String({ maxLength: 100 })),
    channel: t.Optional(t.String({ maxLength: 100 })), asset: t.Optional(t.String({ maxLength: 100 })), clip: t.Optional(t.String({ maxLength: 100 })),
    page_host: t.Optional(t.String({ maxLength: 253 })), live: t.Optional(t.Union([t.Literal('true'), t.Literal('false')])),
  }, { additionalProperties: false })),
}, { additionalProperties: false });

/** A prepared export. */
export const ExportJobView = t.Object({
  id: t.String(), status: t.String({ description: 'queued, running, ready, failed, expired (an open set)' }), report: t.String(), format: t.String(),
  from: t.String(), to: t.String(), rows: t.Union([t.Number(), t.Null()]), file_name: t.Union([t.String(), t.Null()]), pii: t.Boolean(),
  download_url: t.Union([t.String(), t.Null()], { description: 'signed, valid 15 minutes; present when ready' }),
  download_expires_at: t.Union([t.String(), t.Null()]), created_at: t.String(), error: t.Union([t.String(), t.Null()]),
});
