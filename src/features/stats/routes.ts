import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import type { Principal } from '../../kernel/http/auth';
import { AppError } from '../../kernel/errors';
import type { Gate } from '../playback/gate';
import { StatsService, INTERVALS, checkMetric, defaultInterval, type Dimension, type Interval } from './service';
import { StatsReads } from './reads';
import { statsRuntime } from './runtime';
import { originLogObserver } from './origin-log';
import { exportRoute } from './export-route';
import { statsQueryOf } from './request';
import { beaconCounts } from './beacon-counts';
import { BeaconsView, BreakdownQuery, CommonQuery, ItemsView, OverviewView, RealtimeView, SessionsQuery, TimeseriesQuery, TopQuery, TimeseriesView, TopView, ValuesView } from './model';

const TAG = 'Statistics';
const Common = t.Object(CommonQuery);
const formulas = 'Formulas: docs/metrics.md.';

/** /v1/stats/*: audience and origin statistics (scope stats:read), and the origin request log on the gate. */
export function statsRoutes(ctx: AppContext, gate: Gate) {
  const rt = statsRuntime(ctx);
  if (rt.settings.enabled && rt.settings.originLog) gate.observe(originLogObserver(rt, () => ctx.clock.now()));
  const svc = new StatsService(ctx);
  const reads = new StatsReads(ctx);
  const auth = { scope: 'stats:read' as const };
  const q = (p: Principal, query: Record<string, unknown>) => statsQueryOf(ctx, p, query as Record<string, string | undefined>);
  return new Elysia({ prefix: '/v1/stats' })
    .use(ctx.http)
    .get('/overview', ({ principal: p, query }) => svc.overview(q(p, query)), {
      auth, query: Common, response: { 200: OverviewView },
      detail: doc(TAG, 'Headline numbers', 'מספרים מרכזיים', `Every metric over the range and over the same-length period just before it, with the relative change. ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/timeseries', ({ principal: p, query }) => {
      const sq = q(p, query);
      const metric = checkMetric(query.metric);
      const interval: Interval = query.interval ?? defaultInterval(sq.to - sq.from);
      if (sq.to - sq.from > INTERVALS[interval].maxMs) throw new AppError('validation_error', `interval: ${interval} buckets cover at most ${INTERVALS[interval].maxMs / 86_400_000} days; use a larger interval`, { errors: [{ field: 'interval', detail: `range too long for ${interval}` }] });
      return svc.timeseries(sq, metric, interval, (query.group_by as Dimension | undefined) ?? null);
    }, {
      auth, query: TimeseriesQuery, response: { 200: TimeseriesView },
      detail: doc(TAG, 'Metric over time', 'מדד לאורך זמן', `One metric in UTC buckets (empty buckets are 0, or null for ratios and averages). ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/top', ({ principal: p, query }) => svc.top(q(p, query), query.entity, checkMetric(query.metric ?? 'plays'), query.limit ?? 10), {
      auth, query: TopQuery, response: { 200: TopView },
      detail: doc(TAG, 'Top content', 'התוכן המוביל', `The assets, clips or channels with the highest metric; \`limit\` up to 100. ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/realtime', ({ principal: p }) => { statsQueryOf(ctx, p, {}); return svc.realtime(p.tenantId, ctx.clock.now()); }, {
      auth, response: { 200: RealtimeView },
      detail: doc(TAG, 'Concurrent viewers now', 'צופים כעת', 'Sessions with a beacon event in the last 120 seconds whose last event is not a pause, end or error, by content. The event stream carries the same numbers as `stats.realtime` frames.', { 'x-problems': [403] }),
    })
    .get('/beacons', ({ principal: p }) => {
      statsQueryOf(ctx, p, {});
      const c = beaconCounts(ctx);
      return { since: new Date(c.since).toISOString(), ...c.tally(p.tenantId), studio_concurrent: c.studio.answer(p.tenantId, ctx.clock.now()).concurrent };
    }, {
      auth, response: { 200: BeaconsView },
      detail: doc(TAG, 'Beacon intake', 'קליטת beacons', 'Counters since the service started: beacons counted as audience, studio previews (never audience), and beacons dropped because they were not bound to a playback session of this tenant and its content (docs/beacons.md, "Binding").', { 'x-problems': [403] }),
    })
    .get('/breakdown', ({ principal: p, query }) => svc.breakdown(q(p, query), (query.by as Dimension | undefined) ?? 'country'), {
      auth, query: BreakdownQuery, response: { 200: ItemsView },
      detail: doc(TAG, 'Audience by dimension', 'קהל לפי ממד', `Session metrics per value of \`by\` (top 50 by plays). ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/traffic', ({ principal: p, query }) => reads.traffic(q(p, query)), {
      auth, query: Common, response: { 200: ValuesView },
      detail: doc(TAG, 'Origin traffic', 'תעבורת מקור', `Requests, bytes, Gbit/s and bytes read from disk over the range, by target kind (origin request log). ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/qoe', ({ principal: p, query }) => svc.qoe(q(p, query)), {
      auth, query: Common, response: { 200: ValuesView },
      detail: doc(TAG, 'Quality of experience', 'איכות חוויית הצפייה', `Startup time (average, p95), rebuffer ratio and count, error rate, exits before start. ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/cdn', ({ principal: p, query }) => reads.cdn(q(p, query)), {
      auth, query: Common, response: { 200: ValuesView },
      detail: doc(TAG, 'Origin delivery', 'מסירה מהמקור', `Memory vs disk answers (cache hit ratio), time to first byte (average, p95), answers by status class; and \`distributions\`: the CDN distributions' edge usage — requests, bytes, hits (served from the edge cache), misses (fetched and stored), \`cache_hit_ratio\` = hits / requests, in total and per distribution (\`items\`). ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/completion', ({ principal: p, query }) => svc.completion(q(p, query)), {
      auth, query: Common, response: { 200: ValuesView },
      detail: doc(TAG, 'Completion', 'צפייה עד הסוף', `Plays that reached the end, per content. ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/programmes', ({ principal: p, query }) => reads.programmes(q(p, query)), {
      auth, query: Common, response: { 200: ItemsView },
      detail: doc(TAG, 'Audience per programme', 'קהל לפי תוכנית', `Live audience per guide programme (live sessions overlapping the programme in effect on their channel: sessions, distinct viewers, watch time within the overlap, and the origin's live bytes and requests in the programme's time), then start-over audience per programme and catch-up audience per window (distinct sessions, bytes) from the origin log. \`live=true\` gives the live rows only, \`live=false\` leaves them out. ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/sessions', ({ principal: p, query }) => reads.sessions(q(p, query), query.limit ?? 100, p.scopes.has('stats:pii')), {
      auth, query: SessionsQuery, response: { 200: ItemsView },
      detail: doc(TAG, 'Viewer sessions', 'הפעלות צפייה', `One row per viewer session, newest first, joined with the origin log by token \`sid\` (bytes, TTFB, errors at the origin). \`viewer_id\` only for a key with stats:pii. ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/ads', ({ principal: p, query }) => reads.ads(q(p, query)), {
      auth, query: Common, response: { 200: ValuesView },
      detail: doc(TAG, 'Ad impressions', 'חשיפות פרסומות', `Ad impressions (beacon ad_start events) per content. ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .get('/sites', ({ principal: p, query }) => reads.sites(q(p, query)), {
      auth, query: Common, response: { 200: ItemsView },
      detail: doc(TAG, 'Audience per site', 'קהל לפי אתר', `Plays, viewers and watch time per embedding page host. ${formulas}`, { 'x-problems': [403, 422] }),
    })
    .use(exportRoute(ctx));
}
