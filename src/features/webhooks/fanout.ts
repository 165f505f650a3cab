import type { Db } from '../../kernel/db/sqlite';
import { lazyCommit } from '../../kernel/db/lazy-commit';
import { eventsAfter, type OutboxEvent } from '../../kernel/events/outbox';
import { outboxCursor, outboxHead, setOutboxCursor } from '../../kernel/events/cursors';
import { newId } from '../../kernel/ids';
import { WebhookStore, type FanOutTarget } from './store';

/** Name of the webhook fan-out position in `outbox_cursors`. */
export const FANOUT_CURSOR = 'webhooks';

/** True when endpoint `e` should receive event `ev` (a `ping` goes only to the endpoint it names). */
export function wants(e: FanOutTarget, events: string[], ev: OutboxEvent): boolean {
  if (ev.seq <= e.from_seq) return false;
  if (ev.type === 'ping') return (ev.data as { webhook_id?: string } | null)?.webhook_id === e.id;
  return events.includes('*') || events.includes(ev.type);
}

/**
 * Turns the next batch of outbox events into delivery rows and advances the cursor in the same transaction, so a
 * crash loses nothing and never queues an event twice for one endpoint (committed without waiting for fsync: see
 * lazyCommit; `checkpoint: false` when a checkpointer thread runs). A slice ends after `batch` events or once it
 * has queued `o.maxRows` rows (whole events only, at least one): its length on the event loop follows the rows it
 * writes, not how many endpoints each event reaches. Returns the number of events consumed.
 */
export function fanOutBatch(db: Db, now: number, batch = 500, o: { checkpoint?: boolean; maxRows?: number } = {}): number {
  const maxRows = o.maxRows ?? Infinity;
  // Nothing past the cursor (the dispatcher's every poll while no event is published): a plain read, no write
  // transaction; only this fan-out moves the cursor, and an event published after the read is seen by the next poll.
  if (!db.inTransaction && outboxHead(db) <= outboxCursor(db, FANOUT_CURSOR)) return 0;
  return lazyCommit(db, () => {
    const store = new WebhookStore(db);
    const from = outboxCursor(db, FANOUT_CURSOR);
    const events = eventsAfter(db, from, batch);
    if (!events.length) return 0;
    const targets = new Map<string, { row: FanOutTarget; events: string[] }[]>();
    let rows = 0, used = 0;
    for (const ev of events) {
      if (rows >= maxRows) break;
      used++;
      let list = targets.get(ev.tenant_id);
      if (!list) {
        list = store.tenantTargets(ev.tenant_id).map((row) => ({ row, events: JSON.parse(row.events) as string[] }));
        targets.set(ev.tenant_id, list);
      }
      for (const t of list) {
        if (!wants(t.row, t.events, ev)) continue;
        store.insertDelivery({ id: newId(), tenant_id: ev.tenant_id, endpoint_id: t.row.id, event_seq: ev.seq, event_id: ev.id, event_type: ev.type, at: now });
        rows++;
      }
    }
    setOutboxCursor(db, FANOUT_CURSOR, events[used - 1].seq);
    return used;
  }, o);
}

/** Drains the outbox into deliveries; returns how many events were consumed. */
export function fanOutAll(db: Db, now: number, batch = 500, maxRows = Infinity): number {
  let total = 0;
  for (;;) {
    const n = fanOutBatch(db, now, batch, { maxRows });
    total += n;
    if (n === 0) return total;
  }
}
