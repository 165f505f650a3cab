import type { Db } from '../kernel/db/sqlite';
import { lazyCommit } from '../kernel/db/lazy-commit';
import type { JobRow } from './types';

/** One entry of a job's history. */
export interface JobEventRow { seq: number; job_id: string; at: number; kind: string; detail: string | null }

/** Appends an event to a job's history. */
export function addJobEvent(db: Db, jobId: string, kind: string, detail: unknown, at = Date.now()): void {
  db.query('INSERT INTO job_events (job_id, at, kind, detail) VALUES (?, ?, ?, ?)')
    .run(jobId, at, kind, detail === undefined || detail === null ? null : typeof detail === 'string' ? detail : JSON.stringify(detail));
}

/**
 * Claims the most urgent runnable job of one of `types`: queued and due, or running with an expired lease (its
 * worker died). Marks it running under `owner` until `now + leaseMs` and counts the attempt.
 */
export function claimJob(db: Db, types: string[], owner: string, now: number, leaseMs: number): JobRow | null {
  if (!types.length) return null;
  const marks = types.map(() => '?').join(',');
  const runnable = `FROM jobs WHERE type IN (${marks}) AND ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_until < ?))`;
  // Nothing runnable (every poll of an idle queue): a plain read instead of taking the write lock for an empty
  // transaction; when there is one, the immediate transaction below reads it again before claiming it.
  if (!db.inTransaction && !db.query<{ n: number }, (string | number)[]>(`SELECT 1 AS n ${runnable} LIMIT 1`).get(...types, now, now)) return null;
  return db.transaction(() => {
    const row = db.query<JobRow, (string | number)[]>(`SELECT * ${runnable} ORDER BY priority DESC, run_at, seq LIMIT 1`).get(...types, now, now);
    if (!row) return null;
    if (row.status === 'running') addJobEvent(db, row.id, 'lease_expired', { previous_owner: row.lease_owner }, now);
    db.query(`UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_owner = ?, lease_until = ?, started_at = ?, updated_at = ?, error = NULL WHERE id = ?`)
      .run(owner, now + leaseMs, now, now, row.id);
    addJobEvent(db, row.id, 'started', { attempt: row.attempts + 1, worker: owner }, now);
    return { ...row, status: 'running', attempts: row.attempts + 1, lease_owner: owner, lease_until: now + leaseMs };
  }).immediate();
}

/**
 * Extends a lease; returns whether cancellation was requested, or null when the lease was lost. A lazy commit (no
 * fsync on the event loop): after a power loss every running job is taken over again however its lease stood.
 */
export function renewLease(db: Db, id: string, owner: string, until: number): { cancel: boolean } | null {
  const r = lazyCommit(db, () => db.query<{ cancel_requested: number }, [number, string, string]>(
    `UPDATE jobs SET lease_until = ? WHERE id = ? AND lease_owner = ? AND status = 'running' RETURNING cancel_requested`).get(until, id, owner));
  return r ? { cancel: r.cancel_requested === 1 } : null;
}

/** Writes progress (percent 0-100) and ETA of a running job (a lazy commit: no fsync on the event loop). */
export function setJobProgress(db: Db, id: string, pct: number, etaS: number | null, now = Date.now()): void {
  lazyCommit(db, () => db.query('UPDATE jobs SET progress = ?, eta_s = ?, updated_at = ? WHERE id = ?').run(pct, etaS, now, id));
}

/** Merges fields into a job's result JSON. */
export function mergeJobResult(db: Db, id: string, fields: Record<string, unknown>): void {
  const row = db.query<{ result: string | null }, [string]>('SELECT result FROM jobs WHERE id = ?').get(id);
  const cur = row?.result ? JSON.parse(row.result) : {};
  db.query('UPDATE jobs SET result = ? WHERE id = ?').run(JSON.stringify({ ...cur, ...fields }), id);
}

/** Ends a job held by `owner` as succeeded, failed or cancelled. Returns false when the lease was lost. */
export function finishJob(db: Db, id: string, owner: string, status: 'succeeded' | 'failed' | 'cancelled', error: string | null, now = Date.now()): boolean {
  const r = db.query(`UPDATE jobs SET status = ?, error = ?, lease_owner = NULL, lease_until = NULL, finished_at = ?, updated_at = ?,
    progress = CASE WHEN ? = 'succeeded' THEN 100 ELSE progress END, eta_s = NULL WHERE id = ? AND lease_owner = ? AND status = 'running'`)
    .run(status, error, now, now, status, id, owner);
  if (r.changes) addJobEvent(db, id, status, error, now);
  return r.changes > 0;
}

