import type { StatsParam, StatsStore } from '../../kernel/stats';
import { edgeWhere, eventWhere, type StatsQuery } from './query';

/** One UTC day in milliseconds. */
export const DAY_MS = 86_400_000;
const DAY = `// ${DAY_MS} * ${DAY_MS}`;

/** Measure columns of the session rollups (minute and day): additive, so a range's rows may come from both. */
export const SESSION_MEASURES = ['sessions', 'attempts', 'plays', 'watch_ms', 'rebuffer_ms', 'rebuffers', 'error_attempts', 'exits', 'completed_plays', 'startup_sum', 'startup_n', 'ad_impressions'] as const;
const SESSION_DIMS = ['kind', 'content_id', 'channel', 'live', 'page_host', 'country', 'device', 'pathway'];
/** Measure columns of the origin rollups (minute and day). */
export const EDGE_MEASURES = ['requests', 'errors', 'bytes', 'memory_requests', 'memory_bytes', 'ttfb_ms_sum'] as const;
const EDGE_DIMS = ['kind', 'target', 'country', 'device'];

/**
 * Day rollups: `session_day` and `edge_day` (the minute rollups' columns per UTC day), `startup_day` (startup time
 * histogram of played sessions per day: value → sessions, for an exact p95 without the sessions) and
 * `viewer_sessions.prev_started` (start of the same viewer's previous session: distinct viewers of a range are the
 * sessions in it whose viewer had no session since the range's start — a count, no hash of every viewer id).
 */
export const DAY_DDL = [
  `CREATE TABLE IF NOT EXISTS session_day AS SELECT tenant_id, minute AS day, * EXCLUDE (tenant_id, minute) FROM session_minute LIMIT 0`,
  `CREATE TABLE IF NOT EXISTS edge_day AS SELECT tenant_id, minute AS day, * EXCLUDE (tenant_id, minute) FROM edge_minute LIMIT 0`,
  `CREATE TABLE IF NOT EXISTS edge_day_compact AS SELECT * FROM edge_day LIMIT 0`,
  `CREATE TABLE IF NOT EXISTS startup_day (tenant_id VARCHAR NOT NULL, day BIGINT NOT NULL, startup_ms DOUBLE NOT NULL, n BIGINT NOT NULL)`,
  `ALTER TABLE viewer_sessions ADD COLUMN IF NOT EXISTS prev_started BIGINT`,
  `CREATE TABLE IF NOT EXISTS sess_viewers (tenant_id VARCHAR, viewer_id VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS stats_meta (key VARCHAR PRIMARY KEY, value BIGINT NOT NULL)`,
];

const sums = (cols: readonly string[]) => cols.map((c) => `sum(${c}) AS ${c}`).join(', ');
const daysOf = `(SELECT DISTINCT tenant_id, minute ${DAY} AS day FROM sess_minutes)`;

/** `prev_started` of every session of the viewers in `sess_viewers` (after their sessions changed). */
const PREV_UPDATE = `UPDATE viewer_sessions v SET prev_started = x.prev FROM (
    SELECT tenant_id, sid, lag(started) OVER (PARTITION BY tenant_id, viewer_id ORDER BY started, sid) AS prev
    FROM viewer_sessions SEMI JOIN (SELECT DISTINCT * FROM sess_viewers) t USING (tenant_id, viewer_id)) x
  WHERE v.tenant_id = x.tenant_id AND v.sid = x.sid AND v.prev_started IS DISTINCT FROM x.prev`;

/**
 * Statements of a sessionizer pass after `session_minute` was rebuilt for the minutes in `sess_minutes` and the
 * touched viewers were collected in `sess_viewers`: the viewers' `prev_started`, then the days of those minutes
 * rebuilt in `session_day` and `startup_day` (same transaction).
 */
export const DAY_PASS = [
  { sql: PREV_UPDATE },
  { sql: `DELETE FROM session_day r USING ${daysOf} d WHERE r.tenant_id = d.tenant_id AND r.day = d.day` },
  { sql: `INSERT INTO session_day SELECT tenant_id, minute ${DAY}, ${SESSION_DIMS.join(', ')}, ${sums(SESSION_MEASURES)}
      FROM session_minute SEMI JOIN ${daysOf} d ON session_minute.tenant_id = d.tenant_id AND session_minute.minute ${DAY} = d.day GROUP BY ALL` },
  { sql: `DELETE FROM startup_day r USING ${daysOf} d WHERE r.tenant_id = d.tenant_id AND r.day = d.day` },
  { sql: `INSERT INTO startup_day SELECT tenant_id, started ${DAY}, startup_ms, count(*) FROM viewer_sessions
      SEMI JOIN ${daysOf} d ON viewer_sessions.tenant_id = d.tenant_id AND viewer_sessions.started ${DAY} = d.day
      WHERE played AND startup_ms IS NOT NULL GROUP BY ALL` },
];

