import type { AppContext } from '../../kernel/context';
import type { Principal } from '../../kernel/http/auth';
import { StatsService } from './service';
import { statsRuntime } from './runtime';

/** Name of the realtime statistics frame on the event stream. */
export const REALTIME_EVENT = 'stats.realtime';

/**
 * The realtime statistics frames of one event stream connection (`event: stats.realtime`, no `id:` so resumption
 * is unaffected; `data:` the answer of GET /v1/stats/realtime), every `everyS` seconds (default 5). None when the
 * analytics store is off, the key lacks stats:read, or `types` leaves them out.
 */
export function realtimeFrames(ctx: AppContext, p: Principal, types: Set<string> | null, everyS = 5): { everyMs: number; frame: () => Promise<string | null> } | undefined {
  if (!statsRuntime(ctx).settings.enabled || !p.scopes.has('stats:read') || (types && !types.has(REALTIME_EVENT))) return undefined;
  const svc = new StatsService(ctx);
  return {
    everyMs: everyS * 1000,
    frame: async () => `event: ${REALTIME_EVENT}\ndata: ${JSON.stringify(await svc.realtime(p.tenantId, ctx.clock.now()))}\n\n`,
  };
}
