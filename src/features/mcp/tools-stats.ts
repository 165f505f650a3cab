import { z } from 'zod';
import { AppError } from '../../kernel/errors';
import { StatsService, INTERVALS, DIMENSIONS, checkMetric, defaultInterval, type Interval } from '../stats/service';
import { statsQueryOf } from '../stats/request';
import { METRICS } from '../stats/sessions';
import { tool, type Tool, type ToolEnv } from './tool';
import { Cap, Instant } from './schemas';

/** Range and filters shared by the statistics tools (same meaning as the REST query). */
const Range = {
  from: Instant.optional().describe('range start (default: `to` minus 24 hours)'),
  to: Instant.optional().describe('range end, exclusive (default now); at most 2 years after `from`'),
  channel: z.string().max(100).optional().describe('channel slug or id'),
  asset: z.string().max(100).optional(),
  clip: z.string().max(100).optional(),
  country: z.string().regex(/^[A-Za-z]{2}$/).optional(),
  device: z.string().max(20).optional(),
  live: z.boolean().optional().describe('true: live viewing only; false: everything else'),
};
type RangeArgs = { from?: string; to?: string; channel?: string; asset?: string; clip?: string; country?: string; device?: string; live?: boolean };

const query = ({ ctx, p }: ToolEnv, a: RangeArgs) => statsQueryOf(ctx, p, { ...a, live: a.live === undefined ? undefined : String(a.live) });
const Values = z.record(z.string(), z.number().nullable());
const Points = z.array(z.object({ t: z.string(), value: z.number().nullable() }));
const metricText = `one of ${METRICS.join(', ')}`;

/** Statistics tools (scope stats:read): overview, timeseries and top content over the DuckDB store. */
export const statsTools: Tool[] = [
  tool({
    name: 'stats_overview', title: 'Statistics overview', scope: 'stats:read', platform: false, write: false,
    description: 'Headline numbers (plays, viewers, watch time, rebuffer ratio, error rate, startup, traffic...) over the range and the same-length period before it, with the relative change.',
    input: Range,
    output: z.looseObject({ from: z.string(), to: z.string(), current: Values, previous_values: Values, change: Values }),
    run: async (env, a) => new StatsService(env.ctx).overview(query(env, a)),
  }),
  tool({
    name: 'stats_timeseries', title: 'Metric over time', scope: 'stats:read', platform: false, write: false,
    description: `One metric in UTC buckets; \`metric\` ${metricText}; \`interval\` 1m, 1h or 1d (default by range length); \`group_by\` a dimension for one series per value.`,
    input: { ...Range, metric: z.string().max(40).describe(metricText), interval: z.enum(['1m', '1h', '1d']).optional(), group_by: z.enum(DIMENSIONS).optional() },
    output: z.object({ metric: z.string(), interval: z.string(), from: z.string(), to: z.string(), group_by: z.string().nullable(), points: Points, series: z.array(z.object({ key: z.string(), points: Points })), ...Cap }),
    async run(env, a) {
      const sq = query(env, a);
      const metric = checkMetric(a.metric);
      const interval: Interval = a.interval ?? defaultInterval(sq.to - sq.from);
      if (sq.to - sq.from > INTERVALS[interval].maxMs) throw new AppError('validation_error', `interval: ${interval} buckets cover at most ${INTERVALS[interval].maxMs / 86_400_000} days; use a larger interval`, { errors: [{ field: 'interval', detail: `range too long for ${interval}` }] });
      return new StatsService(env.ctx).timeseries(sq, metric, interval, a.group_by ?? null);
    },
  }),
  tool({
    name: 'stats_top', title: 'Top content', scope: 'stats:read', platform: false, write: false,
    description: `The assets, clips or channels with the highest metric (default plays); \`limit\` 1-100 (default 10).`,
    input: { ...Range, entity: z.enum(['assets', 'clips', 'channels']), metric: z.string().max(40).optional().describe(metricText), limit: z.number().int().min(1).max(100).optional() },
    output: z.object({ entity: z.string(), metric: z.string(), items: z.array(z.object({ id: z.string(), value: z.number().nullable() })), ...Cap }),
    run: async (env, a) => new StatsService(env.ctx).top(query(env, a), a.entity, checkMetric(a.metric ?? 'plays'), a.limit ?? 10),
  }),
];
