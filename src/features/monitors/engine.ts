/**
 * The evaluation engine: every tick reads each check's condition, steps its state (normal → pending → firing →
 * normal), and on a change records the alert, emits `alert.firing`/`alert.resolved` into the outbox (webhooks and the
 * event stream, in the same transaction) and queues e-mail/Telegram notifications unless snoozed or in quiet hours.
 * States live in SQLite, so a restart resumes pending and firing checks where they were.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { iso } from '../../kernel/clock';
import { newId } from '../../kernel/ids';
import { MonitorStore, type AlertRow, type MonitorRow, type StateRow } from './store';
import { Sources, type StatsCache } from './sources';
import { step, type Verdict } from './state';
import { muteReason, type Quiet } from './quiet';
import { checkKey, type StoredCheck } from './checks';
import { NoticeStore } from './notify/queue';
import type { NoticeKind } from './notify/texts';
import { DestinationStore } from './destinations/store';
import { grabLastFrame, type FrameSource } from './frame';

/** What one tick did (for tests and the benchmark); `pending`: monitors with a pending check and when its period ends (ms). */
export interface TickResult { checks: number; fired: number; resolved: number; notices: number; ms: number; nextDue: number | null; pending: Map<string, number> }

/** Which monitors a tick evaluates: all, or those with these ids or targeting these ids. */
export type TickScope = 'all' | Set<string>;

/** The engine of one app. `tick(now)` is safe to call directly (tests with an injected clock). */
export class MonitorEngine {
  private store: MonitorStore;
  private notices: NoticeStore;
  private dests: DestinationStore;
  private zones = new Map<string, Intl.DateTimeFormat>();
  private statsCache: StatsCache = new Map();
  private running: Promise<TickResult> | null = null;
  /** Thumbnails to grab once the tick's transaction committed. */
  private grabs: { tenantId: string; alertId: string; src: FrameSource }[] = [];
  private grabbing = new Set<string>();
  /** A tick asked for while one runs: merged here and run right after it. */
  private queued: { scope: TickScope; done: Promise<TickResult> } | null = null;

  constructor(private ctx: AppContext) {
    this.store = new MonitorStore(ctx.db);
    this.notices = new NoticeStore(ctx.db);
    this.dests = new DestinationStore(ctx.db);
  }

  /**
   * Evaluates the monitors in `scope` (default all) once. Ticks never overlap: one asked for while another runs is
   * merged with any other waiting request and runs right after (with the time then, unless `now` was given).
   */
  tick(now?: number, scope: TickScope = 'all'): Promise<TickResult> {
    if (!this.running) {
      this.running = this.run(now ?? this.ctx.clock.now(), scope).finally(() => { this.running = null; });
      return this.running;
    }
    if (this.queued) {
      const q = this.queued.scope;
      this.queued.scope = q === 'all' || scope === 'all' ? 'all' : new Set([...q, ...scope]);
      return this.queued.done;
    }
    const q: { scope: TickScope; done: Promise<TickResult> } = { scope, done: null as unknown as Promise<TickResult> };
    q.done = this.running.catch(() => undefined).then(() => { this.queued = null; return this.tick(now, q.scope); });
    this.queued = q;
    return q.done;
  }

