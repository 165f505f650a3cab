import type { AppContext, JobsHandle } from '../kernel/context';
import { JobQueue } from './queue';
import type { JobType } from './payloads';
import type { FinalFailureHook, HandlerMap } from './types';

/** What the app hands the queue at start: every type's handler, failure reactions and per-type concurrency. */
export interface JobSetup {
  /** The complete map: a job type without a handler fails to compile where the app builds it. */
  handlers: HandlerMap;
  onFinalFailure: FinalFailureHook;
  concurrency?: Partial<Record<JobType, number>>;
}

/** The running queue of this app (null before start or without workers); `wake()` it after enqueueing. */
export function jobQueue(ctx: AppContext): JobsHandle | null { return ctx.jobs ?? null; }

/** Starts the job queue with the handlers the features provide; carried in `ctx.jobs`, stopped with the app. */
export function startJobQueue(ctx: AppContext, setup: JobSetup): JobQueue {
  const q = new JobQueue(ctx, { handlers: setup.handlers, concurrency: setup.concurrency, defaultConcurrency: 4, onFinalFailure: setup.onFinalFailure });
  q.start();
  ctx.jobs = q;
  ctx.onStop(async () => { await q.stop(); if (ctx.jobs === q) ctx.jobs = null; });
  return q;
}
