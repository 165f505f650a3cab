import type { AppContext } from '../kernel/context';
import { tx } from '../kernel/db/sqlite';
import { newId } from '../kernel/ids';
import { backoffMs } from './backoff';
import { isPermanent } from './errors';
import { addJobEvent, claimJob, finishJob, mergeJobResult, recoverOrphans, renewLease, requeueJob, setJobProgress } from './store';
import { isJobType, type JobType } from './payloads';
import type { FinalFailureHook, HandlerMap, JobRow, JobRun } from './types';

/** How a queue runs: its handlers, per-type concurrency and lease timing. */
export interface QueueOptions {
  /** The handlers this queue runs; the app passes the complete map, a test may run a feature's share only. */
  handlers: Partial<HandlerMap>;
  /** Parallel jobs per type; types not listed use `defaultConcurrency`. */
  concurrency?: Partial<Record<JobType, number>>;
  defaultConcurrency?: number;
  /** Called in the transaction that fails a job for good (last attempt, permanent error, cancel). */
  onFinalFailure?: FinalFailureHook;
  leaseMs?: number;
  pollMs?: number;
}

type Why = 'cancel' | 'stop' | 'lease';

/** The durable SQLite job runner: claims due jobs under a lease, runs their handlers, retries with backoff. */
export class JobQueue {
  readonly owner = `w-${process.pid}-${newId().slice(-8)}`;
  private running = new Map<string, { type: string; abort: (why: Why) => void; done: Promise<void> }>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopping = false;
  private polling = false;
  private leaseMs: number;

  constructor(private ctx: AppContext, private o: QueueOptions) {
    this.leaseMs = o.leaseMs ?? 30_000;
  }

  /** Requeues jobs orphaned by a previous process, then starts polling. */
  start(): void {
    const orphans = recoverOrphans(this.ctx.db);
    if (orphans.length) this.ctx.log.warn('jobs recovered after restart', { jobs: orphans });
    this.timer = setInterval(() => this.poll(), this.o.pollMs ?? 500);
    this.poll();
  }

  /** Polls now (call after enqueueing for lower latency). */
  wake(): void { queueMicrotask(() => this.poll()); }

  /** Number of jobs running now, per type. */
  active(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.running.values()) out[r.type] = (out[r.type] ?? 0) + 1;
    return out;
  }

  /** Stops claiming, aborts running jobs (they are queued again for the next start) and waits for them. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    const all = [...this.running.values()];
    for (const r of all) r.abort('stop');
    await Promise.allSettled(all.map((r) => r.done));
  }

  private limit(type: JobType): number {
    return this.o.concurrency?.[type] ?? this.o.defaultConcurrency ?? 2;
  }

  private poll(): void {
    if (this.stopping || this.polling) return;
    this.polling = true;
    try {
      for (;;) {
        const act = this.active();
        const free = (Object.keys(this.o.handlers) as JobType[]).filter((t) => (act[t] ?? 0) < this.limit(t));
        const job = claimJob(this.ctx.db, free, this.owner, Date.now(), this.leaseMs);
        if (!job) break;
        this.launch(job);
      }
    } catch (e) {
      this.ctx.log.error('job poll failed', { error: String(e) });
    } finally {
      this.polling = false;
    }
  }

  private launch(job: JobRow): void {
    const ac = new AbortController();
    let why: Why | null = null;
    const abort = (w: Why) => { if (!why) { why = w; ac.abort(new Error(w)); } };
    const db = this.ctx.db;
    let lastWrite = 0;
    let pending: { pct: number; eta: number | null } | null = null;
    const flush = () => { if (pending) { setJobProgress(db, job.id, pending.pct, pending.eta); pending = null; lastWrite = Date.now(); } };
    // The payload was written by enqueueJob for this type (typed there); the row's type is checked before running.
    const run: JobRun = {
      id: job.id, tenantId: job.tenant_id, type: job.type as JobType, attempt: job.attempts, payload: JSON.parse(job.payload),
      subject: job.subject_kind && job.subject_id ? { kind: job.subject_kind, id: job.subject_id } : null,
      signal: ac.signal,
      progress: (pct, etaS) => {
        pending = { pct: Math.max(0, Math.min(100, Math.round(pct * 10) / 10)), eta: etaS === undefined ? null : Math.max(0, Math.round(etaS)) };
        if (Date.now() - lastWrite >= 1000) flush();
      },
      note: (kind, detail) => addJobEvent(db, job.id, kind, detail),
      setResult: (fields) => mergeJobResult(db, job.id, fields),
    };
    const lease = setInterval(() => {
      try {
        const r = renewLease(db, job.id, this.owner, Date.now() + this.leaseMs);
        if (!r) abort('lease');
        else if (r.cancel) abort('cancel');
      } catch (e) { this.ctx.log.warn('lease renewal failed', { job: job.id, error: String(e) }); }
    }, Math.max(200, Math.min(this.leaseMs / 3, 2_000)));
    const done = (async () => {
      try {
        if (!isJobType(job.type) || !this.o.handlers[job.type]) throw Object.assign(new Error(`no handler for job type ${job.type}`), { permanent: true });
        await runHandler(this.o.handlers, this.ctx, run);
        flush();
        finishJob(db, job.id, this.owner, 'succeeded', null);
      } catch (e) {
        flush();
        this.settleFailure(job, e, why);
      } finally {
        clearInterval(lease);
        this.running.delete(job.id);
        if (!this.stopping) this.wake();
      }
    })();
    this.running.set(job.id, { type: job.type, abort, done });
  }

  private settleFailure(job: JobRow, e: unknown, why: Why | null): void {
    const db = this.ctx.db;
    const msg = (e instanceof Error ? e.message : String(e)).slice(0, 2000);
    if (why === 'lease') { this.ctx.log.warn('job lease lost', { job: job.id }); return; }
    if (why === 'stop') { requeueJob(db, job.id, this.owner, Date.now(), 'interrupted by shutdown'); return; }
    const final = why === 'cancel' ? 'cancelled' : isPermanent(e) || job.attempts >= job.max_attempts ? 'failed' : null;
    if (!final) {
      const delay = backoffMs(job.attempts);
      this.ctx.log.warn('job failed, will retry', { job: job.id, type: job.type, attempt: job.attempts, error: msg, retry_in_ms: delay });
      requeueJob(db, job.id, this.owner, Date.now() + delay, msg);
      return;
    }
    const error = final === 'cancelled' ? 'cancelled' : msg;
    if (final === 'failed') this.ctx.log.warn('job failed', { job: job.id, type: job.type, error: msg });
    tx(db, () => {
      if (finishJob(db, job.id, this.owner, final, error)) this.o.onFinalFailure?.(this.ctx, job, error);
    });
  }
}

/** Calls the handler of the run's own type (the map pairs each type with the handler of its payload). */
function runHandler<K extends JobType>(handlers: Partial<HandlerMap>, ctx: AppContext, run: JobRun<K>): Promise<void> {
  const h = handlers[run.type] as HandlerMap[K];
  return h(ctx, run);
}
