import type { Db } from '../../kernel/db/sqlite';

/**
 * Runs `fn` in one immediate transaction that commits without waiting for the disk (WAL with synchronous=NORMAL for
 * this commit only; the connection's own setting is restored at once). For the dispatcher's bookkeeping only, whose
 * loss on power failure is harmless: a lost fan-out is redone from its cursor (same transaction), a lost outcome
 * means the attempt is sent again (at-least-once; receivers dedupe on X-VS-Delivery). A crash of the process loses
 * nothing (the WAL is written before COMMIT returns), and the WAL is append-only, so any later durable commit makes
 * these durable too. It keeps an fsync (tens to hundreds of ms on a busy disk) off the event loop.
 * `checkpoint: false` also skips SQLite's automatic checkpoint at this commit (for callers whose checkpoints run on
 * another thread: checkpointer.ts).
 */
export function lazyCommit<T>(db: Db, fn: () => T, o: { checkpoint?: boolean } = {}): T {
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
