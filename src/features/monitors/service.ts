/**
 * Monitors of a tenant: create (at most 100), read, change, delete, the basic preset, snooze. Alerts: history and
 * acknowledgement. Throws AppError.
 */
import { existsSync } from 'node:fs';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import type { Principal } from '../../kernel/http/auth';
import type { Page } from '../../kernel/http/pagination';
import { channelById } from '../channels/service';
import { AssetService } from '../assets/service';
import { BASIC_PRESET, LIMITS, type TargetKind } from './catalogue';
import { normaliseChecks, type CheckInput, type StoredCheck } from './checks';
import { validZone, type Quiet } from './quiet';
import { MonitorStore, type AlertRow, type MonitorRow } from './store';
import { DestinationService } from './destinations/service';
import { alertThumbPath } from './frame';

/** A monitor as sent (create) or changed (patch). */
export interface MonitorInput {
  name: string; target_kind: TargetKind; target_id?: string; target_host?: string; checks: CheckInput[]; destinations?: string[];
  inapp?: boolean; notify_resolve?: boolean; repeat_min?: number; quiet_hours?: { from: string; to: string; tz: string; allow_critical?: boolean } | null;
}

const SNOOZE_SLACK_MS = 5_000;
/** Seconds a scheduled programme may go without feed before the default watch fires. */
export const FEED_WATCH_FOR_S = 10;

/** Monitors and alerts of a tenant. */
export class MonitorService {
  readonly store: MonitorStore;
  private dests: DestinationService;
  constructor(private ctx: AppContext) { this.store = new MonitorStore(ctx.db); this.dests = new DestinationService(ctx); }

