/** SQL of guide publishing destinations and their delivery log (migration 0200); credentials and pull tokens sealed. */
import type { Db } from '../../kernel/db/sqlite';
import { sealerOf } from '../../kernel/secrets/seal';

/** A destination row (credentials and pull token still sealed). */
export interface DestinationRow {
  seq: number; id: string; tenant_id: string; name: string; kind: string; format: string; config: string; credentials: string | null;
  channels: string; days_behind: number; days_ahead: number; timezone: string; retries: number; retry_delay_s: number;
  pull_token: string; enabled: number; created_at: number; updated_at: number;
}

/** One delivery attempt as logged. */
export interface DeliveryRow {
  seq: number; id: string; destination_id: string; delivery: string; attempt: number; trigger: string; status: string;
  detail: string | null; bytes: number | null; ms: number | null; next_at: number | null; at: number;
}

/** Guide destinations and deliveries. */
export class DestinationStore {
  constructor(private db: Db) {}

  insert(r: Omit<DestinationRow, 'seq'>): void {
    const s = sealerOf(this.db);
    this.db.query(`INSERT INTO guide_destinations (id, tenant_id, name, kind, format, config, credentials, channels, days_behind, days_ahead, timezone,
      retries, retry_delay_s, pull_token, enabled, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
      .run(r.id, r.tenant_id, r.name, r.kind, r.format, r.config, r.credentials === null ? null : s.seal(r.credentials), r.channels, r.days_behind,
        r.days_ahead, r.timezone, r.retries, r.retry_delay_s, s.seal(r.pull_token), r.enabled, r.created_at, r.updated_at);
  }

  get(tenantId: string, id: string): DestinationRow | null {
    return this.db.query<DestinationRow, [string, string]>('SELECT * FROM guide_destinations WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  byId(id: string): DestinationRow | null {
    return this.db.query<DestinationRow, [string]>('SELECT * FROM guide_destinations WHERE id = ?').get(id);
  }

  list(tenantId: string): DestinationRow[] {
    return this.db.query<DestinationRow, [string]>('SELECT * FROM guide_destinations WHERE tenant_id = ? ORDER BY seq').all(tenantId);
  }

  /** Enabled push destinations of a tenant (every kind but `pull`). */
  pushTargets(tenantId: string): DestinationRow[] {
    return this.db.query<DestinationRow, [string]>("SELECT * FROM guide_destinations WHERE tenant_id = ? AND enabled = 1 AND kind <> 'pull' ORDER BY seq").all(tenantId);
  }

  /** Changes columns (`credentials` and `pull_token` are sealed here). */
  update(id: string, f: Partial<Omit<DestinationRow, 'seq' | 'id' | 'tenant_id'>>): void {
    const s = sealerOf(this.db);
    const cols = Object.keys(f);
    if (!cols.length) return;
    const vals = cols.map((k) => {
      const v = (f as Record<string, string | number | null>)[k];
      return (k === 'credentials' || k === 'pull_token') && v !== null ? s.seal(String(v)) : v;
    });
    this.db.query(`UPDATE guide_destinations SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(...(vals as never[]), id);
  }

  delete(id: string): void { this.db.query('DELETE FROM guide_destinations WHERE id = ?').run(id); }

  /** The opened credentials of a row. */
  credentials(r: DestinationRow): Record<string, string> {
    return r.credentials ? JSON.parse(sealerOf(this.db).open(r.credentials)) as Record<string, string> : {};
  }

  /** The opened pull token of a row. */
  pullToken(r: DestinationRow): string { return sealerOf(this.db).open(r.pull_token); }

  log(d: Omit<DeliveryRow, 'seq'>): void {
    this.db.query('INSERT INTO guide_deliveries (id, destination_id, delivery, attempt, trigger, status, detail, bytes, ms, next_at, at) VALUES (?,?,?,?,?,?,?,?,?,?,?)')
      .run(d.id, d.destination_id, d.delivery, d.attempt, d.trigger, d.status, d.detail, d.bytes, d.ms, d.next_at, d.at);
  }

  /** The newest `limit` attempts of a destination, newest first. */
  deliveries(destinationId: string, limit: number): DeliveryRow[] {
    return this.db.query<DeliveryRow, [string, number]>('SELECT * FROM guide_deliveries WHERE destination_id = ? ORDER BY seq DESC LIMIT ?').all(destinationId, limit);
  }

  /** Keeps the newest `keep` log rows of a destination. */
  trim(destinationId: string, keep: number): void {
    this.db.query('DELETE FROM guide_deliveries WHERE destination_id = ? AND seq <= (SELECT seq FROM guide_deliveries WHERE destination_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)')
      .run(destinationId, destinationId, keep);
  }

  /** True when a first-attempt delivery job of the destination is still waiting to run (a newer publish rides on it). */
  hasQueued(destinationId: string): boolean {
    return this.db.query<{ x: number }, [string]>("SELECT 1 AS x FROM jobs WHERE type = 'guide.deliver' AND status = 'queued' AND subject_kind = 'guide_destination' AND subject_id = ? LIMIT 1")
      .get(destinationId) !== null;
  }
}
