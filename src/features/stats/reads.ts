import type { AppContext } from '../../kernel/context';
import type { StatsParam } from '../../kernel/stats';
import { edgeUsesRollup, edgeWhere, eventWhere, sessionWhere, type StatsQuery } from './query';
import { SESSION_AGG, edgeAgg, sessionsSql, withSecs } from './sessions';
import { statsRuntime } from './runtime';
import { liveProgrammes } from './live-programmes';
import { cdnDistributionUsage } from './cdn-usage';

/** The further reads (traffic, cdn, sessions, ads, sites, programmes); formulas in docs/metrics.md. */
export class StatsReads {
  constructor(private ctx: AppContext) {}

  private async rows<T>(sql: string, params: StatsParam[]): Promise<T[]> {
    await statsRuntime(this.ctx).ready;
    return this.ctx.stats.all<T>(sql, params);
  }

  /** Origin traffic: requests, bytes, Gbit/s over the range, by target kind. */
  async traffic(q: StatsQuery) {
    const raw = !edgeUsesRollup(q);
    const w = edgeWhere(q, raw ? 'ts' : 'minute');
    const a = edgeAgg(raw), secs = (q.to - q.from) / 1000;
    const cols = `${a.requests} AS requests, ${a.bytes} AS bytes, ${withSecs(a.gbps, secs)} AS gbps, ${a.origin_bytes} AS origin_bytes`;
    const table = raw ? 'edge_requests' : 'edge_minute';
    const [tot] = await this.rows<Record<string, number>>(`SELECT ${cols} FROM ${table} WHERE ${w.sql}`, w.params);
    const kinds = await this.rows<Record<string, unknown>>(`SELECT kind, ${cols} FROM ${table} WHERE ${w.sql} GROUP BY ALL ORDER BY bytes DESC`, w.params);
    return { ...tot, by_kind: kinds };
  }

  /**
   * Origin behaviour: memory vs disk (cache hit ratio), TTFB average and p95, answers by status class (raw log); and
   * `distributions`: the CDN distributions' edge usage (requests, bytes, hits, misses, cache_hit_ratio; cdn-usage.ts).
   */
  async cdn(q: StatsQuery) {
    const w = edgeWhere(q, 'ts');
    const [r] = await this.rows<Record<string, number | null>>(
      `SELECT count(*)::DOUBLE AS requests, (count(*) FILTER (WHERE source = 'memory') / nullif(count(*), 0))::DOUBLE AS cache_hit_ratio,
        avg(ttfb_ms)::DOUBLE AS ttfb_avg_ms, quantile_cont(ttfb_ms, 0.95)::DOUBLE AS ttfb_p95_ms,
        coalesce(sum(bytes) FILTER (WHERE source = 'memory'), 0)::DOUBLE AS memory_bytes, coalesce(sum(bytes) FILTER (WHERE source = 'disk'), 0)::DOUBLE AS disk_bytes
       FROM edge_requests WHERE ${w.sql}`, w.params);
    const st = await this.rows<{ class: string; n: number }>(`SELECT (status // 100)::VARCHAR || 'xx' AS class, count(*)::DOUBLE AS n FROM edge_requests WHERE ${w.sql} GROUP BY ALL ORDER BY class`, w.params);
    return { ...r, statuses: Object.fromEntries(st.map((s) => [s.class, s.n])), distributions: await cdnDistributionUsage(this.ctx, q) };
  }

