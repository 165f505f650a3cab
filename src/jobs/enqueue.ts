import type { Db } from '../kernel/db/sqlite';
import { newId } from '../kernel/ids';
import type { JobPayloads, JobType } from './payloads';

/** What to enqueue: a job type with its typed payload, optionally about one subject (e.g. an asset). */
export interface NewJob<K extends JobType = JobType> {
  tenantId: string;
  type: K;
  payload: JobPayloads[K];
  subject?: { kind: string; id: string };
  runAt?: number;
  priority?: number;
  maxAttempts?: number;
}

/**
 * Inserts a queued job. Call inside the transaction that creates its subject so the hand-off is durable:
 * either both the row and its job exist, or neither. Returns the job id.
 */
export function enqueueJob<K extends JobType>(db: Db, job: NewJob<K>, now = Date.now()): string {
  const id = newId();
  db.query(
    `INSERT INTO jobs (id, tenant_id, type, payload, subject_kind, subject_id, status, priority, max_attempts, run_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
  ).run(id, job.tenantId, job.type, JSON.stringify(job.payload), job.subject?.kind ?? null, job.subject?.id ?? null,
    job.priority ?? 0, job.maxAttempts ?? 5, job.runAt ?? now, now, now);
  return id;
}
