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

/**
 * A named time cursor held in memory and written lazily: with the work it covers (`write` inside the caller's
 * transaction, then `committed`), and otherwise at most once per `idleSaveMs` (`idle`), so a poller that finds nothing
 * only reads — a write transaction per tick is a WAL fsync on the event loop. After a restart the poller looks back at
 * most `idleSaveMs` further than it ran, over a span in which it found nothing.
 */
export class LazyCursor {
  private last: number | null = null;
  private saved = 0;
  constructor(private readonly db: Db, private readonly name: string, private readonly idleSaveMs: number) {}

  /** The position, read from the database on first use; on a first run ever `start` is stored and null returned. */
  position(start: number): number | null {
    if (this.last !== null) return this.last;
    const stored = outboxCursor(this.db, this.name);
    if (!stored) { this.write(start); this.committed(start); return null; }
    this.last = this.saved = stored;
    return stored;
  }

  /** Moves to `to` with nothing found: written only once the stored position lags by `idleSaveMs`. */
  idle(to: number): void {
    this.last = to;
    if (to - this.saved >= this.idleSaveMs) { this.write(to); this.saved = to; }
  }

  /** Writes `to` (in the caller's transaction when there is one); call `committed(to)` once that commits. */
  write(to: number): void {
    setOutboxCursor(this.db, this.name, to);
  }

  /** The position `write` stored has committed: it is the position now. */
  committed(to: number): void {
    this.last = this.saved = to;
  }
}
