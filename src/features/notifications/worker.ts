/**
 * Routes outbox events to people by their notification rules (inbox items, queued e-mail) and sends the e-mail
 * (retried after 30 s, 2 min, 10 min; then `failed`). The outbox position is the named cursor `notification-rules`;
 * a first start begins at the outbox head (no flood of old events).
 */
import type { AppContext } from '../../kernel/context';
import { createMailer } from '../../kernel/mail';
import { eventsAfter, onOutbox, type OutboxEvent } from '../../kernel/events/outbox';
import { outboxHead, setOutboxCursor } from '../../kernel/events/cursors';
import { newId } from '../../kernel/ids';
import { NotificationStore, type RuleRow } from './store';
import { deliveriesByPerson, eventFacts, matchingRules } from './match';

const CURSOR = 'notification-rules';
const RETRY_MS = [30_000, 120_000, 600_000];

/** Routes one batch of events into items (one transaction with the cursor move). */
export function routeEvents(ctx: AppContext, store: NotificationStore, events: OutboxEvent[]): number {
  let n = 0;
  const rulesOf = new Map<string, RuleRow[]>();
  ctx.db.transaction(() => {
    for (const e of events) {
      if (e.type === 'ping') continue;
      let rules = rulesOf.get(e.tenant_id);
      if (!rules) { rules = store.activeRules(e.tenant_id); rulesOf.set(e.tenant_id, rules); }
      if (!rules.length) continue;
      const f = eventFacts(e.type, e.data);
      for (const [user, d] of deliveriesByPerson(matchingRules(rules, e.type, f))) {
        const email = d.deliver.has('email');
        store.insertItem({
          id: newId(), tenant_id: e.tenant_id, user_id: user, event_id: e.id, event_seq: e.seq, type: e.type, severity: f.severity,
          channel_id: f.channel_id, title: f.title, data: JSON.stringify(e.data ?? null), rule_ids: JSON.stringify(d.rules),
          in_inbox: d.deliver.has('inbox') ? 1 : 0, read_at: null, mail_status: email ? 'pending' : null, mail_attempts: 0,
          mail_next_at: email ? ctx.clock.now() : null, mail_error: null, created_at: e.at,
        });
        n++;
      }
    }
    if (events.length) setOutboxCursor(ctx.db, CURSOR, events[events.length - 1].seq);
  })();
  return n;
}

/** The e-mail of one routed event. */
export function mailText(i: { type: string; severity: string; title: string; data: string; created_at: number }, baseUrl: string): { subject: string; text: string } {
  return {
    subject: `[ViewStream] ${i.severity}: ${i.title}`.slice(0, 250),
    text: `${i.title}\n\nEvent: ${i.type}\nSeverity: ${i.severity}\nAt: ${new Date(i.created_at).toISOString()}\n\n${i.data}\n\nInbox: ${baseUrl}/studio/inbox\n`,
  };
}

/** Starts routing and sending; stops on shutdown. */
export function startNotificationWorker(ctx: AppContext): void {
  const store = new NotificationStore(ctx.db);
  const mailer = createMailer(ctx.config, ctx.log);
  const known = ctx.db.query<{ seq: number }, [string]>('SELECT seq FROM outbox_cursors WHERE name = ?').get(CURSOR);
  let seq = known?.seq ?? outboxHead(ctx.db);
  if (!known) setOutboxCursor(ctx.db, CURSOR, seq);
  let stopped = false, scheduled = false, sending = false;
  const send = async () => {
    if (sending || stopped) return;
    sending = true;
    try {
      for (const i of store.dueMails(ctx.clock.now())) {
        const to = store.emailOf(i.user_id);
        try {
          if (!to) throw new Error('the person has no active address');
          await mailer.send({ to, ...mailText(i, ctx.config.baseUrl) });
          if (stopped) return; // shut down while sending: the database is closed (the item is sent again after a restart)
          store.mailSent(i.id);
        } catch (e) {
          if (stopped) return;
          const attempts = i.mail_attempts + 1;
          store.mailFailed(i.id, attempts, String((e as Error).message ?? e), attempts > RETRY_MS.length ? null : ctx.clock.now() + RETRY_MS[attempts - 1]);
          ctx.log.warn('notification e-mail failed', { item: i.id, error: String(e) });
        }
      }
    } finally { sending = false; }
  };
  const drain = () => {
    scheduled = false;
    if (stopped) return;
    try {
      const evs = eventsAfter(ctx.db, seq, 500);
      if (evs.length) { routeEvents(ctx, store, evs); seq = evs[evs.length - 1].seq; }
      if (evs.length === 500) { scheduled = true; setImmediate(drain); return; }
    } catch (e) { ctx.log.error('notifications: routing failed', { error: String(e) }); }
    void send();
  };
  const wake = () => { if (!scheduled && !stopped) { scheduled = true; setTimeout(drain, 20); } };
  const unsubscribe = onOutbox(wake);
  const timer = setInterval(wake, 1000);
  ctx.onStop(() => { stopped = true; unsubscribe(); clearInterval(timer); });
}
