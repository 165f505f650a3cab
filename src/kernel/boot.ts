import { join } from 'node:path';
import { openDb } from './db/sqlite';
import { securePrivateFiles } from './db/perms';
import { markServing } from './secrets/running';
import { openStats, statsThreads } from './stats';
import { createLogger, type Logger } from './log';
import { systemClock, type Clock } from './clock';
import { KeyCache, type KeyLookup } from './http/auth';
import { RateLimiter } from './http/rate-limit';
import { Cursors } from './http/pagination';
import { createHttpPlugin } from './http/plugin';
import { setBodyDeadline } from './http/body';
import type { Config } from './config/schema';
import type { AppContext, Stopper } from './context';
import type { Db } from './db/sqlite';
import { Slots } from './slots';

/** Pieces the kernel needs from the identity feature (injected so the kernel never imports features). */
export interface BootDeps {
  keyLookup: (db: Db) => KeyLookup;
  secret: (db: Db, name: string) => string;
}

/** Opens the stores and builds the shared context (no listeners started). */
export async function bootContext(config: Readonly<Config>, deps: BootDeps, opts: { clock?: Clock; log?: Logger } = {}): Promise<{ ctx: AppContext; stopAll: () => Promise<void> }> {
  const log = opts.log ?? createLogger(config.logLevel);
  const db = openDb(join(config.dataDir, 'db', 'meta.sqlite'), { dataDir: config.dataDir });
  const stats = await openStats(join(config.dataDir, 'db', 'stats.duckdb'), { threads: statsThreads(config.analytics.threads) });
  securePrivateFiles(join(config.dataDir, 'db', 'stats.duckdb'));
  const unmark = markServing(config.dataDir);
  setBodyDeadline(config.bodyDeadline);
  const keys = new KeyCache(deps.keyLookup(db));
  const limiter = new RateLimiter(config.rateLimit.perSecond, config.rateLimit.burst);
  const stoppers: Stopper[] = [];
  const sweep = setInterval(() => limiter.sweep(), 60_000);
  sweep.unref();
  stoppers.push(() => clearInterval(sweep));
  stoppers.push(() => stats.close());
  stoppers.push(() => db.close());
  stoppers.push(unmark);
  const ctx: AppContext = {
    config, db, stats, log, clock: opts.clock ?? systemClock, keys, limiter,
    cursors: new Cursors(deps.secret(db, 'cursor')),
    http: createHttpPlugin(keys, limiter, config.jsonBodyLimit),
    slots: new Slots(),
    onStop: (fn) => { stoppers.unshift(fn); },
  };
  return { ctx, stopAll: async () => { for (const s of stoppers.splice(0)) await s(); } };
}