  private async run(now: number, scope: TickScope): Promise<TickResult> {
    const t0 = performance.now();
    const res: TickResult = { checks: 0, fired: 0, resolved: 0, notices: 0, ms: 0, nextDue: null, pending: new Map() };
    const monitors = this.store.all().filter((m) => scope === 'all' || scope.has(m.id) || (m.target_id !== null && scope.has(m.target_id)));
    if (!monitors.length) return res;
    const states = this.store.states();
    const src = new Sources(this.ctx, this.store, now, this.statsCache);
    // Read every condition first (some are asynchronous), then write all changes in one transaction.
    const evaluated: { m: MonitorRow; checks: StoredCheck[]; verdicts: Verdict[]; memos: Record<string, unknown>[] }[] = [];
    for (const m of monitors) {
      const checks = JSON.parse(m.checks) as StoredCheck[];
      const memos = checks.map((c, i) => {
        const s = states.get(`${m.id}/${i}`);
        return s && s.check_key === checkKey(c, m) && s.memo ? JSON.parse(s.memo) as Record<string, unknown> : {};
      });
      const verdicts = await Promise.all(checks.map((c, i) => src.evaluate(m, c, memos[i]).catch((e): Verdict => {
        this.ctx.log.warn('monitor check failed', { monitor: m.id, check: c.type, error: String(e) });
        return { holds: null, value: null, summary: 'evaluation failed', detail: {} };
      })));
      evaluated.push({ m, checks, verdicts, memos });
      res.checks += checks.length;
    }
    tx(this.ctx.db, () => {
      for (const { m, checks, verdicts, memos } of evaluated) {
        // The monitor may have changed or gone while conditions were read.
        const cur = this.store.get(m.tenant_id, m.id);
        if (!cur || cur.checks !== m.checks || cur.target_id !== m.target_id || cur.target_host !== m.target_host) continue;
        checks.forEach((c, i) => {
          const st = this.apply(cur, c, i, verdicts[i], memos[i], states.get(`${m.id}/${i}`) ?? null, now, res);
          // A pending check is due again when its period ends: the worker evaluates it then, not at the next period.
          if (st.state === 'pending') {
            const due = st.since + c.for_s * 1000;
            res.nextDue = Math.min(res.nextDue ?? Infinity, due);
            res.pending.set(m.id, Math.min(res.pending.get(m.id) ?? Infinity, due));
          }
        });
      }
    });
    res.ms = performance.now() - t0;
    for (const g of this.grabs.splice(0)) {
      if (this.grabbing.has(g.alertId)) continue;
      this.grabbing.add(g.alertId);
      void grabLastFrame(this.ctx, g.tenantId, g.alertId, g.src)
        .catch((e) => this.ctx.log.warn('alert thumbnail failed', { error: String(e) }))
        .finally(() => this.grabbing.delete(g.alertId));
    }
    return res;
  }

  /** Steps one check and writes what changed. */
  private apply(m: MonitorRow, c: StoredCheck, i: number, v: Verdict, memo: Record<string, unknown>, prev: StateRow | null, now: number, res: TickResult): StateRow {
    const key = checkKey(c, m);
    const fresh = !prev || prev.check_key !== key;
    if (fresh && prev?.alert_id && prev.state === 'firing') this.resolve(m, prev.alert_id, now, false, 'check changed');
    const base: StateRow = fresh ? { monitor_id: m.id, check_idx: i, check_key: key, state: 'normal', since: now, alert_id: null, last_notified_at: null, memo: null } : prev!;
    const s = step(base.state, base.since, v.holds, now, c.for_s * 1000);
    const next: StateRow = { ...base, state: s.state, since: s.since, memo: Object.keys(memo).length ? JSON.stringify(memo) : null };
    const quiet = m.quiet_hours ? JSON.parse(m.quiet_hours) as Quiet : null;
    const muted = muteReason({ snooze_until: m.snooze_until, quiet }, c.severity, now, this.zones);
    if (s.fire) {
      const a = this.fire(m, c, i, v, s.since, now, muted);
      next.alert_id = a.id;
      next.last_notified_at = null;
      res.fired++;
    } else if (s.resolve && base.alert_id) {
      this.resolve(m, base.alert_id, now, !!base.last_notified_at && !muted && !!m.notify_resolve, null, v);
      next.alert_id = null;
      res.resolved++;
    } else if (s.state === 'firing' && base.alert_id && v.holds) {
      this.refresh(m, base.alert_id, v);
    }
    // Notifications of a firing alert: the first once not muted (late after snooze or quiet hours), then every repeat_min.
    if (next.state === 'firing' && next.alert_id && !muted) {
      const due = next.last_notified_at === null ? 'firing' : m.repeat_min > 0 && now - next.last_notified_at >= m.repeat_min * 60_000 ? 'repeat' : null;
      if (due) {
        const n = this.notify(m, next.alert_id, due, now);
        // Without an active destination nothing was sent: the first one added later still gets the alert.
        if (n) { res.notices += n; next.last_notified_at = now; }
      }
    }
    if (fresh || next.state !== base.state || next.since !== base.since || next.alert_id !== base.alert_id || next.last_notified_at !== base.last_notified_at || next.memo !== base.memo) this.store.saveState(next);
    return next;
  }

