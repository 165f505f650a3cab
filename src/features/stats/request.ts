import type { AppContext } from '../../kernel/context';
import type { Principal } from '../../kernel/http/auth';
import { AppError } from '../../kernel/errors';
import { ChannelService } from '../channels/service';
import { parseRange, type Filters, type StatsQuery } from './query';
import { statsRuntime } from './runtime';

/** Builds the checked statistics query of a request (403 when analytics is off, 422 on a bad range). */
export function statsQueryOf(ctx: AppContext, p: Principal, q: Record<string, string | undefined>, maxMs?: number): StatsQuery {
  if (!statsRuntime(ctx).settings.enabled) throw new AppError('feature_disabled', 'the analytics store is switched off in this deployment (config analytics.enabled)');
  const { from, to } = parseRange(q, ctx.clock.now(), maxMs);
  const f: Filters = {};
  for (const k of ['country', 'device', 'pathway', 'asset', 'clip', 'page_host'] as const) if (q[k] !== undefined && q[k] !== '') f[k] = k === 'country' ? q[k]!.toUpperCase() : q[k];
  if (q.live !== undefined) f.live = q.live === 'true';
  if (q.channel) {
    let slug = q.channel;
    try { slug = new ChannelService(ctx).get(p.tenantId, q.channel).slug; } catch { /* not an id of this tenant: a slug */ }
    f.channel = slug;
  }
  return { tenantId: p.tenantId, from, to, filters: f };
}

