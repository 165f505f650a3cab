import type { AppContext } from '../../kernel/context';
import { AppError, invalid } from '../../kernel/errors';
import type { StatsParam } from '../../kernel/stats';
import { edgeUsesRollup, edgeWhere, eventWhere, minuteAligned, sessionWhere, type StatsQuery } from './query';
import { EDGE_METRICS, METRICS, ROLLUP_AGG, SESSION_AGG, edgeAgg, sessionsSql, withSecs, type Metric } from './sessions';
import { statsRuntime } from './runtime';
import { rollupRows, startupP95Sql, unfiltered, viewersSql } from './rollup-day';

/** Timeseries intervals: bucket length and the longest range each accepts. */
export const INTERVALS = { '1m': { ms: 60_000, maxMs: 2 * 86_400_000 }, '1h': { ms: 3_600_000, maxMs: 180 * 86_400_000 }, '1d': { ms: 86_400_000, maxMs: 731 * 86_400_000 } } as const;
/** A timeseries interval name. */
export type Interval = keyof typeof INTERVALS;
/** Dimensions `group_by` and `breakdown` accept. */
export const DIMENSIONS = ['country', 'device', 'channel', 'asset', 'clip', 'page_host', 'pathway', 'live'] as const;
/** A grouping dimension. */
export type Dimension = (typeof DIMENSIONS)[number];
export { REALTIME_WINDOW_MS } from './realtime';

const isEdge = (m: Metric) => (EDGE_METRICS as readonly string[]).includes(m);

/** Checks a metric name (422 naming the metrics otherwise). */
export function checkMetric(m: string, field = 'metric'): Metric {
  if (!(METRICS as readonly string[]).includes(m)) throw invalid(field, `unknown metric "${m}"; metrics: ${METRICS.join(', ')}`);
  return m as Metric;
}

/** The default interval of a range (1m up to 1 day, 1h up to 90 days, else 1d). */
export function defaultInterval(rangeMs: number): Interval {
  return rangeMs <= 86_400_000 ? '1m' : rangeMs <= 90 * 86_400_000 ? '1h' : '1d';
}

/** SQL column of a dimension over sessions or the origin log (null: the origin log does not know it). */
function dimSql(d: Dimension, edge: boolean): string | null {
  if (edge) {
    switch (d) {
      case 'country': case 'device': return `coalesce(${d}, '')`;
      case 'channel': return `CASE WHEN kind IN ('channel', 'catchup', 'startover') THEN split_part(target, '/', 1) END`;
      case 'asset': return `CASE WHEN kind = 'asset' THEN target END`;
      case 'clip': return `CASE WHEN kind = 'clip' THEN target END`;
      case 'live': return `(kind = 'channel')::VARCHAR`;
      default: return null;
    }
  }
  switch (d) {
    case 'channel': return `CASE WHEN kind IN ('live', 'channel', 'catchup', 'startover') THEN coalesce(channel, content_id) END`;
    case 'asset': return `CASE WHEN kind IN ('vod', 'asset') THEN content_id END`;
    case 'clip': return `CASE WHEN kind = 'clip' THEN content_id END`;
    case 'live': return 'live::VARCHAR';
    default: return d;
  }
}

/** Reads statistics for one tenant; every number is computed by DuckDB from the tables named in docs/metrics.md. */
export class StatsService {
  constructor(private ctx: AppContext) {}

  /** 403 feature_disabled when the analytics store is switched off. */
  assertEnabled(): void {
    if (!statsRuntime(this.ctx).settings.enabled) throw new AppError('feature_disabled', 'the analytics store is switched off in this deployment (config analytics.enabled)');
  }

  private async rows<T>(sql: string, params: StatsParam[]): Promise<T[]> {
    await statsRuntime(this.ctx).ready;
    return this.ctx.stats.all<T>(sql, params);
  }

