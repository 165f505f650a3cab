import type { AppContext } from '../kernel/context';
import type { JobPayloads, JobType } from './payloads';

export type { JobPayloads, JobType, VodPayload } from './payloads';

/** What a handler sees of its job: typed payload, cancellation signal and a progress reporter. */
export interface JobRun<K extends JobType = JobType> {
  id: string;
  tenantId: string;
  type: K;
  payload: JobPayloads[K];
  attempt: number;
  subject: { kind: string; id: string } | null;
  signal: AbortSignal;
  /** Reports percent done (0-100) and an optional ETA in seconds; throttled writes to the job row. */
  progress(pct: number, etaS?: number): void;
  /** Appends a job event (visible in /v1/jobs/{id}/events), e.g. an encoder fallback. */
  note(kind: string, detail?: unknown): void;
  /** Merges fields into the job's `result` JSON. */
  setResult(fields: Record<string, unknown>): void;
}

/** The handler of job type K: resolves on success, throws to fail (PermanentJobError: no retry). */
export type Handler<K extends JobType> = (ctx: AppContext, job: JobRun<K>) => Promise<void>;

/** The complete handler map: one handler per job type, so a type without a handler fails to compile. */
export type HandlerMap = { [K in JobType]: Handler<K> };

/** A feature's share of the handler map (only the types it owns). */
export type FeatureHandlers<K extends JobType> = { [P in K]: Handler<P> };

/** Called once when a job fails for good (after its last attempt, permanently, or cancelled). */
export type FinalFailureHook = (ctx: AppContext, job: JobRow, error: string) => void;

/** A row of the `jobs` table. */
export interface JobRow {
  seq: number; id: string; tenant_id: string; type: string; payload: string;
  subject_kind: string | null; subject_id: string | null; status: string; priority: number;
  attempts: number; max_attempts: number; run_at: number; lease_owner: string | null; lease_until: number | null;
  progress: number | null; eta_s: number | null; error: string | null; result: string | null;
  created_at: number; updated_at: number; finished_at: number | null; cancel_requested: number; started_at: number | null;
}