  /** Viewer sessions, newest first (viewer ids and hashed IPs only for `pii`), joined with their origin bytes and TTFB. */
  async sessions(q: StatsQuery, limit: number, pii: boolean) {
    const w = sessionWhere(q);
    const rows = await this.rows<Record<string, unknown>>(
      `WITH ${sessionsSql(w.sql)}, origin AS (
         SELECT sid, coalesce(sum(bytes), 0)::DOUBLE AS origin_bytes, avg(ttfb_ms)::DOUBLE AS origin_ttfb_ms, count(*) FILTER (WHERE status >= 400)::DOUBLE AS origin_errors
         FROM edge_requests WHERE tenant_id = ? AND ts >= ? AND ts < ? AND sid IS NOT NULL GROUP BY sid)
       SELECT s.sid, s.viewer_id, s.kind, s.content_id, s.channel, s.page_host, s.country, s.device, s.pathway,
         s.started::DOUBLE AS started, s.last_ts::DOUBLE AS last_ts, s.attempted, s.played, s.startup_ms::DOUBLE AS startup_ms,
         (s.watch_ms / 1000.0)::DOUBLE AS watch_time_s, s.rebuffers::DOUBLE AS rebuffers, s.rebuffer_ms::DOUBLE AS rebuffer_ms,
         s.errors::DOUBLE AS errors, s.completed, (s.attempted AND NOT s.played AND s.errors = 0) AS exit_before_start, s.last_level AS quality,
         coalesce(o.origin_bytes, 0) AS origin_bytes, o.origin_ttfb_ms, coalesce(o.origin_errors, 0) AS origin_errors
       FROM sessions s LEFT JOIN origin o USING (sid) ORDER BY s.started DESC, s.sid LIMIT ${limit}`,
      [...w.params, q.tenantId, q.from, q.to]);
    return {
      items: rows.map((r) => ({
        ...r, viewer_id: pii ? r.viewer_id : undefined,
        started: new Date(Number(r.started)).toISOString(), last_event: new Date(Number(r.last_ts)).toISOString(), last_ts: undefined,
      })),
    };
  }

  /** Ad impressions per content (beacon `ad_start` events). */
  async ads(q: StatsQuery) {
    const w = sessionWhere(q);
    const rows = await this.rows<Record<string, unknown>>(`WITH ${sessionsSql(w.sql)} SELECT kind, coalesce(channel, content_id) AS id, ${SESSION_AGG.ad_impressions} AS ad_impressions, ${SESSION_AGG.plays} AS plays FROM sessions GROUP BY ALL HAVING sum(ad_impressions) > 0 ORDER BY ad_impressions DESC LIMIT 50`, w.params);
    const [t] = await this.rows<{ ad_impressions: number | null }>(`WITH ${sessionsSql(w.sql)} SELECT ${SESSION_AGG.ad_impressions} AS ad_impressions FROM sessions`, w.params);
    return { ad_impressions: t?.ad_impressions ?? 0, items: rows };
  }

  /** Audience per embedding site (page host). */
  async sites(q: StatsQuery) {
    const w = sessionWhere(q);
    const rows = await this.rows<Record<string, unknown>>(`WITH ${sessionsSql(w.sql)} SELECT page_host, ${SESSION_AGG.plays} AS plays, ${SESSION_AGG.viewers} AS viewers, ${SESSION_AGG.watch_time} AS watch_time FROM sessions GROUP BY ALL ORDER BY plays DESC, page_host LIMIT 100`, w.params);
    return { items: rows };
  }

  /**
   * Audience per programme: live (sessions joined with the guide programme in effect, see live-programmes.ts) first,
   * then catch-up and start-over per programme or window from the origin log (distinct sessions, bytes).
   */
  async programmes(q: StatsQuery) {
    const w = edgeWhere(q, 'ts');
    const live = q.filters.live === false ? [] : await liveProgrammes(this.ctx, q, (sql, params) => this.rows(sql, params));
    if (q.filters.live === true) return { items: live };
    const rows = await this.rows<Record<string, unknown>>(
      `SELECT kind, split_part(target, '/', 1) AS channel, CASE WHEN kind = 'startover' THEN split_part(target, '/', 2) END AS programme,
         count(DISTINCT coalesce(sid, ip_hash))::DOUBLE AS viewers, coalesce(sum(bytes), 0)::DOUBLE AS bytes, count(*)::DOUBLE AS requests
       FROM edge_requests WHERE ${w.sql} AND kind IN ('startover', 'catchup') GROUP BY ALL ORDER BY viewers DESC LIMIT 100`, w.params);
    return { items: [...live, ...rows] };
  }
}
