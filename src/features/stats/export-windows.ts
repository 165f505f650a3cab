import type { AppContext } from '../../kernel/context';
import type { StatsParam } from '../../kernel/stats';
import { edgeWhere, eventWhere, sessionWhere, type StatsQuery } from './query';
import { statsRuntime } from './runtime';

const HOUR = 3_600_000;
/** Rows per window of a streamed export: each window is sorted on its own, so no sort spans the whole range. */
export const EXPORT_WINDOW_ROWS = 100_000;

/** A slice [from, to) of an export's range, read with its own ORDER BY (and the rows left to the limit on the last). */
export interface ExportWindow { from: number; to: number; limit: number }
/** How an export is read: the rows the range holds and the windows that give its first `maxRows` in time order. */
export interface ExportPlan { total: number; windows: ExportWindow[] }

/** Rows per hour of a report's time column over the range (null: the report is an aggregate, read in one go). */
function hourCounts(report: string, q: StatsQuery): { sql: string; params: StatsParam[] } | null {
  const by = (col: string, table: string, w: { sql: string; params: StatsParam[] }, extra = '') =>
    ({ sql: `SELECT (${col} // ${HOUR} * ${HOUR})::DOUBLE AS h, count(*)::DOUBLE AS n FROM ${table} WHERE ${w.sql}${extra} GROUP BY 1 ORDER BY 1`, params: w.params });
  switch (report) {
    case 'edge_requests': return by('ts', 'edge_requests', edgeWhere(q, 'ts'));
    case 'player_events': return by('ts', 'player_events', eventWhere(q));
    case 'site_events': return by('ts', 'player_events', eventWhere(q), ' AND page_host IS NOT NULL');
    case 'sessions': return by('started', 'viewer_sessions', sessionWhere(q));
    default: return null;
  }
}

/**
 * Plans a streamed export from the rows per hour (one scan of the time and filter columns): the total for
 * X-Export-Total-Rows and consecutive windows of about EXPORT_WINDOW_ROWS rows (whole hours) up to `maxRows`.
 * Reading window by window keeps the rows in time order while DuckDB sorts ~100k rows at a time (the top-N of a
 * million rows over the whole range was what made large exports crawl). Null for aggregate reports.
 */
export async function exportPlan(ctx: AppContext, report: string, q: StatsQuery, maxRows: number, windowRows = EXPORT_WINDOW_ROWS): Promise<ExportPlan | null> {
  const c = hourCounts(report, q);
  if (!c) return null;
  await statsRuntime(ctx).ready;
  const hours = await ctx.stats.all<{ h: number; n: number }>(c.sql, c.params);
  const windows: ExportWindow[] = [];
  let start = q.from, acc = 0, taken = 0, total = 0;
  for (const { h, n } of hours) {
    total += n;
    if (taken >= maxRows) continue;
    acc += n;
    const end = Math.min(q.to, h + HOUR);
    if (taken + acc >= maxRows) { windows.push({ from: start, to: end, limit: maxRows - taken }); taken = maxRows; continue; }
    if (acc >= windowRows) { windows.push({ from: start, to: end, limit: acc }); taken += acc; acc = 0; start = end; }
  }
  if (taken < maxRows && acc > 0) windows.push({ from: start, to: q.to, limit: maxRows - taken });
  return { total, windows };
}