/** Puts a job held by `owner` back in the queue to run at `runAt` (a transient failure). */
export function requeueJob(db: Db, id: string, owner: string, runAt: number, error: string, now = Date.now()): boolean {
  const r = db.query(`UPDATE jobs SET status = 'queued', run_at = ?, error = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?, eta_s = NULL
    WHERE id = ? AND lease_owner = ? AND status = 'running'`).run(runAt, error, now, id, owner);
  if (r.changes) addJobEvent(db, id, 'retry_scheduled', { error, run_at: new Date(runAt).toISOString() }, now);
  return r.changes > 0;
}

/** At start: jobs left `running` by a previous process of this appliance are queued again at once. */
export function recoverOrphans(db: Db, now = Date.now()): string[] {
  const rows = db.query<{ id: string }, []>(`SELECT id FROM jobs WHERE status = 'running'`).all();
  for (const r of rows) {
    db.query(`UPDATE jobs SET status = 'queued', run_at = ?, lease_owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ?`).run(now, now, r.id);
    addJobEvent(db, r.id, 'recovered', 'worker stopped while running; queued again', now);
  }
  return rows.map((r) => r.id);
}

/** One job of a tenant, or null. */
export function getJob(db: Db, tenantId: string, id: string): JobRow | null {
  return db.query<JobRow, [string, string]>('SELECT * FROM jobs WHERE id = ? AND tenant_id = ?').get(id, tenantId);
}

/** Any job by id (workers). */
export function getJobById(db: Db, id: string): JobRow | null {
  return db.query<JobRow, [string]>('SELECT * FROM jobs WHERE id = ?').get(id);
}

/** A tenant's jobs newest first, optionally filtered, `limit + 1` rows before `beforeSeq`. */
export function listJobs(db: Db, tenantId: string, f: { status?: string; type?: string; subject?: string }, beforeSeq: number | null, limit: number): JobRow[] {
  const where = ['tenant_id = ?'];
  const args: (string | number)[] = [tenantId];
  if (f.status) { where.push('status = ?'); args.push(f.status); }
  if (f.type) { where.push('type = ?'); args.push(f.type); }
  if (f.subject) { where.push('subject_id = ?'); args.push(f.subject); }
  if (beforeSeq !== null) { where.push('seq < ?'); args.push(beforeSeq); }
  args.push(limit + 1);
  return db.query<JobRow, (string | number)[]>(`SELECT * FROM jobs WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`).all(...args);
}

/** A job's history, oldest first. */
export function jobEvents(db: Db, jobId: string): JobEventRow[] {
  return db.query<JobEventRow, [string]>('SELECT * FROM job_events WHERE job_id = ? ORDER BY seq LIMIT 1000').all(jobId);
}

/** Queues a failed or cancelled job again with fresh attempts. Returns false when it is not in such a state. */
export function retryJob(db: Db, id: string, now = Date.now()): boolean {
  const r = db.query(`UPDATE jobs SET status = 'queued', attempts = 0, run_at = ?, error = NULL, cancel_requested = 0, finished_at = NULL,
    progress = NULL, eta_s = NULL, updated_at = ? WHERE id = ? AND status IN ('failed', 'cancelled')`).run(now, now, id);
  if (r.changes) addJobEvent(db, id, 'retry_requested', null, now);
  return r.changes > 0;
}

/** Cancels a queued job at once, or flags a running one (its worker aborts it). Returns the new status or null. */
export function cancelJob(db: Db, id: string, now = Date.now()): 'cancelled' | 'cancelling' | null {
  const q = db.query(`UPDATE jobs SET status = 'cancelled', finished_at = ?, updated_at = ?, error = 'cancelled' WHERE id = ? AND status = 'queued'`).run(now, now, id);
  if (q.changes) { addJobEvent(db, id, 'cancelled', 'cancelled while queued', now); return 'cancelled'; }
  const r = db.query(`UPDATE jobs SET cancel_requested = 1, updated_at = ? WHERE id = ? AND status = 'running'`).run(now, id);
  if (r.changes) { addJobEvent(db, id, 'cancel_requested', null, now); return 'cancelling'; }
  return null;
}