  /** Values of metrics over the whole range (null for ratios without a denominator). */
  async totals(q: StatsQuery, metrics: readonly Metric[]): Promise<Record<string, number | null>> {
    const out: Record<string, number | null> = {};
    const sm = metrics.filter((m) => !isEdge(m)), em = metrics.filter(isEdge);
    // Session metrics: from the minute rollup when the range is on minutes, the rest from the materialized sessions.
    const rolled = minuteAligned(q) ? sm.filter((m) => ROLLUP_AGG[m]) : [];
    // Minute-aligned: whole days from the day rollups, the rest from the minute rollups (rollup-day.ts).
    if (rolled.length) {
      const src = rollupRows('session', q);
      const [r] = await this.rows<Record<string, number | null>>(`SELECT ${rolled.map((m) => `${ROLLUP_AGG[m]} AS ${m}`).join(', ')} FROM ${src.sql}`, src.params);
      for (const m of rolled) out[m] = r?.[m] ?? null;
    }
    // Without filters, distinct viewers and the startup p95 come from prev_started and the day histograms (exact).
    const plain = unfiltered(q);
    const direct = sm.filter((m) => !rolled.includes(m) && !(plain && (m === 'viewers' || m === 'startup_p95')));
    if (plain && sm.includes('viewers')) { const v = viewersSql(q); out.viewers = (await this.rows<{ v: number | null }>(v.sql, v.params))[0]?.v ?? 0; }
    if (plain && sm.includes('startup_p95')) { const p = startupP95Sql(q); out.startup_p95 = (await this.rows<{ v: number | null }>(p.sql, p.params))[0]?.v ?? null; }
    if (direct.length) {
      const w = sessionWhere(q);
      const cols = direct.map((m) => `${SESSION_AGG[m]} AS ${m}`).join(', ');
      const [r] = await this.rows<Record<string, number | null>>(`WITH ${sessionsSql(w.sql)} SELECT ${cols} FROM sessions`, w.params);
      for (const m of direct) out[m] = r?.[m] ?? null;
    }
    if (em.length) {
      const raw = !edgeUsesRollup(q);
      const w = raw ? edgeWhere(q, 'ts') : rollupRows('edge', q);
      const agg = edgeAgg(raw);
      const cols = em.map((m) => `${withSecs(agg[m], (q.to - q.from) / 1000)} AS ${m}`).join(', ');
      const [r] = await this.rows<Record<string, number | null>>(raw ? `SELECT ${cols} FROM edge_requests WHERE ${w.sql}` : `SELECT ${cols} FROM ${w.sql}`, w.params);
      for (const m of em) out[m] = r?.[m] ?? null;
    }
    for (const m of metrics) if (out[m] === null && !/ratio|rate|avg|p95/.test(m)) out[m] = 0;
    return out;
  }

  /** Headline numbers for the range and the same-length period just before it, with the relative change. */
  async overview(q: StatsQuery) {
    const metrics = METRICS.filter((m) => m !== 'concurrent');
    const len = q.to - q.from;
    const [cur, prev] = await Promise.all([this.totals(q, metrics), this.totals({ ...q, from: q.from - len, to: q.from }, metrics)]);
    const change: Record<string, number | null> = {};
    for (const m of metrics) { const a = cur[m], b = prev[m]; change[m] = a === null || b === null || b === 0 ? null : (a - b) / b; }
    return { from: new Date(q.from).toISOString(), to: new Date(q.to).toISOString(), previous: { from: new Date(q.from - len).toISOString(), to: new Date(q.from).toISOString() }, current: cur, previous_values: prev, change };
  }

