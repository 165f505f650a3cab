import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import type { Page } from '../../kernel/http/pagination';
import { cancelJob, getJob, jobEvents, listJobs, retryJob } from '../../jobs/store';
import type { JobRow } from '../../jobs/types';
import { jobQueue } from '../../jobs/worker';
import { reviveAssetForRetry } from '../assets/lifecycle';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Maps a job row to its API view. */
export function jobView(r: JobRow) {
  return {
    id: r.id, type: r.type, status: r.status as 'queued', subject: r.subject_kind && r.subject_id ? { kind: r.subject_kind, id: r.subject_id } : null,
    progress: r.progress, eta_s: r.eta_s, attempts: r.attempts, max_attempts: r.max_attempts, cancel_requested: r.cancel_requested === 1,
    error: r.error, result: r.result ? JSON.parse(r.result) as Record<string, unknown> : null,
    run_at: iso(r.run_at)!, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)!, started_at: iso(r.started_at), finished_at: iso(r.finished_at),
  };
}

/** Reads and acts on a tenant's jobs. */
export function jobsService(ctx: AppContext) {
  const one = (tenantId: string, id: string): JobRow => {
    const r = isUuid(id) ? getJob(ctx.db, tenantId, id) : null;
    if (!r) throw notFound('job');
    return r;
  };
  return {
    list(tenantId: string, f: { status?: string; type?: string; subject?: string }, limit: number, cursor: string | undefined): Page<ReturnType<typeof jobView>> {
      const scope = `jobs:${tenantId}:${f.status ?? ''}:${f.type ?? ''}:${f.subject ?? ''}`;
      const before = cursor ? ctx.cursors.decode(scope, cursor) : null;
      return ctx.cursors.page(scope, listJobs(ctx.db, tenantId, f, before, limit), limit, jobView);
    },
    get: (tenantId: string, id: string) => jobView(one(tenantId, id)),
    events(tenantId: string, id: string) {
      one(tenantId, id);
      return { items: jobEvents(ctx.db, id).map((e) => ({ at: iso(e.at)!, kind: e.kind, detail: parseDetail(e.detail) })) };
    },
    retry(tenantId: string, id: string) {
      const r = one(tenantId, id);
      tx(ctx.db, () => {
        if (!retryJob(ctx.db, id)) throw new AppError('conflict', `job is ${r.status}; only failed or cancelled jobs can be retried`);
        reviveAssetForRetry(ctx, r);
      });
      jobQueue(ctx)?.wake();
      return jobView(one(tenantId, id));
    },
    cancel(tenantId: string, id: string) {
      const r = one(tenantId, id);
      tx(ctx.db, () => {
        const s = cancelJob(ctx.db, id);
        if (!s) throw new AppError('conflict', `job is ${r.status}; only queued or running jobs can be cancelled`);
        if (s === 'cancelled') reviveAssetForRetry(ctx, r, 'cancel');
      });
      return jobView(one(tenantId, id));
    },
  };
}

function parseDetail(d: string | null): unknown {
  if (d === null) return null;
  try { return JSON.parse(d); } catch { return d; }
}