/** The origin flush's day sums (appended like the minute's; `edge_day` is compacted by `compactEdgeDays`). */
export const EDGE_DAY_APPEND = `INSERT INTO edge_day SELECT tenant_id, ts ${DAY}, coalesce(kind, ''), coalesce(target, ''), coalesce(country, ''), coalesce(device, ''),
    count(*), count(*) FILTER (WHERE status >= 400), coalesce(sum(bytes), 0), count(*) FILTER (WHERE source = 'memory'),
    coalesce(sum(bytes) FILTER (WHERE source = 'memory'), 0), coalesce(sum(ttfb_ms), 0)
  FROM edge_stage GROUP BY ALL`;

/** Folds the per-flush rows of `edge_day` from `sinceDay` on into one row per key (same sums; one transaction). */
export function compactEdgeDays(stats: StatsStore, sinceDay: number): Promise<void> {
  return stats.transaction([
    { sql: 'DELETE FROM edge_day_compact' },
    { sql: `INSERT INTO edge_day_compact SELECT tenant_id, day, ${EDGE_DIMS.join(', ')}, ${sums(EDGE_MEASURES)} FROM edge_day WHERE day >= ? GROUP BY ALL`, params: [sinceDay] },
    { sql: 'DELETE FROM edge_day WHERE day >= ?', params: [sinceDay] },
    { sql: 'INSERT INTO edge_day SELECT * FROM edge_day_compact ORDER BY day' },
    { sql: 'DELETE FROM edge_day_compact' },
  ]);
}

/**
 * Creates the day rollups and, once (a store written before they existed, or the benchmark's generator), builds them
 * from the minute rollups and the sessions.
 */
export async function ensureDayRollups(stats: StatsStore): Promise<void> {
  for (const sql of DAY_DDL) await stats.run(sql);
  const [m] = await stats.all<{ v: number | null }>(`SELECT max(value)::DOUBLE AS v FROM stats_meta WHERE key = 'day_rollups'`);
  if (m?.v === 1) return;
  await rebuildDayRollups(stats);
}

/** Builds every day rollup and `prev_started` from scratch (one transaction). */
export function rebuildDayRollups(stats: StatsStore): Promise<void> {
  return stats.transaction([
    { sql: 'DELETE FROM session_day' },
    { sql: `INSERT INTO session_day SELECT tenant_id, minute ${DAY} AS d, ${SESSION_DIMS.join(', ')}, ${sums(SESSION_MEASURES)} FROM session_minute GROUP BY ALL ORDER BY d` },
    { sql: 'DELETE FROM edge_day' },
    { sql: `INSERT INTO edge_day SELECT tenant_id, minute ${DAY} AS d, ${EDGE_DIMS.join(', ')}, ${sums(EDGE_MEASURES)} FROM edge_minute GROUP BY ALL ORDER BY d` },
    { sql: 'DELETE FROM startup_day' },
    { sql: `INSERT INTO startup_day SELECT tenant_id, started ${DAY} AS d, startup_ms, count(*) FROM viewer_sessions WHERE played AND startup_ms IS NOT NULL GROUP BY ALL ORDER BY d` },
    { sql: `UPDATE viewer_sessions v SET prev_started = x.prev FROM (
        SELECT tenant_id, sid, lag(started) OVER (PARTITION BY tenant_id, viewer_id ORDER BY started, sid) AS prev FROM viewer_sessions WHERE viewer_id IS NOT NULL) x
      WHERE v.tenant_id = x.tenant_id AND v.sid = x.sid AND v.prev_started IS DISTINCT FROM x.prev` },
    { sql: `INSERT INTO stats_meta VALUES ('day_rollups', 1) ON CONFLICT DO UPDATE SET value = excluded.value` },
  ]);
}

