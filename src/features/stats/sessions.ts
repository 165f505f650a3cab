import type { StatsParam } from '../../kernel/stats';

/** Order of events that share a millisecond (so the playing state between them is defined). */
const RANK = `CASE e WHEN 'view_start' THEN 0 WHEN 'play_request' THEN 1 WHEN 'first_frame' THEN 2 WHEN 'pause' THEN 4 WHEN 'ended' THEN 5 WHEN 'error' THEN 6 ELSE 3 END`;

/**
 * SQL deriving one row per viewer session (tenant, `sid`) from every player event of the sessions `touched` lists
 * (a query of tenant_id, sid); formulas in docs/metrics.md. Watch time: the sum of gaps between
 * consecutive events while the last state-changing event was a play request (pause, ended and error stop the clock;
 * startup and rebuffering count, as at Mux). Descriptive fields (content, country, device, page) are those of the
 * session's first event.
 */
export function deriveSessionsSql(touched: string): string {
  return `WITH touched AS (${touched}),
  ev AS (
    SELECT p.*, coalesce(lead(p.ts) OVER w - p.ts, 0) AS dt,
      last_value(CASE WHEN p.e IN ('play_request', 'pause', 'ended', 'error') THEN p.e END IGNORE NULLS)
        OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS st
    FROM player_events p SEMI JOIN touched t ON p.tenant_id = t.tenant_id AND p.sid = t.sid
    WINDOW w AS (PARTITION BY p.tenant_id, p.sid ORDER BY p.ts, ${RANK})
  )
  SELECT tenant_id, sid, arg_min(viewer_id, ts) AS viewer_id, min(ts) AS started, max(ts) AS last_ts,
      arg_max(e, ts) AS last_e, arg_min(kind, ts) AS kind, arg_min(content_id, ts) AS content_id,
      arg_min(channel, ts) AS channel, bool_or(live) AS live, arg_min(page_host, ts) AS page_host,
      arg_min(country, ts) AS country, arg_min(device, ts) AS device, arg_max(pathway, ts) AS pathway,
      bool_or(e = 'play_request') AS attempted, bool_or(e = 'first_frame') AS played,
      min(startup_ms) FILTER (WHERE e = 'first_frame') AS startup_ms,
      count(*) FILTER (WHERE e = 'rebuffer_start') AS rebuffers,
      coalesce(sum(dur_ms) FILTER (WHERE e = 'rebuffer_end'), 0) AS rebuffer_ms,
      count(*) FILTER (WHERE e = 'error') AS errors,
      bool_or(e = 'ended') AS completed,
      count(*) FILTER (WHERE e IN ('ad_start', 'adstart', 'ad_impression')) AS ad_impressions,
      coalesce(sum(dt) FILTER (WHERE st = 'play_request'), 0) AS watch_ms,
      max(pos) AS max_pos, arg_max(level, ts) FILTER (WHERE level IS NOT NULL) AS last_level
    FROM ev GROUP BY tenant_id, sid`;
}

/** A CTE named `sessions`: the materialized viewer sessions matching `where` (see sessionWhere). */
export function sessionsSql(where: string): string {
  return `sessions AS (SELECT * FROM viewer_sessions WHERE ${where})`;
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

/** Aggregates over the session minute rollup `session_minute` (metrics it can answer exactly). */
export const ROLLUP_AGG: Record<string, string> = {
  attempts: `coalesce(sum(attempts), 0)::DOUBLE`,
  plays: `coalesce(sum(plays), 0)::DOUBLE`,
  watch_time: `(coalesce(sum(watch_ms), 0) / 1000.0)::DOUBLE`,
  rebuffer_ratio: `(sum(rebuffer_ms) / nullif(sum(watch_ms), 0))::DOUBLE`,
  error_rate: `(sum(error_attempts) / nullif(sum(attempts), 0))::DOUBLE`,
  startup_avg: `(sum(startup_sum) / nullif(sum(startup_n), 0))::DOUBLE`,
  ad_impressions: `coalesce(sum(ad_impressions), 0)::DOUBLE`,
  exits_before_start: `coalesce(sum(exits), 0)::DOUBLE`,
  completion_rate: `(sum(completed_plays) / nullif(sum(plays), 0))::DOUBLE`,
  rebuffer_count: `coalesce(sum(rebuffers), 0)::DOUBLE`,
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
