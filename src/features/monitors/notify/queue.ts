/** The durable queue of e-mail and Telegram notifications (rows in alert_notifications, sent by the notifier). */
import type { Db } from '../../../kernel/db/sqlite';
import type { NoticeKind } from './texts';

/** A queued notification. */
export interface NoticeRow { seq: number; alert_id: string; destination_id: string; kind: NoticeKind; status: 'pending' | 'sent' | 'failed'; attempts: number; next_at: number; error: string | null; created_at: number; sent_at: number | null }

/** Retry delays after failed attempts; after the last one the notification is `failed`. */
export const RETRY_MS = [10_000, 60_000, 300_000, 1_800_000];

/** SQL of the notification queue; the only place it lives. */
export class NoticeStore {
  constructor(private db: Db) {}

  /** Queues one notification per destination (call inside the alert's transaction). */
  enqueue(alertId: string, destinations: string[], kind: NoticeKind, now: number): void {
    const q = this.db.query("INSERT INTO alert_notifications (alert_id, destination_id, kind, status, next_at, created_at) VALUES (?, ?, ?, 'pending', ?, ?)");
    for (const d of destinations) q.run(alertId, d, kind, now, now);
  }

  due(now: number, limit = 50): NoticeRow[] {
    return this.db.query<NoticeRow, [number, number]>("SELECT * FROM alert_notifications WHERE status = 'pending' AND next_at <= ? ORDER BY seq LIMIT ?").all(now, limit);
  }

  sent(seq: number, at: number): void {
    this.db.query("UPDATE alert_notifications SET status = 'sent', attempts = attempts + 1, sent_at = ?, error = NULL WHERE seq = ?").run(at, seq);
  }

  /** Records a failed attempt: retried later, or `failed` after the last retry. */
  failed(n: NoticeRow, error: string, now: number): void {
    const delay = RETRY_MS[n.attempts];
    if (delay === undefined) this.db.query("UPDATE alert_notifications SET status = 'failed', attempts = attempts + 1, error = ? WHERE seq = ?").run(error.slice(0, 500), n.seq);
    else this.db.query('UPDATE alert_notifications SET attempts = attempts + 1, next_at = ?, error = ? WHERE seq = ?').run(now + delay, error.slice(0, 500), n.seq);
  }

  /** Notifications of an alert (for the alert view and tests). */
  ofAlert(alertId: string): NoticeRow[] {
    return this.db.query<NoticeRow, [string]>('SELECT * FROM alert_notifications WHERE alert_id = ? ORDER BY seq').all(alertId);
  }
}