/** Whole UTC days inside a minute-aligned range: [a, b) (a >= b when none). */
function wholeDays(q: StatsQuery): { a: number; b: number } {
  return { a: Math.ceil(q.from / DAY_MS) * DAY_MS, b: Math.floor(q.to / DAY_MS) * DAY_MS };
}

/**
 * Rows of a minute-aligned range from the day rollup for its whole days and the minute rollup for the rest
 * (a FROM-able subquery with the measure and dimension columns; the filters apply in each part).
 */
export function rollupRows(kind: 'session' | 'edge', q: StatsQuery): { sql: string; params: StatsParam[] } {
  const cols = (kind === 'session' ? [...SESSION_DIMS, ...SESSION_MEASURES] : [...EDGE_DIMS, ...EDGE_MEASURES]).join(', ');
  const [minuteT, dayT] = kind === 'session' ? ['session_minute', 'session_day'] : ['edge_minute', 'edge_day'];
  const where = (from: number, to: number, col: 'minute' | 'day') => (kind === 'session' ? eventWhere({ ...q, from, to }, col) : edgeWhere({ ...q, from, to }, col));
  const { a, b } = wholeDays(q);
  const parts: { sql: string; params: StatsParam[] }[] = [];
  const add = (table: string, w: { sql: string; params: StatsParam[] }) => parts.push({ sql: `SELECT ${cols} FROM ${table} WHERE ${w.sql}`, params: w.params });
  if (a < b) {
    add(dayT, where(a, b, 'day'));
    if (q.from < a) add(minuteT, where(q.from, a, 'minute'));
    if (b < q.to) add(minuteT, where(b, q.to, 'minute'));
  } else add(minuteT, where(q.from, q.to, 'minute'));
  return { sql: `(${parts.map((p) => p.sql).join(' UNION ALL ')})`, params: parts.flatMap((p) => p.params) };
}

/** Distinct viewers of a range without filters: sessions in it whose viewer had no earlier session since the range's start. */
export function viewersSql(q: StatsQuery): { sql: string; params: StatsParam[] } {
  return {
    sql: `SELECT count(*) FILTER (WHERE viewer_id IS NOT NULL AND (prev_started IS NULL OR prev_started < ?))::DOUBLE AS v FROM viewer_sessions WHERE tenant_id = ? AND started >= ? AND started < ?`,
    params: [q.from, q.tenantId, q.from, q.to],
  };
}

/**
 * Exact startup p95 (as quantile_cont: position (n − 1) · 0.95, linear between the two neighbouring values) of a
 * minute-aligned range without filters, from the day histograms of its whole days and the sessions of the rest.
 */
export function startupP95Sql(q: StatsQuery): { sql: string; params: StatsParam[] } {
  const { a, b } = wholeDays(q);
  const parts: string[] = [], params: StatsParam[] = [];
  const sess = (from: number, to: number) => { parts.push(`SELECT startup_ms AS v, 1 AS n FROM viewer_sessions WHERE tenant_id = ? AND started >= ? AND started < ? AND played AND startup_ms IS NOT NULL`); params.push(q.tenantId, from, to); };
  if (a < b) {
    parts.push(`SELECT startup_ms AS v, n FROM startup_day WHERE tenant_id = ? AND day >= ? AND day < ?`); params.push(q.tenantId, a, b);
    if (q.from < a) sess(q.from, a);
    if (b < q.to) sess(b, q.to);
  } else sess(q.from, q.to);
  return {
    sql: `WITH h AS (SELECT v, sum(n) AS n FROM (${parts.join(' UNION ALL ')}) GROUP BY v),
      c AS (SELECT v, sum(n) OVER (ORDER BY v ROWS UNBOUNDED PRECEDING) AS upto FROM h),
      p AS (SELECT (sum(n) - 1) * 0.95 AS pos FROM h HAVING sum(n) > 0),
      lo AS (SELECT min(v) AS v FROM c, p WHERE upto > floor(pos)),
      hi AS (SELECT min(v) AS v FROM c, p WHERE upto > ceil(pos))
      SELECT (lo.v + (hi.v - lo.v) * (p.pos - floor(p.pos)))::DOUBLE AS v FROM lo, hi, p`,
    params,
  };
}

/** True when a query has no filter (the day histograms and `prev_started` answer it). */
export function unfiltered(q: StatsQuery): boolean {
  return Object.values(q.filters).every((v) => v === undefined);
}
