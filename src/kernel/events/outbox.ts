import type { Db } from '../db/sqlite';
import { newId } from '../ids';

/** An event as stored in the outbox and delivered to webhooks and the event stream. */
export interface OutboxEvent { seq: number; id: string; tenant_id: string; type: string; at: number; data: unknown }

type Listener = () => void;
const listeners = new Set<Listener>();
let wakeQueued = false;

/**
 * Writes an event into the outbox. Call it inside the same transaction as the state change it reports, so a
 * rolled-back change emits nothing and a committed one is never lost. Returns the event id.
 */
export function emitEvent(db: Db, tenantId: string, type: string, data: unknown, at = Date.now()): string {
  return appendEvent(db, tenantId, type, data, at).id;
}

/** Like emitEvent, also returning the outbox sequence number (for callers that queue work against the event). */
export function appendEvent(db: Db, tenantId: string, type: string, data: unknown, at = Date.now()): { id: string; seq: number } {
  const id = newId();
  const r = db.query('INSERT INTO events (id, tenant_id, type, at, data) VALUES (?, ?, ?, ?, ?)').run(id, tenantId, type, at, JSON.stringify(data));
  // One wake-up per burst: a transaction of 10,000 events queued 10,000 microtasks, each calling every listener.
  if (!wakeQueued) { wakeQueued = true; queueMicrotask(() => { wakeQueued = false; notifyOutbox(); }); }
  return { id, seq: Number(r.lastInsertRowid) };
}

/** Wakes outbox consumers (dispatchers poll as well, so a missed wake-up only adds latency). */
export function notifyOutbox(): void {
  for (const l of listeners) l();
}

/** Subscribes to outbox wake-ups; returns the unsubscribe function. */
export function onOutbox(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Events after `afterSeq`, oldest first (for dispatchers and the event stream). */
export function eventsAfter(db: Db, afterSeq: number, limit: number, tenantId?: string): OutboxEvent[] {
  const rows = tenantId
    ? db.query<OutboxEvent & { data: string }, [number, string, number]>('SELECT * FROM events WHERE seq > ? AND tenant_id = ? ORDER BY seq LIMIT ?').all(afterSeq, tenantId, limit)
    : db.query<OutboxEvent & { data: string }, [number, number]>('SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?').all(afterSeq, limit);
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data as string) }));
}
