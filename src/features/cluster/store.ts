import type { Db } from '../../kernel/db/sqlite';

/** The control node's record of a job handed to the cluster. */
export interface ClusterJobRow {
  job_id: string; gen: number; status: 'publishing' | 'published' | 'running' | 'done' | 'failed'; subject: string;
  worker: string | null; progress: number | null; eta_s: number | null; result: string | null; error: string | null; permanent: number; updated_at: number;
  /** The job message's sequence in the work-queue stream (cancel removes it); null before migration 0231's records. */
  stream_seq: number | null;
}

/** The record of a job, or null when it was never handed out. */
export function clusterJob(db: Db, jobId: string): ClusterJobRow | null {
  return db.query<ClusterJobRow, [string]>('SELECT * FROM cluster_jobs WHERE job_id = ?').get(jobId) ?? null;
}

/** Starts (or, after a failure, restarts with the next generation) the record before publishing. */
export function beginClusterJob(db: Db, jobId: string, subject: string, now = Date.now()): ClusterJobRow {
  db.query(`INSERT INTO cluster_jobs (job_id, status, subject, updated_at) VALUES (?, 'publishing', ?, ?)
    ON CONFLICT (job_id) DO UPDATE SET gen = gen + 1, status = 'publishing', subject = excluded.subject, worker = NULL, progress = NULL,
    eta_s = NULL, result = NULL, error = NULL, permanent = 0, updated_at = excluded.updated_at`).run(jobId, subject, now);
  return clusterJob(db, jobId)!;
}

/** Marks the record published (the stream holds the message durably). */
export function markPublished(db: Db, jobId: string, gen: number, seq: number | null = null, now = Date.now()): void {
  db.query(`UPDATE cluster_jobs SET status = 'published', stream_seq = ?, updated_at = ? WHERE job_id = ? AND gen = ? AND status = 'publishing'`).run(seq, now, jobId, gen);
}

/** A progress report of this generation (ignored once the job ended). */
export function recordProgress(db: Db, jobId: string, gen: number, worker: string, pct: number, eta: number | null, now = Date.now()): void {
  db.query(`UPDATE cluster_jobs SET status = 'running', worker = ?, progress = ?, eta_s = ?, updated_at = ?
    WHERE job_id = ? AND gen = ? AND status IN ('published', 'running')`).run(worker, pct, eta, now, jobId, gen);
}

/** The end of this generation: done with its result, or failed; false when stale (another generation, or already ended). */
export function recordEnd(db: Db, jobId: string, gen: number, worker: string, end: { result: unknown } | { error: string; permanent: boolean }, now = Date.now()): boolean {
  const done = 'result' in end;
  return db.query(`UPDATE cluster_jobs SET status = ?, worker = ?, result = ?, error = ?, permanent = ?, updated_at = ?
    WHERE job_id = ? AND gen = ? AND status IN ('publishing', 'published', 'running')`).run(
    done ? 'done' : 'failed', worker, done ? JSON.stringify(end.result) : null, done ? null : end.error, !done && end.permanent ? 1 : 0, now, jobId, gen).changes > 0;
}
