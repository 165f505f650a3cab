import { Elysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { checkWorkerToken, touchWorkerToken } from './tokens';
import type { JoinAnswer } from './protocol';

/**
 * `GET /cluster/join` (internal, not in the API reference): a worker machine presents its worker token
 * (`Authorization: Bearer vsw_...`, from `viewstream admin worker-token create`) and learns where the job queue and
 * the media store are. 401 for a missing, unknown or revoked token; 409 when this node runs no cluster (no VS_NATS_URL).
 */
export function clusterRoutes(ctx: AppContext) {
  return new Elysia().get('/cluster/join', ({ request }) => {
    const h = request.headers.get('authorization') ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(h);
    const w = m ? checkWorkerToken(ctx.db, m[1]!) : null;
    if (!w) throw new AppError('invalid_credentials', 'a valid worker token is required (viewstream admin worker-token create)');
    if (!ctx.config.natsUrl) throw new AppError('conflict', 'this node runs no job cluster (VS_NATS_URL is not set)');
    touchWorkerToken(ctx.db, w.id);
    const ms = ctx.config.mediaStore;
    const answer: JoinAnswer = {
      worker_id: w.id, name: w.name, nats_url: ctx.config.natsUrl, ack_wait_ms: ctx.config.clusterAckWaitMs,
      media_store: ms.kind === 'local' ? { kind: 'local', dir: ctx.config.dataDir } : ms,
    };
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
  }, { detail: { hide: true } });
}
