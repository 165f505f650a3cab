import type { Db } from '../../kernel/db/sqlite';

/** A monitor row (checks, destinations and quiet_hours as JSON text). */
export interface MonitorRow {
  seq: number; id: string; tenant_id: string; name: string; target_kind: string; target_id: string | null; target_host: string | null;
  checks: string; destinations: string; inapp: number; notify_resolve: number; repeat_min: number; quiet_hours: string | null;
  snooze_until: number | null; snooze_reason: string | null; created_at: number; updated_at: number;
}

/** Evaluation state of one check of a monitor. */
export interface StateRow {
  monitor_id: string; check_idx: number; check_key: string; state: 'normal' | 'pending' | 'firing'; since: number;
  alert_id: string | null; last_notified_at: number | null; memo: string | null;
}

/** An alert row. */
export interface AlertRow {
  seq: number; id: string; tenant_id: string; monitor_id: string; monitor_name: string; check_idx: number; check_type: string; severity: string;
  target_kind: string; target_id: string | null; state: 'firing' | 'resolved'; value: number | null; threshold: number | null; summary: string;
  detail: string; inapp: number; muted: string | null; notifications: number; condition_at: number; started_at: number;
  resolved_at: number | null; acked_at: number | null; acked_by: string | null;
}

/** SQL of monitors, their check states and alerts; the only place it lives (destinations: destinations/store.ts). */
export class MonitorStore {
  constructor(private db: Db) {}

