/**
 * Billing usage from the statistics store (DuckDB): minutes delivered (viewers' watch time, from the session rollup)
 * and bytes delivered (the origin/edge request log's rollup), each put in the tier of the content it was for.
 */
import type { AppContext } from '../../kernel/context';
import { statsRuntime } from '../stats/runtime';
import type { Month } from './months';
import { addTo, emptyByTier, type ByTier, type Tier } from './tiers';

/** Minutes and bytes delivered in a month. */
export interface Delivered { minutes: ByTier; bytes: ByTier }

/** The content id a delivery record names: a start-over target is `channel/programme`, billed as its channel. */
function contentOf(id: string | null): string {
  return (id ?? '').split('/')[0]!;
}

/**
 * Delivered usage in [m.from, min(m.to, until)): watch time of viewer sessions started in the month (studio previews
 * are never audience, so never billed) and bytes of every delivery answer, by the content's tier (`tiers`).
 */
export async function delivered(ctx: AppContext, tenantId: string, m: Month, until: number, tiers: Map<string, Tier>): Promise<Delivered> {
  const minutes = emptyByTier(), bytes = emptyByTier();
  const rt = statsRuntime(ctx);
  if (!rt.settings.enabled) return { minutes, bytes };
  await rt.ready;
  const end = Math.min(m.to, until);
  const watch = await ctx.stats.all<{ content_id: string | null; watch_ms: number }>(
    `SELECT content_id, coalesce(sum(watch_ms), 0)::DOUBLE AS watch_ms FROM session_minute
      WHERE tenant_id = ? AND minute >= ? AND minute < ? GROUP BY content_id`, [tenantId, m.from, end]);
  for (const w of watch) addTo(minutes, tiers.get(contentOf(w.content_id)) ?? 'unknown', w.watch_ms / 60_000);
  const sent = await ctx.stats.all<{ target: string | null; bytes: number }>(
    `SELECT target, coalesce(sum(bytes), 0)::DOUBLE AS bytes FROM edge_minute
      WHERE tenant_id = ? AND minute >= ? AND minute < ? GROUP BY target`, [tenantId, m.from, end]);
  for (const s of sent) addTo(bytes, tiers.get(contentOf(s.target)) ?? 'unknown', s.bytes);
  return { minutes, bytes };
}
