import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { JobEventView, JobListQuery, JobPage, JobView } from './model';
import { jobsService } from './service';

const Id = t.Object({ id: t.String() });
const JOB_DOC = 'A job is background work of the tenant (`asset.process`: probe; `asset.encode`: ladder encode and packaging; `asset.fetch`: URL source). `status`: queued, running, succeeded, failed, cancelled. `progress` is percent 0-100 with `eta_s` while running; `result` carries facts such as `encoder`, `fallback_from` (a GPU encoder failed and libx264 took over), `first_playable_ms` and `ready_ms`. Transient faults are retried with backoff up to `max_attempts`; bad media fails at once.';

/** /v1/jobs: list, one, events, failures, retry, cancel. */
export function jobsRoutes(ctx: AppContext) {
  const svc = jobsService(ctx);
  return new Elysia({ prefix: '/v1/jobs' })
    .use(ctx.http)
    .get('/', ({ principal: p, query }) => svc.list(p.tenantId, query, parseLimit(query.limit, 50, 200), query.cursor), {
      auth: { scope: 'assets:read', platform: true }, query: JobListQuery, response: { 200: JobPage },
      detail: doc('Jobs', 'List jobs', 'רשימת משימות', `${JOB_DOC}\n\nNewest first; filters \`status\`, \`type\`, \`subject\` (e.g. an asset id); \`limit\` up to 200 (default 50).`),
    })
    .get('/failures', ({ principal: p, query }) => svc.list(p.tenantId, { ...query, status: 'failed' }, parseLimit(query.limit, 50, 200), query.cursor), {
      auth: { scope: 'assets:read', platform: true }, query: t.Omit(JobListQuery, ['status']), response: { 200: JobPage },
      detail: doc('Jobs', 'List failed jobs', 'משימות שנכשלו', 'Jobs that failed for good (permanent error, attempts used up), newest first, with `error`. Retry one with POST /v1/jobs/{id}/retry.'),
    })
    .get('/:id', ({ principal: p, params }) => svc.get(p.tenantId, params.id), {
      // Also for CDN-only tenants and edge keys: the seed's purge answers a job_id to follow here (their jobs are edge jobs).
      auth: { scope: null, anyOf: ['assets:read', 'delivery:write', 'prewarm'] as ('assets:read' | 'delivery:write' | 'prewarm')[] }, params: Id, response: { 200: JobView },
      detail: doc('Jobs', 'Get a job', 'משימה', JOB_DOC),
    })
    .get('/:id/events', ({ principal: p, params }) => svc.events(p.tenantId, params.id), {
      auth: { scope: 'assets:read', platform: true }, params: Id, response: { 200: t.Object({ items: t.Array(JobEventView) }) },
      detail: doc('Jobs', 'Job history', 'היסטוריית משימה', 'Every state change of the job, oldest first (at most 1000): attempts, lease expiries, recoveries after restart, retries with their delay, encoder fallbacks, first playable, the end.'),
    })
    .post('/:id/retry', ({ principal: p, params }) => svc.retry(p.tenantId, params.id), {
      auth: { scope: 'assets:write', platform: true }, params: Id, response: { 200: JobView },
      detail: doc('Jobs', 'Retry a job', 'ניסיון חוזר למשימה', 'Queues a failed or cancelled job again with fresh attempts (other states answer 409). A failed asset goes back to processing.'),
    })
    .post('/:id/cancel', ({ principal: p, params }) => svc.cancel(p.tenantId, params.id), {
      auth: { scope: 'assets:write', platform: true }, params: Id, response: { 200: JobView },
      detail: doc('Jobs', 'Cancel a job', 'ביטול משימה', 'A queued job is cancelled at once; a running one gets `cancel_requested: true` and stops within seconds (its ffmpeg is killed). The asset becomes `failed` with `error` "processing was cancelled". Finished jobs answer 409.'),
    });
}