  private row(tenantId: string, id: string): MonitorRow {
    const r = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!r) throw notFound('monitor');
    return r;
  }

  /** Checks the target exists in the tenant (404 otherwise) and returns the stored target fields. */
  private target(tenantId: string, b: Pick<MonitorInput, 'target_kind' | 'target_id' | 'target_host'>): { target_id: string | null; target_host: string | null } {
    switch (b.target_kind) {
      case 'channel': case 'asset': {
        if (!b.target_id) throw invalid('target_id', `required for a ${b.target_kind} target`);
        if (b.target_kind === 'channel' ? !isUuid(b.target_id) || !channelById(this.ctx, tenantId, b.target_id) : !isUuid(b.target_id)) throw notFound(b.target_kind);
        if (b.target_kind === 'asset') new AssetService(this.ctx).get(tenantId, b.target_id);
        return { target_id: b.target_id, target_host: null };
      }
      case 'site': {
        const host = b.target_host?.trim().toLowerCase();
        if (!host || !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host)) throw invalid('target_host', 'a host name is required for a site target');
        return { target_id: b.target_id ?? null, target_host: host };
      }
      default: return { target_id: null, target_host: null };
    }
  }

  private quiet(q: MonitorInput['quiet_hours']): string | null {
    if (!q) return null;
    if (!validZone(q.tz)) throw invalid('quiet_hours.tz', `unknown IANA time zone "${q.tz}"`);
    const v: Quiet = { from: q.from, to: q.to, tz: q.tz, allow_critical: q.allow_critical ?? false };
    return JSON.stringify(v);
  }

  /** Creates a monitor (409 past 100 per tenant). */
  create(tenantId: string, b: MonitorInput) {
    const name = b.name.trim();
    if (!name) throw invalid('name', 'must not be blank');
    const target = this.target(tenantId, b);
    const checks = normaliseChecks(b.checks, b.target_kind);
    const destinations = [...new Set(b.destinations ?? [])];
    this.dests.assertKnown(tenantId, destinations);
    const quiet = this.quiet(b.quiet_hours);
    const now = this.ctx.clock.now();
    const id = newId();
    tx(this.ctx.db, () => {
      if (this.store.count(tenantId) >= LIMITS.monitors) throw new AppError('conflict', `at most ${LIMITS.monitors} monitors per tenant; delete one first`);
      this.store.insert({
        id, tenant_id: tenantId, name, target_kind: b.target_kind, ...target, checks: JSON.stringify(checks), destinations: JSON.stringify(destinations),
        inapp: b.inapp === false ? 0 : 1, notify_resolve: b.notify_resolve === false ? 0 : 1, repeat_min: b.repeat_min ?? 0, quiet_hours: quiet,
        snooze_until: null, snooze_reason: null, created_at: now, updated_at: now,
      });
    });
    return this.get(tenantId, id);
  }

  /** The basic preset for a channel: feed down, recorder gap, startup p95 and error rate. */
  preset(tenantId: string, b: { channel_id: string; destinations?: string[]; name?: string }) {
    const ch = isUuid(b.channel_id) ? channelById(this.ctx, tenantId, b.channel_id) : null;
    if (!ch) throw notFound('channel');
    return this.create(tenantId, { name: b.name ?? `${ch.name}: basic`, target_kind: 'channel', target_id: ch.id, checks: BASIC_PRESET.map((type) => ({ type })), destinations: b.destinations });
  }

  /**
   * The channel's default watch, made when a channel starts and nothing watches it yet (no monitor targets it): one
   * monitor named after the channel with a critical `feed_down` that holds only while a guide programme is scheduled
   * (`params.during_programme`) for FEED_WATCH_FOR_S, so a feed lost on air reaches the bell without noise between
   * programmes. Skipped (null) at the tenant's monitor limit. Admins change or delete it like any monitor; once deleted,
   * it comes back at the next start only if the channel is again unwatched.
   */
  ensureFeedWatch(tenantId: string, channelId: string): ReturnType<MonitorService['view']> | null {
    const ch = channelById(this.ctx, tenantId, channelId);
    if (!ch || this.store.countFor(tenantId, channelId) > 0 || this.store.count(tenantId) >= LIMITS.monitors) return null;
    return this.create(tenantId, { name: ch.name, target_kind: 'channel', target_id: ch.id, checks: [{ type: 'feed_down', for_s: FEED_WATCH_FOR_S, severity: 'critical', params: { during_programme: true } }] });
  }

  /** One monitor with the live state of each check. */
  get(tenantId: string, id: string) {
    const r = this.row(tenantId, id);
    return this.view(r);
  }

  private view(r: MonitorRow) {
    const states = this.store.statesOf(r.id);
    const checks = (JSON.parse(r.checks) as StoredCheck[]).map((c, i) => {
      const s = states.find((x) => x.check_idx === i);
      return { ...c, state: s?.state ?? 'normal', since: s ? iso(s.since) : null };
    });
    const snoozed = r.snooze_until !== null && r.snooze_until > this.ctx.clock.now();
    return {
      id: r.id, name: r.name, target_kind: r.target_kind, target_id: r.target_id, target_host: r.target_host, checks, destinations: JSON.parse(r.destinations) as string[],
      inapp: !!r.inapp, notify_resolve: !!r.notify_resolve, repeat_min: r.repeat_min, quiet_hours: r.quiet_hours ? JSON.parse(r.quiet_hours) as Quiet : null,
      snooze: snoozed ? { until: iso(r.snooze_until!), reason: r.snooze_reason } : null, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
    };
  }

  /** The tenant's monitors, newest first. */
  list(tenantId: string, limit: number, cursor?: string): Page<ReturnType<MonitorService['view']>> {
    const scope = `monitors:${tenantId}`;
    const before = cursor ? this.ctx.cursors.decode(scope, cursor) : null;
    return this.ctx.cursors.page(scope, this.store.list(tenantId, before, limit), limit, (r) => this.view(r));
  }

  /** Changes any field; changed checks start again from normal (their firing alerts resolve). */
  patch(tenantId: string, id: string, b: Partial<MonitorInput>) {
    const r = this.row(tenantId, id);
    const kind = (b.target_kind ?? r.target_kind) as TargetKind;
    const next: MonitorRow = { ...r, updated_at: this.ctx.clock.now() };
    if (b.name !== undefined) { next.name = b.name.trim(); if (!next.name) throw invalid('name', 'must not be blank'); }
    if (b.target_kind !== undefined || b.target_id !== undefined || b.target_host !== undefined) {
      Object.assign(next, { target_kind: kind, ...this.target(tenantId, { target_kind: kind, target_id: b.target_id ?? r.target_id ?? undefined, target_host: b.target_host ?? r.target_host ?? undefined }) });
    }
    if (b.checks !== undefined || b.target_kind !== undefined) next.checks = JSON.stringify(normaliseChecks(b.checks ?? JSON.parse(r.checks) as CheckInput[], kind));
    if (b.destinations !== undefined) { const d = [...new Set(b.destinations)]; this.dests.assertKnown(tenantId, d); next.destinations = JSON.stringify(d); }
    if (b.inapp !== undefined) next.inapp = b.inapp ? 1 : 0;
    if (b.notify_resolve !== undefined) next.notify_resolve = b.notify_resolve ? 1 : 0;
    if (b.repeat_min !== undefined) next.repeat_min = b.repeat_min;
    if (b.quiet_hours !== undefined) next.quiet_hours = this.quiet(b.quiet_hours);
    this.store.update(next);
    return this.view(next);
  }

  /** Deletes a monitor; its firing alerts resolve (`reason: "monitor deleted"`) and stay in the history. */
  remove(tenantId: string, id: string): void {
    const r = this.row(tenantId, id);
    const now = this.ctx.clock.now();
    tx(this.ctx.db, () => {
      for (const s of this.store.statesOf(r.id)) {
        const a = s.alert_id ? this.store.alert(s.alert_id) : null;
        if (!a || a.state !== 'firing') continue;
        this.store.resolveAlert(a.id, now);
        emitEvent(this.ctx.db, tenantId, 'alert.resolved', {
          alert: a.id, monitor: r.id, monitor_name: a.monitor_name, check: a.check_type, severity: a.severity, target_kind: a.target_kind, target_id: a.target_id,
          started_at: iso(a.started_at), resolved_at: iso(now), duration_s: Math.round((now - a.started_at) / 1000), detail: JSON.parse(a.detail), value: null, reason: 'monitor deleted',
        }, now);
      }
      this.store.delete(r.id);
    });
  }

  /** Mutes notifications for `minutes` or `until` (1 minute to 7 days); alerts are still recorded. */
  snooze(tenantId: string, id: string, b: { minutes?: number; until?: string; reason?: string }) {
    const r = this.row(tenantId, id);
    const now = this.ctx.clock.now();
    if ((b.minutes === undefined) === (b.until === undefined)) throw invalid('minutes', 'give exactly one of minutes or until');
    let until: number;
    if (b.minutes !== undefined) {
      if (!Number.isInteger(b.minutes) || b.minutes < LIMITS.snoozeMinMin || b.minutes > LIMITS.snoozeMaxMin) throw invalid('minutes', `${LIMITS.snoozeMinMin} to ${LIMITS.snoozeMaxMin} (1 minute to 7 days)`);
      until = now + b.minutes * 60_000;
    } else {
      until = Date.parse(b.until!);
      if (!Number.isFinite(until)) throw invalid('until', 'an RFC 3339 time');
      const ms = until - now;
      if (ms < LIMITS.snoozeMinMin * 60_000 - SNOOZE_SLACK_MS || ms > LIMITS.snoozeMaxMin * 60_000 + SNOOZE_SLACK_MS) throw invalid('until', 'between 1 minute and 7 days from now');
    }
    const next = { ...r, snooze_until: until, snooze_reason: b.reason?.trim() || null, updated_at: now };
    this.store.update(next);
    return this.view(next);
  }

  /** Lifts a snooze (lifting none changes nothing). */
  unsnooze(tenantId: string, id: string) {
    const r = this.row(tenantId, id);
    const next = { ...r, snooze_until: null, snooze_reason: null, updated_at: this.ctx.clock.now() };
    this.store.update(next);
    return this.view(next);
  }

  /** Alert history newest first, optionally only firing/resolved or one monitor. */
  alerts(tenantId: string, o: { limit: number; cursor?: string; state?: string; monitor_id?: string }): Page<ReturnType<typeof alertView>> {
    const scope = `alerts:${tenantId}:${o.state ?? ''}:${o.monitor_id ?? ''}`;
    const before = o.cursor ? this.ctx.cursors.decode(scope, o.cursor) : null;
    return this.ctx.cursors.page(scope, this.store.alerts(tenantId, before, o.limit, o.state ?? null, o.monitor_id ?? null), o.limit, alertView);
  }

  /** Path of an alert's thumbnail (404 for other tenants' alerts and while there is none). */
  thumbnail(tenantId: string, id: string): string {
    const a = isUuid(id) ? this.store.tenantAlert(tenantId, id) : null;
    if (!a) throw notFound('alert');
    const file = alertThumbPath(this.ctx, tenantId, a.id);
    if (!existsSync(file)) throw notFound('alert thumbnail');
    return file;
  }

  /** Acknowledges an alert (a second acknowledgement keeps the first). */
  ack(p: Principal, id: string) {
    const a = isUuid(id) ? this.store.tenantAlert(p.tenantId, id) : null;
    if (!a) throw notFound('alert');
    this.store.ack(a.id, this.ctx.clock.now(), p.kind === 'session' ? `user:${p.userId}` : `key:${p.keyId}`);
    return alertView(this.store.alert(a.id)!);
  }
}

/** The API view of an alert. */
export function alertView(a: AlertRow) {
  return {
    id: a.id, monitor_id: a.monitor_id, monitor_name: a.monitor_name, check: a.check_type, severity: a.severity, target_kind: a.target_kind, target_id: a.target_id,
    state: a.state, value: a.value, threshold: a.threshold, summary: a.summary, detail: JSON.parse(a.detail) as Record<string, unknown>, inapp: !!a.inapp, muted: a.muted,
    notifications: a.notifications, started_at: iso(a.started_at), resolved_at: a.resolved_at === null ? null : iso(a.resolved_at),
    acked_at: a.acked_at === null ? null : iso(a.acked_at), acked_by: a.acked_by,
  };
}
