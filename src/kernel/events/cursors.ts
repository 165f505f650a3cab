import type { Db } from '../db/sqlite';

/** The outbox position a named consumer has processed up to (0 when it has never run). */
export function outboxCursor(db: Db, name: string): number {
  return db.query<{ seq: number }, [string]>('SELECT seq FROM outbox_cursors WHERE name = ?').get(name)?.seq ?? 0;
}

/** Moves a named consumer's position; call it in the same transaction as the work it covers. */
export function setOutboxCursor(db: Db, name: string, seq: number): void {
  db.query('INSERT INTO outbox_cursors (name, seq) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET seq = excluded.seq').run(name, seq);
}

/** The newest outbox sequence number (0 when empty). */
export function outboxHead(db: Db): number {
  return db.query<{ seq: number | null }, []>('SELECT MAX(seq) AS seq FROM events').get()?.seq ?? 0;
}