  insert(r: Omit<MonitorRow, 'seq'>): void {
    this.db.query(`INSERT INTO monitors (id, tenant_id, name, target_kind, target_id, target_host, checks, destinations, inapp, notify_resolve, repeat_min, quiet_hours, snooze_until, snooze_reason, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(r.id, r.tenant_id, r.name, r.target_kind, r.target_id, r.target_host, r.checks, r.destinations, r.inapp, r.notify_resolve, r.repeat_min, r.quiet_hours, r.snooze_until, r.snooze_reason, r.created_at, r.updated_at);
  }

  update(r: MonitorRow): void {
    this.db.query(`UPDATE monitors SET name = ?, target_kind = ?, target_id = ?, target_host = ?, checks = ?, destinations = ?, inapp = ?, notify_resolve = ?,
      repeat_min = ?, quiet_hours = ?, snooze_until = ?, snooze_reason = ?, updated_at = ? WHERE id = ?`)
      .run(r.name, r.target_kind, r.target_id, r.target_host, r.checks, r.destinations, r.inapp, r.notify_resolve, r.repeat_min, r.quiet_hours, r.snooze_until, r.snooze_reason, r.updated_at, r.id);
  }

  get(tenantId: string, id: string): MonitorRow | null {
    return this.db.query<MonitorRow, [string, string]>('SELECT * FROM monitors WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  delete(id: string): void {
    this.db.query('DELETE FROM monitor_states WHERE monitor_id = ?').run(id);
    this.db.query('DELETE FROM monitors WHERE id = ?').run(id);
  }

  count(tenantId: string): number {
    return this.db.query<{ n: number }, [string]>('SELECT COUNT(*) AS n FROM monitors WHERE tenant_id = ?').get(tenantId)!.n;
  }

  /** How many of a tenant's monitors watch this target. */
  countFor(tenantId: string, targetId: string): number {
    return this.db.query<{ n: number }, [string, string]>('SELECT COUNT(*) AS n FROM monitors WHERE tenant_id = ? AND target_id = ?').get(tenantId, targetId)!.n;
  }

  /** A tenant's monitors newest first below `beforeSeq`, `limit + 1` rows. */
  list(tenantId: string, beforeSeq: number | null, limit: number): MonitorRow[] {
    return this.db.query<MonitorRow, [string, number, number]>('SELECT * FROM monitors WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?')
      .all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1);
  }

  /** Every monitor of every tenant (the engine's tick). */
  all(): MonitorRow[] {
    return this.db.query<MonitorRow, []>('SELECT * FROM monitors ORDER BY seq').all();
  }

  /** Evaluation states of every check (the engine's tick), keyed by `monitor_id/check_idx`. */
  states(): Map<string, StateRow> {
    const m = new Map<string, StateRow>();
    for (const r of this.db.query<StateRow, []>('SELECT * FROM monitor_states').all()) m.set(`${r.monitor_id}/${r.check_idx}`, r);
    return m;
  }

  statesOf(monitorId: string): StateRow[] {
    return this.db.query<StateRow, [string]>('SELECT * FROM monitor_states WHERE monitor_id = ? ORDER BY check_idx').all(monitorId);
  }

  saveState(s: StateRow): void {
    this.db.query(`INSERT INTO monitor_states (monitor_id, check_idx, check_key, state, since, alert_id, last_notified_at, memo) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (monitor_id, check_idx) DO UPDATE SET check_key = excluded.check_key, state = excluded.state, since = excluded.since,
      alert_id = excluded.alert_id, last_notified_at = excluded.last_notified_at, memo = excluded.memo`)
      .run(s.monitor_id, s.check_idx, s.check_key, s.state, s.since, s.alert_id, s.last_notified_at, s.memo);
  }

  insertAlert(a: Omit<AlertRow, 'seq'>): void {
    this.db.query(`INSERT INTO alerts (id, tenant_id, monitor_id, monitor_name, check_idx, check_type, severity, target_kind, target_id, state, value, threshold, summary, detail, inapp, muted, notifications, condition_at, started_at, resolved_at, acked_at, acked_by)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(a.id, a.tenant_id, a.monitor_id, a.monitor_name, a.check_idx, a.check_type, a.severity, a.target_kind, a.target_id, a.state, a.value, a.threshold, a.summary, a.detail, a.inapp, a.muted, a.notifications, a.condition_at, a.started_at, a.resolved_at, a.acked_at, a.acked_by);
  }

  alert(id: string): AlertRow | null {
    return this.db.query<AlertRow, [string]>('SELECT * FROM alerts WHERE id = ?').get(id);
  }

  tenantAlert(tenantId: string, id: string): AlertRow | null {
    return this.db.query<AlertRow, [string, string]>('SELECT * FROM alerts WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** Updates a firing alert's current value, summary and detail. */
  refreshAlert(id: string, value: number | null, summary: string, detail: string): void {
    this.db.query('UPDATE alerts SET value = ?, summary = ?, detail = ? WHERE id = ?').run(value, summary, detail, id);
  }

  resolveAlert(id: string, at: number): void {
    this.db.query("UPDATE alerts SET state = 'resolved', resolved_at = ? WHERE id = ?").run(at, id);
  }

  /** Counts a notification round (firing, repeat or resolve) on an alert. */
  notified(id: string): void {
    this.db.query('UPDATE alerts SET notifications = notifications + 1 WHERE id = ?').run(id);
  }

  ack(id: string, at: number, by: string): void {
    this.db.query('UPDATE alerts SET acked_at = ?, acked_by = ? WHERE id = ? AND acked_at IS NULL').run(at, by, id);
  }

  /** A tenant's alerts newest first below `beforeSeq`, optionally one state or one monitor. */
  alerts(tenantId: string, beforeSeq: number | null, limit: number, state: string | null, monitorId: string | null): AlertRow[] {
    return this.db.query<AlertRow, [string, number, string | null, string | null, string | null, string | null, number]>(
      'SELECT * FROM alerts WHERE tenant_id = ? AND seq < ? AND (? IS NULL OR state = ?) AND (? IS NULL OR monitor_id = ?) ORDER BY seq DESC LIMIT ?',
    ).all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, state, state, monitorId, monitorId, limit + 1);
  }

  /** Outbox events of some types after `since` (ms) for a tenant (failover counting). */
  eventsSince(tenantId: string, type: string, since: number): { at: number; data: string }[] {
    return this.db.query<{ at: number; data: string }, [string, string, number]>('SELECT at, data FROM events WHERE tenant_id = ? AND type = ? AND at > ? ORDER BY seq')
      .all(tenantId, type, since);
  }

  /** Platform-wide facts for GET /v1/service-status (read-only counts over channels and the job queue). */
  layerFacts(now: number): { started: number; gaps: number; waiting: number; stale_jobs: number; failed_jobs: number; running_jobs: number } {
    const ch = this.db.query<{ started: number; gaps: number; waiting: number }, []>(
      "SELECT COUNT(*) AS started, COALESCE(SUM(recording = 'gap'), 0) AS gaps, COALESCE(SUM(status <> 'live'), 0) AS waiting FROM channels WHERE desired = 'started'",
    ).get()!;
    const jobs = this.db.query<{ stale_jobs: number; failed_jobs: number; running_jobs: number }, [number, number]>(
      `SELECT COALESCE(SUM(status = 'queued' AND run_at < ?), 0) AS stale_jobs, COALESCE(SUM(status = 'failed' AND finished_at > ?), 0) AS failed_jobs,
       COALESCE(SUM(status = 'running'), 0) AS running_jobs FROM jobs WHERE status IN ('queued', 'failed', 'running')`,
    ).get(now - 600_000, now - 3_600_000)!;
    return { ...ch, ...jobs };
  }
}
