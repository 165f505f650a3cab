import type { AppContext } from '../../kernel/context';
import { PermanentJobError } from '../../jobs/errors';
import type { JobRun } from '../../jobs/types';
import type { ClusterLink } from './link';
import type { JobMsg } from './protocol';
import { beginClusterJob, clusterJob, markPublished, recordEnd, type ClusterJobRow } from './store';

/** How often the waiting handler reads the job's cluster record (results are written by the results consumer). */
const POLL_MS = 250;

/** What a job that ran on a worker produced, with who ran it and for how long. */
export interface RemoteEnd<T> { output: T; ms: number; worker: string | null; gen: number }

/**
 * Runs a durable job (a row of the control node's queue) on the cluster: the message for this generation is
 * published once (`make`; a restart finds the record published and only waits), the handler waits for the result
 * the results consumer records, forwarding progress. A failed result throws (permanent ones without retry: the
 * queue's retry publishes the next generation). A cancel of the job tells the worker to stop (and removes a job no
 * worker took from the stream), recording the generation as cancelled.
 */
export async function runRemoteJob<T>(
  ctx: AppContext, job: JobRun, link: ClusterLink, subject: string, make: (gen: number) => Promise<JobMsg> | JobMsg,
  onProgress?: (pct: number, eta: number | null) => void,
): Promise<RemoteEnd<T>> {
  let row: ClusterJobRow | null = clusterJob(ctx.db, job.id);
  if (!row || row.status === 'failed' || row.status === 'publishing') {
    if (!row || row.status === 'failed') row = beginClusterJob(ctx.db, job.id, subject);
    const seq = await link.publish(subject, await make(row.gen));
    markPublished(ctx.db, job.id, row.gen, seq);
    job.note('cluster_published', { gen: row.gen, subject });
  }
  const end = await waitForEnd(ctx, job, link, onProgress);
  if (end.status === 'failed') {
    const msg = `on worker ${end.worker ?? '?'}: ${end.error ?? 'failed'}`;
    throw end.permanent ? new PermanentJobError(msg) : new Error(msg);
  }
  const r = JSON.parse(end.result!) as { output: T; ms: number };
  return { output: r.output, ms: r.ms, worker: end.worker, gen: end.gen };
}

/**
 * Waits until the record ends, forwarding progress; on the job's abort throws, and when the abort is a cancel first
 * cancels the generation on the cluster (a shutdown of this node leaves the job running on its worker).
 */
export async function waitForEnd(ctx: AppContext, job: JobRun, link: ClusterLink, onProgress?: (pct: number, eta: number | null) => void): Promise<ClusterJobRow> {
  let last = -1;
  for (;;) {
    if (job.signal.aborted) {
      const reason = job.signal.reason instanceof Error ? job.signal.reason : new Error('aborted');
      if (reason.message === 'cancel') await cancelRemote(ctx, job.id, link);
      throw reason;
    }
    const row = clusterJob(ctx.db, job.id);
    if (!row) throw new Error('cluster record vanished');
    if (row.status === 'done' || row.status === 'failed') return row;
    if (row.progress !== null && row.progress !== last) {
      last = row.progress;
      job.progress(row.progress, row.eta_s ?? undefined);
      onProgress?.(row.progress, row.eta_s);
    }
    await new Promise<void>((r) => { const t = setTimeout(r, POLL_MS); job.signal.addEventListener('abort', () => { clearTimeout(t); r(); }, { once: true }); });
  }
}

/** Cancels the job's current generation on the cluster and records it as ended (a late result is then stale). */
export async function cancelRemote(ctx: AppContext, jobId: string, link: ClusterLink): Promise<void> {
  const row = clusterJob(ctx.db, jobId);
  if (!row || row.status === 'done' || row.status === 'failed') return;
  recordEnd(ctx.db, jobId, row.gen, row.worker ?? 'control', { error: 'cancelled', permanent: true });
  await link.cancel(jobId, row.gen, row.stream_seq).catch((e) => ctx.log.warn('cluster cancel not sent', { job: jobId, error: String(e) }));
}
