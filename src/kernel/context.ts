import type { Config } from './config/schema';
import type { Db } from './db/sqlite';
import type { Logger } from './log';
import type { Clock } from './clock';
import type { KeyCache } from './http/auth';
import type { RateLimiter } from './http/rate-limit';
import type { Cursors } from './http/pagination';
import type { HttpPlugin } from './http/plugin';
import type { StatsStore } from './stats';
import type { Slots } from './slots';

/** Something to stop on shutdown (workers, child processes, listeners). */
export type Stopper = () => Promise<void> | void;

/** The running job queue as features see it (declared here so the kernel does not import jobs/). */
export interface JobsHandle {
  /** Polls now; call after enqueueing to skip the poll delay. */
  wake(): void;
}

/** Everything a feature needs, built once at start and passed down explicitly. */
export interface AppContext {
  config: Readonly<Config>;
  db: Db;
  stats: StatsStore;
  log: Logger;
  clock: Clock;
  keys: KeyCache;
  limiter: RateLimiter;
  cursors: Cursors;
  http: HttpPlugin;
  /** The job queue once workers started it (unset before, and in processes without workers). */
  jobs?: JobsHandle | null;
  /** Objects features build once per app (caches, catalogues) instead of module-level state. */
  slots: Slots;
  /** Registers work to stop on shutdown (run in reverse order). */
  onStop(fn: Stopper): void;
}
