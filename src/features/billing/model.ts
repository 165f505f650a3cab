import { t } from 'elysia';

/** A figure split by resolution tier, with its total. */
const ByTierView = t.Object({
  audio: t.Number(), up_to_720p: t.Number(), '1080p': t.Number(), above_1080p: t.Number(),
  unknown: t.Number({ description: 'usage of content no longer in the records' }), total: t.Number(),
});

/** One month of usage. */
export const MonthUsageView = t.Object({
  month: t.String({ description: 'YYYY-MM (UTC)' }), from: t.String(), to: t.String(),
  complete: t.Boolean({ description: 'false: month to date (the month, plus a grace hour, has not ended)' }),
  computed_at: t.String(),
  minutes_stored: ByTierView, minutes_encoded: ByTierView, minutes_delivered: ByTierView, bytes_delivered: ByTierView,
  live_input_hours: ByTierView, recorded_hours: ByTierView,
});

/** The usage answer. */
export const UsageView = t.Object({ items: t.Array(MonthUsageView) });

/** GET /v1/billing/usage query. */
export const UsageQuery = t.Object({
  month: t.Optional(t.String({ description: 'one month, YYYY-MM (default: the current month)' })),
  from: t.Optional(t.String({ description: 'first month of a range, YYYY-MM (with `to`; at most 24 months)' })),
  to: t.Optional(t.String({ description: 'last month of a range, YYYY-MM' })),
  format: t.Optional(t.Union([t.Literal('json'), t.Literal('csv')], { description: 'csv: text/csv; also chosen by `Accept: text/csv`' })),
});