  /** One metric in buckets of `interval` (bucket start aligned to the interval, UTC), optionally one series per group (top 10). */
  async timeseries(q: StatsQuery, metric: Metric, interval: Interval, groupBy: Dimension | null) {
    const step = INTERVALS[interval].ms;
    const from = Math.floor(q.from / step) * step, to = Math.ceil(q.to / step) * step;
    const aq = { ...q, from, to };
    const edge = isEdge(metric);
    const g = groupBy ? dimSql(groupBy, edge) : null;
    if (groupBy && !g) throw invalid('group_by', `"${groupBy}" does not apply to ${metric} (origin log metric); use country, device, channel, asset, clip or live`);
    const key = g ? `${g}` : `''`;
    let sql: string, params: StatsParam[];
    if (edge) {
      const raw = !edgeUsesRollup(aq);
      const w = edgeWhere(aq, raw ? 'ts' : 'minute');
      sql = `SELECT (${raw ? 'ts' : 'minute'} // ${step} * ${step})::DOUBLE AS b, ${key} AS k, ${withSecs(edgeAgg(raw)[metric], step / 1000)} AS v FROM ${raw ? 'edge_requests' : 'edge_minute'} WHERE ${w.sql} GROUP BY ALL`;
      params = w.params;
    } else {
      const rollup = metric !== 'concurrent' && ROLLUP_AGG[metric] !== undefined;
      const w = metric === 'concurrent' ? eventWhere(aq) : rollup ? eventWhere(aq, 'minute') : sessionWhere(aq);
      if (rollup) {
        sql = `SELECT (minute // ${step} * ${step})::DOUBLE AS b, ${key} AS k, ${ROLLUP_AGG[metric]} AS v FROM session_minute WHERE ${w.sql} GROUP BY ALL`;
      } else if (metric === 'concurrent') {
        sql = `SELECT (ts // ${step} * ${step})::DOUBLE AS b, ${g ? `${g}` : `''`} AS k, count(DISTINCT sid)::DOUBLE AS v FROM player_events WHERE ${w.sql} GROUP BY ALL`;
      } else {
        sql = `WITH ${sessionsSql(w.sql)} SELECT (started // ${step} * ${step})::DOUBLE AS b, ${key} AS k, ${SESSION_AGG[metric]} AS v FROM sessions GROUP BY ALL`;
      }
      params = w.params;
    }
    const rows = await this.rows<{ b: number; k: string | null; v: number | null }>(sql, params);
    const empty = /ratio|rate|avg|p95/.test(metric) ? null : 0;
    const byKey = new Map<string, Map<number, number | null>>();
    for (const r of rows) {
      const k = r.k === null ? '' : String(r.k);
      if (!byKey.has(k)) byKey.set(k, new Map());
      byKey.get(k)!.set(r.b, r.v);
    }
    const points = (m: Map<number, number | null> | undefined) => {
      const out: { t: string; value: number | null }[] = [];
      for (let b = from; b < to; b += step) out.push({ t: new Date(b).toISOString(), value: m?.get(b) ?? empty });
      return out;
    };
    const base = { metric, interval, from: new Date(from).toISOString(), to: new Date(to).toISOString() };
    if (!groupBy) return { ...base, group_by: null, points: points(byKey.get('')), series: [] };
    const total = (m: Map<number, number | null>) => [...m.values()].reduce<number>((a, v) => a + (v ?? 0), 0);
    const keys = [...byKey.entries()].sort((a, b) => total(b[1]) - total(a[1])).slice(0, 10);
    return { ...base, group_by: groupBy, points: [], series: keys.map(([k, m]) => ({ key: k, points: points(m) })) };
  }

