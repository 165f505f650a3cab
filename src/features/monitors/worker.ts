/**
 * Starts the monitor engine for the app: every `alerts.evalMs` (default 10 s) a full evaluation; at once for the
 * monitors of a channel whose feed, ingest or recording changed (outbox events); and when a pending period ends.
 * Also the notification sender (every second) and the Telegram linker (every 2 s while a chat waits).
 */
import type { AppContext } from '../../kernel/context';
import { eventsAfter, onOutbox } from '../../kernel/events/outbox';
import { outboxHead } from '../../kernel/events/cursors';
import { MonitorEngine, type TickResult, type TickScope } from './engine';
import { Notifier } from './notify/notifier';

/** Outbox events that change a channel check's condition. */
const CHANNEL_EVENTS = new Set(['channel.feed_changed', 'channel.ingest_failover', 'channel.recording_status']);

/** The running monitor workers of one app. */
export interface MonitorWorkers { engine: MonitorEngine; notifier: Notifier }

/** Schedules evaluation and delivery; stops on shutdown. */
export function startMonitorWorkers(ctx: AppContext): MonitorWorkers {
  const engine = new MonitorEngine(ctx);
  const notifier = new Notifier(ctx);
  const log = (what: string) => (e: unknown) => ctx.log.error(`monitors: ${what} failed`, { error: String(e) });
  let stopped = false;
  const send = () => { if (!stopped) notifier.pass().catch(log('sending notifications')); };

  // Pending periods: monitor id → when its earliest pending check is due; one timer for the earliest of them.
  const due = new Map<string, number>();
  let dueTimer: ReturnType<typeof setTimeout> | null = null;
  let dueAt = Infinity;
  const arm = () => {
    const next = Math.min(...due.values());
    if (next === dueAt && dueTimer) return;
    if (dueTimer) clearTimeout(dueTimer);
    dueTimer = null; dueAt = next;
    if (!Number.isFinite(next)) return;
    dueTimer = setTimeout(() => {
      dueTimer = null; dueAt = Infinity;
      const now = ctx.clock.now(), ids = new Set<string>();
      for (const [id, at] of due) if (at <= now + 5) { ids.add(id); due.delete(id); }
      if (ids.size) run(ids); else arm();
    }, Math.max(20, next - ctx.clock.now() + 5));
  };
  const after = (scope: TickScope) => (r: TickResult) => {
    if (r.notices) send();
    // The evaluated monitors' pending deadlines replace what was known of them.
    if (scope === 'all') due.clear(); else for (const id of [...due.keys()]) if (scope.has(id)) due.delete(id);
    for (const [id, at] of r.pending) due.set(id, at);
    arm();
  };
  const run = (scope: TickScope) => { if (!stopped) engine.tick(undefined, scope).then(after(scope)).catch(log('evaluation')); };

  const evalTimer = setInterval(() => run('all'), Math.max(100, ctx.config.alerts.evalMs));
  // Channel events: evaluate that channel's monitors now (feed down is known within the ingest's own detection time).
  let seq = outboxHead(ctx.db);
  let scheduled = false;
  const pending = new Set<string>();
  // One batch of 500 new events per turn of the event loop: a burst of thousands (one transaction of many events)
  // is read over several turns instead of one long block (the webhook bench's burst phase stalled the loop here).
  const drain = () => {
    if (stopped) { scheduled = false; return; } // scheduled just before shutdown closed the database
    const evs = eventsAfter(ctx.db, seq, 500);
    for (const e of evs) {
      seq = e.seq;
      const id = (e.data as { channel_id?: string } | null)?.channel_id;
      if (CHANNEL_EVENTS.has(e.type) && id) pending.add(id);
    }
    if (evs.length === 500) { setImmediate(drain); return; }
    scheduled = false;
    if (pending.size) { const ids = new Set(pending); pending.clear(); run(ids); }
  };
  const unsubscribe = onOutbox(() => {
    if (scheduled || stopped) return;
    scheduled = true;
    setTimeout(drain, 20);
  });
  // Retries and notifications queued while muted become due on their own: look every second.
  const sendTimer = setInterval(send, Math.min(1000, Math.max(100, ctx.config.alerts.evalMs)));
  const tgTimer = setInterval(() => { notifier.pollTelegram().catch(log('reading Telegram updates')); }, 2000);
  ctx.onStop(() => {
    stopped = true;
    unsubscribe();
    clearInterval(evalTimer); clearInterval(sendTimer); clearInterval(tgTimer);
    if (dueTimer) clearTimeout(dueTimer);
  });
  return { engine, notifier };
}
