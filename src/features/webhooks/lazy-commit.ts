import type { Db } from '../../kernel/db/sqlite';

/**
 * Runs `fn` in one immediate transaction that commits without waiting for the disk (WAL with synchronous=NORMAL for
 * this commit only; the connection's own setting is restored at once). For the dispatcher's bookkeeping only, whose
 * loss on power failure is harmless: a lost fan-out is redone from its cursor (same transaction), a lost outcome
 * means the attempt is sent again (at-least-once; receivers dedupe on X-VS-Delivery). A crash of the process loses
 * nothing (the WAL is written before COMMIT returns), and the WAL is append-only, so any later durable commit makes
 * these durable too. It keeps an fsync (tens to hundreds of ms on a busy disk) off the event loop.
 */
export function lazyCommit<T>(db: Db, fn: () => T): T {
  const was = db.query<{ synchronous: number }, []>('PRAGMA synchronous').get()?.synchronous ?? 2;
  if (was <= 1) return db.transaction(fn).immediate();
  db.exec('PRAGMA synchronous = NORMAL');
  try {
    return db.transaction(fn).immediate();
  } finally {
    db.exec(`PRAGMA synchronous = ${was}`);
  }
}
