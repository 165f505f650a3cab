import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { slotKey } from '../../kernel/slots';
import { tx } from '../../kernel/db/sqlite';
import { enqueueJob } from '../../jobs/enqueue';
import { getJob } from '../../jobs/store';
import { AssetService } from '../assets/service';
import { ClipService } from '../clips/service';
import { ChannelService } from '../channels/service';
import { edgeOf, type PurgeSelector } from './port';
import type { WalkReport } from './prewarm-walk';

/** Pre-warms per tenant per minute (the seed's limit). */
export const PREWARMS_PER_MINUTE = 6;

/** What a pre-warm walks (exactly one of these) and how. */
export interface PrewarmTarget { asset_id?: string; clip_id?: string; channel_id?: string; urls?: string[]; renditions?: 'all' | 'lowest' }

const WINDOW = slotKey<Map<string, number[]>>('edge.prewarm.window');
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Exactly one of `names` set in `body`, else 422 naming them. */
function one(body: Record<string, unknown>, names: string[]): string {
  const set = names.filter((n) => body[n] !== undefined);
  if (set.length !== 1) throw invalid(set[1] ?? names[0]!, `exactly one of ${names.join(', ')}`);
  return set[0]!;
}

/** Purge and pre-warm (issue 46): requests become jobs that act on the edge cache the delivery front runs. */
export class EdgeService {
  constructor(private ctx: AppContext) {}

  /** POST /v1/purge: checks the selector, counts the keys it names now and queues the `edge.purge` job that evicts them. */
  purge(tenantId: string, sel: PurgeSelector): { job_id: string; keys: number; prefix: string | null } {
    one(sel as Record<string, unknown>, ['urls', 'prefix', 'asset_id', 'clip_id', 'tag']);
    if (sel.asset_id) new AssetService(this.ctx).get(tenantId, sel.asset_id);
    if (sel.clip_id) new ClipService(this.ctx).get(tenantId, sel.clip_id);
    const keys = edgeOf(this.ctx).cache?.select(tenantId, sel).length ?? 0;
    const id = tx(this.ctx.db, () => enqueueJob(this.ctx.db, { tenantId, type: 'edge.purge', payload: { selector: sel }, priority: 100, maxAttempts: 1 }));
    this.ctx.jobs?.wake();
    return { job_id: id, keys, prefix: sel.prefix ?? null };
  }

  /** POST /v1/prewarm: 429 past the tenant's limit, 403 without an edge; checks the target and queues `edge.prewarm`. */
  prewarm(tenantId: string, target: PrewarmTarget) {
    one(target as Record<string, unknown>, ['asset_id', 'clip_id', 'channel_id', 'urls']);
    if (target.urls && target.renditions) throw invalid('renditions', 'only for asset_id, clip_id or channel_id');
    if (target.urls) target.urls.forEach((u, i) => { if (!/^(https?:\/\/[^/\s]+)?\/\S*$/.test(u)) throw invalid(`urls[${i}]`, 'an absolute http(s) URL or a path'); });
    if (target.asset_id) new AssetService(this.ctx).get(tenantId, target.asset_id);
    if (target.clip_id) new ClipService(this.ctx).get(tenantId, target.clip_id);
    if (target.channel_id) new ChannelService(this.ctx).get(tenantId, target.channel_id);
    if (!edgeOf(this.ctx).base) throw new AppError('feature_disabled', 'no edge cache runs on this deployment (the delivery front is off)');
    this.take(tenantId);
    const id = tx(this.ctx.db, () => enqueueJob(this.ctx.db, { tenantId, type: 'edge.prewarm', payload: { target }, priority: 50, maxAttempts: 1 }));
    this.ctx.jobs?.wake();
    return this.view(tenantId, id);
  }

  /** GET /v1/prewarm/{id}: the request, its progress and report. */
  view(tenantId: string, id: string) {
    const j = getJob(this.ctx.db, tenantId, id);
    if (!j || j.type !== 'edge.prewarm') throw notFound('prewarm');
    const r = (j.result ? JSON.parse(j.result) : {}) as Partial<WalkReport>;
    const status = j.status === 'running' || j.status === 'queued' || j.status === 'succeeded' || j.status === 'failed' || j.status === 'cancelled' ? j.status : 'queued';
    return {
      id: j.id, status, progress: j.status === 'succeeded' ? 100 : j.progress ?? 0,
      target: (JSON.parse(j.payload) as { target: Record<string, unknown> }).target,
      fetched: r.fetched ?? 0, hit: r.hit ?? 0, stored: r.stored ?? 0, failed: r.failed ?? 0, bytes: r.bytes ?? 0, failures: r.failures ?? [],
      created_at: iso(j.created_at)!, finished_at: iso(j.finished_at),
    };
  }

  /** Counts a pre-warm against the tenant's window of the last minute; 429 with Retry-After past the limit. */
  private take(tenantId: string): void {
    const now = this.ctx.clock.now();
    const w = this.ctx.slots.get(WINDOW, () => new Map<string, number[]>());
    const recent = (w.get(tenantId) ?? []).filter((t: number) => t > now - 60_000);
    if (recent.length >= PREWARMS_PER_MINUTE) {
      const wait = Math.max(1, Math.ceil((recent[0]! + 60_000 - now) / 1000));
      throw new AppError('rate_limited', `at most ${PREWARMS_PER_MINUTE} pre-warms per minute per tenant; retry in ${wait} s`, { headers: { 'retry-after': String(wait) } });
    }
    recent.push(now);
    w.set(tenantId, recent);
  }
}
