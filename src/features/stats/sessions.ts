import type { StatsParam } from '../../kernel/stats';

/** Order of events that share a millisecond (so the playing state between them is defined). */
const RANK = `CASE e WHEN 'view_start' THEN 0 WHEN 'play_request' THEN 1 WHEN 'first_frame' THEN 2 WHEN 'pause' THEN 4 WHEN 'ended' THEN 5 WHEN 'error' THEN 6 ELSE 3 END`;

/**
 * SQL (a CTE body) deriving one row per viewer session (`sid`) from the player events matching `where`; formulas in
 * docs/metrics.md. Watch time: the sum of gaps between consecutive events while the last state-changing event was a
 * play request (pause, ended and error stop the clock; startup and rebuffering count, as at Mux).
 */
export function sessionsSql(where: string): string {
  return `ev AS (
    SELECT *, coalesce(lead(ts) OVER w - ts, 0) AS dt,
      last_value(CASE WHEN e IN ('play_request', 'pause', 'ended', 'error') THEN e END IGNORE NULLS)
        OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS st
    FROM player_events WHERE ${where}
    WINDOW w AS (PARTITION BY sid ORDER BY ts, ${RANK})
  ), sessions AS (
    SELECT sid, any_value(viewer_id) AS viewer_id, min(ts) AS started, max(ts) AS last_ts,
      arg_max(e, ts) AS last_e, any_value(kind) AS kind, any_value(content_id) AS content_id,
      any_value(channel) AS channel, bool_or(live) AS live, any_value(page_host) AS page_host,
      any_value(country) AS country, any_value(device) AS device, arg_max(pathway, ts) AS pathway,
      bool_or(e = 'play_request') AS attempted, bool_or(e = 'first_frame') AS played,
      min(startup_ms) FILTER (WHERE e = 'first_frame') AS startup_ms,
      count(*) FILTER (WHERE e = 'rebuffer_start') AS rebuffers,
      coalesce(sum(dur_ms) FILTER (WHERE e = 'rebuffer_end'), 0) AS rebuffer_ms,
      count(*) FILTER (WHERE e = 'error') AS errors,
      bool_or(e = 'ended') AS completed,
      count(*) FILTER (WHERE e IN ('ad_start', 'adstart', 'ad_impression')) AS ad_impressions,
      coalesce(sum(dt) FILTER (WHERE st = 'play_request'), 0) AS watch_ms,
      max(pos) AS max_pos, arg_max(level, ts) FILTER (WHERE level IS NOT NULL) AS last_level
    FROM ev GROUP BY sid
  )`;
}

/** Aggregates over `sessions` for each session metric (SQL expressions; DOUBLE results). */
export const SESSION_AGG: Record<string, string> = {
  attempts: `count(*) FILTER (WHERE attempted)::DOUBLE`,
  plays: `count(*) FILTER (WHERE played)::DOUBLE`,
  viewers: `count(DISTINCT viewer_id)::DOUBLE`,
  watch_time: `(sum(watch_ms) / 1000.0)::DOUBLE`,
  rebuffer_ratio: `(sum(rebuffer_ms) / nullif(sum(watch_ms), 0))::DOUBLE`,
  error_rate: `(count(*) FILTER (WHERE errors > 0 AND attempted) / nullif(count(*) FILTER (WHERE attempted), 0))::DOUBLE`,
  startup_avg: `avg(startup_ms) FILTER (WHERE played)::DOUBLE`,
  startup_p95: `quantile_cont(startup_ms, 0.95) FILTER (WHERE played)::DOUBLE`,
  ad_impressions: `sum(ad_impressions)::DOUBLE`,
  exits_before_start: `count(*) FILTER (WHERE attempted AND NOT played AND errors = 0)::DOUBLE`,
  completion_rate: `(count(*) FILTER (WHERE played AND completed) / nullif(count(*) FILTER (WHERE played), 0))::DOUBLE`,
  rebuffer_count: `sum(rebuffers)::DOUBLE`,
  concurrent: `count(*)::DOUBLE`,
};

/** Aggregates over the origin log rollup `edge_minute` (and, with `raw`, over `edge_requests`), DOUBLE results; `secs` is the range in seconds. */
export function edgeAgg(raw: boolean): Record<string, string> {
  const req = raw ? 'count(*)' : 'sum(requests)';
  const bytes = raw ? 'coalesce(sum(bytes), 0)' : 'coalesce(sum(bytes), 0)';
  const memReq = raw ? `count(*) FILTER (WHERE source = 'memory')` : 'sum(memory_requests)';
  const memBytes = raw ? `coalesce(sum(bytes) FILTER (WHERE source = 'memory'), 0)` : 'coalesce(sum(memory_bytes), 0)';
  return {
    requests: `coalesce(${req}, 0)::DOUBLE`,
    bytes: `${bytes}::DOUBLE`,
    origin_bytes: `(${bytes} - ${memBytes})::DOUBLE`,
    gbps: `(${bytes} * 8 / 1e9 / $secs)::DOUBLE`,
    cache_hit_ratio: `(${memReq} / nullif(${req}, 0))::DOUBLE`,
    error_requests: raw ? `count(*) FILTER (WHERE status >= 400)::DOUBLE` : `coalesce(sum(errors), 0)::DOUBLE`,
    ttfb_avg: raw ? 'avg(ttfb_ms)::DOUBLE' : `(sum(ttfb_ms_sum) / nullif(sum(requests), 0))::DOUBLE`,
  };
}

/** Metrics measured on viewer sessions (player events). */
export const SESSION_METRICS = ['plays', 'attempts', 'viewers', 'watch_time', 'rebuffer_ratio', 'error_rate', 'startup_avg', 'startup_p95', 'ad_impressions', 'concurrent'] as const;
/** Metrics measured on the origin request log. */
export const EDGE_METRICS = ['bytes', 'gbps', 'requests', 'cache_hit_ratio', 'origin_bytes'] as const;
/** Every metric name the API accepts. */
export const METRICS = [...SESSION_METRICS, ...EDGE_METRICS] as const;
/** A metric name. */
export type Metric = (typeof METRICS)[number];

/** Parameters placeholder helper: binds `$secs` by inlining a number (never user text). */
export function withSecs(expr: string, secs: number): string {
  return expr.replaceAll('$secs', String(Math.max(1, secs)));
}

/** Parameter list type re-exported for callers. */
export type Params = StatsParam[];
