import type { Db } from '../../kernel/db/sqlite';
import { eventsAfter, onOutbox } from '../../kernel/events/outbox';
import { envelopeBody } from '../../kernel/events/envelope';

/** Options of one event stream connection. */
export interface StreamOptions {
  tenantId: string; after: number; types: Set<string> | null; heartbeatMs: number; pollMs?: number; onClose?: () => void;
  /** Extra frames without an id (realtime statistics), sent every `everyMs` while the client keeps up; null skips one. */
  extra?: { everyMs: number; frame: () => Promise<string | null> };
}

const enc = new TextEncoder();

/** One SSE frame: `id:` is the outbox sequence number, `event:` the type, `data:` the webhook envelope. */
export function sseFrame(seq: number, type: string, envelope: string): string {
  return `id: ${seq}\nevent: ${type}\ndata: ${envelope}\n\n`;
}

/**
 * A server-sent event stream of one tenant's outbox after `after`: woken by new events (and a poll for events written
 * by other processes), paused while the client is not reading (the outbox is durable, so nothing is lost), with a
 * comment heartbeat. `close()` ends it (shutdown).
 */
export function openEventStream(db: Db, o: StreamOptions): { stream: ReadableStream<Uint8Array>; close(): void } {
  let last = o.after;
  let closed = false;
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;
  const timers: ReturnType<typeof setInterval>[] = [];
  let unsub: (() => void) | null = null;
  let scheduled = false;
  const send = (s: string) => { if (!closed) ctrl.enqueue(enc.encode(s)); };
  const pump = () => {
    scheduled = false;
    if (closed) return;
    try {
      while ((ctrl.desiredSize ?? 1) > 0) {
        const batch = eventsAfter(db, last, 200, o.tenantId);
        if (!batch.length) return;
        let out = '';
        for (const e of batch) {
          last = e.seq;
          if (o.types && !o.types.has(e.type)) continue;
          out += sseFrame(e.seq, e.type, envelopeBody({ id: e.id, type: e.type, at: e.at, tenantId: e.tenant_id, dataJson: JSON.stringify(e.data) }));
        }
        if (out) send(out);
        if (batch.length < 200) return;
      }
    } catch { close(); }
  };
  const wake = () => { if (!scheduled && !closed) { scheduled = true; setImmediate(pump); } };
  const close = () => {
    if (closed) return;
    closed = true;
    for (const t of timers) clearInterval(t);
    unsub?.();
    o.onClose?.();
    try { ctrl.close(); } catch { /* already closed or cancelled */ }
  };
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      ctrl = c;
      send(`retry: 3000\n: connected; resume with Last-Event-ID\n\n`);
      unsub = onOutbox(wake);
      timers.push(setInterval(wake, o.pollMs ?? 1000));
      timers.push(setInterval(() => send(`: heartbeat ${new Date().toISOString()}\n\n`), o.heartbeatMs));
      const x = o.extra;
      if (x) {
        let busy = false;
        timers.push(setInterval(() => {
          if (busy || closed || (ctrl.desiredSize ?? 1) <= 0) return;
          busy = true;
          x.frame().then((f) => { if (f) send(f); }, () => {}).finally(() => { busy = false; });
        }, x.everyMs));
      }
      wake();
    },
    pull() { wake(); },
    cancel() { closed = true; for (const t of timers) clearInterval(t); unsub?.(); o.onClose?.(); },
  }, { highWaterMark: 16 });
  return { stream, close };
}