  /** The alert's detail: the check's own, plus the thumbnail address when a last good frame exists. */
  private detailOf(m: MonitorRow, alertId: string, v: Verdict): Record<string, unknown> {
    if (!v.frame) return v.detail;
    this.grabs.push({ tenantId: m.tenant_id, alertId, src: v.frame });
    return { ...v.detail, thumbnail: `${this.ctx.config.baseUrl}/v1/alerts/${alertId}/thumbnail` };
  }

  private fire(m: MonitorRow, c: StoredCheck, i: number, v: Verdict, conditionAt: number, now: number, muted: string | null): AlertRow {
    const id = newId();
    const detail = this.detailOf(m, id, v);
    const a: Omit<AlertRow, 'seq'> = {
      id, tenant_id: m.tenant_id, monitor_id: m.id, monitor_name: m.name, check_idx: i, check_type: c.type, severity: c.severity,
      target_kind: m.target_kind, target_id: m.target_kind === 'site' ? m.target_host : m.target_id, state: 'firing', value: v.value, threshold: c.threshold,
      summary: v.summary, detail: JSON.stringify(detail), inapp: m.inapp, muted, notifications: 0, condition_at: conditionAt, started_at: now,
      resolved_at: null, acked_at: null, acked_by: null,
    };
    this.store.insertAlert(a);
    emitEvent(this.ctx.db, m.tenant_id, 'alert.firing', {
      alert: a.id, monitor: m.id, monitor_name: m.name, check: c.type, severity: c.severity, target_kind: m.target_kind, target_id: a.target_id,
      value: v.value, threshold: c.threshold, summary: v.summary, detail, since: iso(conditionAt), started_at: iso(now), muted, inapp: !!m.inapp,
    }, now);
    return { ...a, seq: 0 };
  }

  /** Keeps the firing alert's value and detail current (a recorder gap closes; a value moves). */
  private refresh(m: MonitorRow, alertId: string, v: Verdict): void {
    this.store.refreshAlert(alertId, v.value, v.summary, JSON.stringify(this.detailOf(m, alertId, v)));
  }

  private resolve(m: MonitorRow, alertId: string, now: number, notify: boolean, reason: string | null, v?: Verdict): void {
    const a = this.store.alert(alertId);
    if (!a || a.state !== 'firing') return;
    this.store.resolveAlert(alertId, now);
    emitEvent(this.ctx.db, m.tenant_id, 'alert.resolved', {
      alert: a.id, monitor: m.id, monitor_name: a.monitor_name, check: a.check_type, severity: a.severity, target_kind: a.target_kind, target_id: a.target_id,
      started_at: iso(a.started_at), resolved_at: iso(now), duration_s: Math.round((now - a.started_at) / 1000), detail: JSON.parse(a.detail), value: v?.value ?? null, ...(reason ? { reason } : {}),
    }, now);
    if (notify) this.notify(m, alertId, 'resolved', now);
  }

  /** Queues one notification per active destination of the monitor; returns how many. */
  private notify(m: MonitorRow, alertId: string, kind: NoticeKind, now: number): number {
    const ids = this.dests.many(m.tenant_id, JSON.parse(m.destinations) as string[]).filter((d) => d.status === 'active').map((d) => d.id);
    if (!ids.length) return 0;
    this.notices.enqueue(alertId, ids, kind, now);
    this.store.notified(alertId);
    return ids.length;
  }
}