  /** The `limit` assets, clips or channels with the highest `metric` over the range. */
  async top(q: StatsQuery, entity: 'assets' | 'clips' | 'channels', metric: Metric, limit: number) {
    const dim: Dimension = entity === 'assets' ? 'asset' : entity === 'clips' ? 'clip' : 'channel';
    const edge = isEdge(metric);
    const g = dimSql(dim, edge)!;
    let sql: string, params: StatsParam[];
    if (edge) {
      const raw = !edgeUsesRollup(q);
      const w = edgeWhere(q, raw ? 'ts' : 'minute');
      sql = `SELECT ${g} AS id, ${withSecs(edgeAgg(raw)[metric], (q.to - q.from) / 1000)} AS v FROM ${raw ? 'edge_requests' : 'edge_minute'} WHERE ${w.sql} GROUP BY ALL`;
      params = w.params;
    } else if (minuteAligned(q) && ROLLUP_AGG[metric]) {
      const w = eventWhere(q, 'minute');
      sql = `SELECT ${g} AS id, ${ROLLUP_AGG[metric]} AS v FROM session_minute WHERE ${w.sql} GROUP BY ALL`;
      params = w.params;
    } else {
      const w = sessionWhere(q);
      sql = `WITH ${sessionsSql(w.sql)} SELECT ${g} AS id, ${SESSION_AGG[metric]} AS v FROM sessions GROUP BY ALL`;
      params = w.params;
    }
    const rows = await this.rows<{ id: string | null; v: number | null }>(`SELECT * FROM (${sql}) WHERE id IS NOT NULL ORDER BY v DESC NULLS LAST, id LIMIT ${limit}`, params);
    return { entity, metric, items: rows.map((r) => ({ id: r.id!, value: r.v })) };
  }

  /** Concurrent viewers now, from the in-memory tracker (see realtime.ts; equal to REALTIME_SQL over the events). */
  async realtime(tenantId: string, now: number) {
    const rt = statsRuntime(this.ctx);
    await rt.realtimeReady;
    return rt.realtime.answer(tenantId, now);
  }

  /** Session metrics by one dimension (top 50 values by plays). */
  async breakdown(q: StatsQuery, by: Dimension) {
    const w = sessionWhere(q);
    const ms = ['attempts', 'plays', 'viewers', 'watch_time', 'rebuffer_ratio', 'error_rate', 'startup_avg'] as const;
    const rows = await this.rows<Record<string, unknown>>(`WITH ${sessionsSql(w.sql)} SELECT ${dimSql(by, false)} AS key, ${ms.map((m) => `${SESSION_AGG[m]} AS ${m}`).join(', ')} FROM sessions GROUP BY ALL ORDER BY plays DESC, key LIMIT 50`, w.params);
    return { by, items: rows.map((r) => ({ ...r, key: r.key === null ? null : String(r.key) })) };
  }

  /** Quality of experience: startup (average, p95), rebuffering, errors, exits before start. */
  async qoe(q: StatsQuery) {
    const t = await this.totals(q, ['attempts', 'plays', 'startup_avg', 'startup_p95', 'rebuffer_ratio', 'error_rate']);
    const w = sessionWhere(q);
    const [r] = await this.rows<Record<string, number | null>>(`WITH ${sessionsSql(w.sql)} SELECT ${SESSION_AGG.exits_before_start} AS exits_before_start, ${SESSION_AGG.rebuffer_count} AS rebuffer_count FROM sessions`, w.params);
    return { ...t, exits_before_start: r?.exits_before_start ?? 0, rebuffer_count: r?.rebuffer_count ?? 0 };
  }

  /** Completion per content: plays and completed plays (an `ended` event) and their ratio. */
  async completion(q: StatsQuery, limit = 50) {
    const w = sessionWhere(q);
    const rows = await this.rows<Record<string, unknown>>(
      `WITH ${sessionsSql(w.sql)} SELECT kind, coalesce(channel, content_id) AS id, count(*) FILTER (WHERE played)::DOUBLE AS plays,
        count(*) FILTER (WHERE played AND completed)::DOUBLE AS completed, ${SESSION_AGG.completion_rate} AS completion_rate
       FROM sessions GROUP BY ALL ORDER BY plays DESC, id LIMIT ${limit}`, w.params);
    const [all] = await this.rows<{ completion_rate: number | null }>(`WITH ${sessionsSql(w.sql)} SELECT ${SESSION_AGG.completion_rate} AS completion_rate FROM sessions`, w.params);
    return { completion_rate: all?.completion_rate ?? null, items: rows };
  }
}
