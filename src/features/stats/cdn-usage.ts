import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';
import type { StatsParam } from '../../kernel/stats';
import { IngestQueue } from './queue';
import { statsRuntime } from './runtime';
import type { StatsQuery } from './query';

/** One answer of a CDN distribution, from the edge's usage log (`vs_cdn`). */
export interface CdnHit { ts: number; tenantId: string; distributionId: string; method: string; status: number; bytes: number; cache: string }

/** Cache statuses that count as served from the edge's cache (nginx's `$upstream_cache_status`). */
export const CDN_HIT_STATUSES = ['HIT', 'STALE', 'UPDATING', 'REVALIDATED'];

const DDL = `CREATE TABLE IF NOT EXISTS cdn_requests (
  ts BIGINT NOT NULL, tenant_id VARCHAR NOT NULL, distribution_id VARCHAR NOT NULL, method VARCHAR, status SMALLINT, bytes BIGINT, cache_status VARCHAR)`;

interface CdnUsage { queue: IngestQueue<CdnHit>; ready: Promise<void>; enabled: boolean }
const USAGE = slotKey<CdnUsage>('stats.cdn-usage');

/** The distributions' usage pipeline: a queue written to `cdn_requests` in batches (retention as the origin log). */
function usageOf(ctx: AppContext): CdnUsage {
  return ctx.slots.get(USAGE, () => {
    const rt = statsRuntime(ctx);
    const s = rt.settings;
    const ready = s.enabled ? rt.ready.then(() => ctx.stats.run(DDL)) : Promise.resolve();
    const onError = (e: unknown) => ctx.log.error('cdn usage batch not written', { error: String(e) });
    ready.catch(onError);
    const queue = new IngestQueue<CdnHit>(async (rows) => {
      await ready;
      await ctx.stats.append('cdn_requests', rows.map((r): StatsParam[] => [r.ts, r.tenantId, r.distributionId, r.method, r.status, r.bytes, r.cache]));
    }, { flushMs: s.flushMs, flushRows: s.flushRows, max: s.queueMax, onError });
    if (s.enabled) {
      queue.start();
      const sweep = setInterval(() => {
        void ready.then(() => ctx.stats.run('DELETE FROM cdn_requests WHERE ts < ?', [ctx.clock.now() - s.retentionDays.edge_requests * 86_400_000])).catch(onError);
      }, 3_600_000);
      sweep.unref?.();
      ctx.onStop(async () => { clearInterval(sweep); await queue.stop(); });
    }
    return { queue, ready, enabled: s.enabled };
  });
}

/** Records distribution answers (dropped when the analytics store is off; counted as refused when the queue is full). */
export function recordCdnHits(ctx: AppContext, hits: CdnHit[]): void {
  const u = usageOf(ctx);
  if (!u.enabled) return;
  for (const h of hits) u.queue.offer(h);
}

/** Writes what is queued (tests, shutdown). */
export async function flushCdnUsage(ctx: AppContext): Promise<void> {
  await usageOf(ctx).queue.flush();
}

/**
 * The `distributions` part of the `cdn` report: requests, bytes, hits (served from the edge's cache), misses (fetched
 * from the origin and stored: MISS, EXPIRED), and `cache_hit_ratio` = hits / requests, in total and per distribution.
 */
export async function cdnDistributionUsage(ctx: AppContext, q: StatsQuery) {
  const u = usageOf(ctx);
  await u.ready;
  const hits = `count(*) FILTER (WHERE cache_status IN (${CDN_HIT_STATUSES.map((x) => `'${x}'`).join(', ')}))::DOUBLE`;
  const cols = `count(*)::DOUBLE AS requests, coalesce(sum(bytes), 0)::DOUBLE AS bytes, ${hits} AS hits,
    count(*) FILTER (WHERE cache_status IN ('MISS', 'EXPIRED'))::DOUBLE AS misses, (${hits} / nullif(count(*), 0))::DOUBLE AS cache_hit_ratio`;
  const where = 'tenant_id = ? AND ts >= ? AND ts < ?';
  const params: StatsParam[] = [q.tenantId, q.from, q.to];
  const [tot] = await ctx.stats.all<Record<string, number | null>>(`SELECT ${cols} FROM cdn_requests WHERE ${where}`, params);
  const items = await ctx.stats.all<Record<string, unknown>>(`SELECT distribution_id, ${cols} FROM cdn_requests WHERE ${where} GROUP BY ALL ORDER BY requests DESC, distribution_id LIMIT 100`, params);
  return { ...tot, items };
}
