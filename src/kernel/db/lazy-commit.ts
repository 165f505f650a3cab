import type { Db } from './sqlite';

/**
 * Runs `fn` in one immediate transaction that commits without waiting for the disk (WAL with synchronous=NORMAL for
 * this commit only; the connection's own setting is restored at once). Only for writes whose loss on power failure
 * is harmless: the webhook dispatcher's bookkeeping (a lost fan-out is redone from its cursor in the same
 * transaction, a lost outcome means the attempt is sent again: at-least-once, receivers dedupe on X-VS-Delivery),
 * and a running job's progress and lease renewals (after a power loss the job is started over anyway). A crash of
 * the process loses nothing (the WAL is written before COMMIT returns), and the WAL is append-only, so any later
 * durable commit makes these durable too. It keeps an fsync off the event loop: tens of ms on a quiet disk, 120-280
 * ms measured for one WAL fsync while a 1080p ladder was writing its segments.
 * Called inside another transaction it only runs `fn` (that transaction's commit decides).
 * `checkpoint: false` also skips SQLite's automatic checkpoint at this commit (for callers whose checkpoints run on
 * another thread: checkpointer.ts).
 */
export function lazyCommit<T>(db: Db, fn: () => T, o: { checkpoint?: boolean } = {}): T {
  // Inside an enclosing transaction the write commits with it, as durably as that transaction does.
  if (db.inTransaction) return fn();
  const was = db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()?.synchronous ?? 2;
  const auto = o.checkpoint === false ? db.query<{ wal_autocheckpoint: number }, []>('PRAGMA wal_autocheckpoint').get()?.wal_autocheckpoint ?? 1000 : 0;
  if (was <= 1 && auto <= 0) return db.transaction(fn).immediate();
  if (was > 1) db.exec('PRAGMA synchronous = NORMAL');
  if (auto > 0) db.exec('PRAGMA wal_autocheckpoint = 0');
  try {
    return db.transaction(fn).immediate();
  } finally {
    if (was > 1) db.exec(`PRAGMA synchronous = ${was}`);
    if (auto > 0) db.exec(`PRAGMA wal_autocheckpoint = ${auto}`);
  }
}
