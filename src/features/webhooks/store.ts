import type { Db } from '../../kernel/db/sqlite';
import { sealerOf } from '../../kernel/secrets/seal';

/** A webhook endpoint row (`events` is a JSON array; `secret` is needed in clear to sign deliveries). */
export interface EndpointRow {
  seq: number; id: string; tenant_id: string; url: string; events: string; secret: string; enabled: number;
  from_seq: number; created_at: number; updated_at: number;
}
/** What fan-out needs of an endpoint (no secret: nothing is signed there). */
export type FanOutTarget = Pick<EndpointRow, 'id' | 'events' | 'from_seq'>;
/** A delivery row: one event to one endpoint, stable id across retries. */
export interface DeliveryRow {
  seq: number; id: string; tenant_id: string; endpoint_id: string; event_seq: number; event_id: string; event_type: string;
  status: string; attempts: number; round_base: number; next_at: number | null; last_code: number | null;
  last_error: string | null; last_at: number | null; delivered_at: number | null; created_at: number;
}
/** A due delivery joined with the event it carries. */
export interface DueDelivery {
  seq: number; id: string; endpoint_id: string; tenant_id: string; attempts: number; round_base: number;
  event_id: string; event_type: string; event_at: number; event_data: string;
}
/** The outcome of one attempt, applied in a batch. */
export interface AttemptResult {
  seq: number; id: string; ok: boolean; code: number | null; error: string | null; at: number; nextAt: number | null; dead: boolean;
}

let version = 0;
/** Bumped whenever endpoints change, so the dispatcher reloads its endpoint cache. */
export function endpointsVersion(): number { return version; }

/** SQL for webhook endpoints and deliveries; the only place webhook SQL lives. */
export class WebhookStore {
  constructor(private db: Db) {}

  /** The row with its secret opened (stored sealed under the master key). */
  private opened<T extends EndpointRow | null>(e: T): T {
    if (e) e.secret = sealerOf(this.db).open(e.secret);
    return e;
  }

  insertEndpoint(e: Omit<EndpointRow, 'seq'>): void {
    this.db.query(`INSERT INTO webhook_endpoints (id, tenant_id, url, events, secret, enabled, from_seq, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(e.id, e.tenant_id, e.url, e.events, sealerOf(this.db).seal(e.secret), e.enabled, e.from_seq, e.created_at, e.updated_at);
    version++;
  }

  endpoint(tenantId: string, id: string): EndpointRow | null {
    return this.opened(this.db.query<EndpointRow, [string, string]>('SELECT * FROM webhook_endpoints WHERE tenant_id = ? AND id = ?').get(tenantId, id));
  }

  /** Endpoints of a tenant, newest first, before `beforeSeq`, `limit + 1` rows. */
  listEndpoints(tenantId: string, beforeSeq: number | null, limit: number): EndpointRow[] {
    return this.db.query<EndpointRow, [string, number, number]>(
      'SELECT * FROM webhook_endpoints WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
    ).all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1).map((e) => this.opened(e));
  }

  countEndpoints(tenantId: string): number {
    return this.db.query<{ n: number }, [string]>('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE tenant_id = ?').get(tenantId)!.n;
  }

  updateEndpoint(tenantId: string, id: string, patch: { url?: string; events?: string; enabled?: number }, at: number): void {
    const e = this.endpoint(tenantId, id);
    if (!e) return;
    this.db.query('UPDATE webhook_endpoints SET url = ?, events = ?, enabled = ?, updated_at = ? WHERE id = ?')
      .run(patch.url ?? e.url, patch.events ?? e.events, patch.enabled ?? e.enabled, at, id);
    version++;
  }

  deleteEndpoint(tenantId: string, id: string): boolean {
    const n = this.db.query('DELETE FROM webhook_endpoints WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes;
    version++;
    return n > 0;
  }

  /** Every enabled endpoint (the dispatcher's cache). */
  enabledEndpoints(): EndpointRow[] {
    return this.db.query<EndpointRow, []>('SELECT * FROM webhook_endpoints WHERE enabled = 1').all().map((e) => this.opened(e));
  }

  /** Enabled endpoints of a tenant (fan-out candidates), without their secrets (not opened: fan-out signs nothing). */
  tenantTargets(tenantId: string): FanOutTarget[] {
    return this.db.query<FanOutTarget, [string]>('SELECT id, events, from_seq FROM webhook_endpoints WHERE tenant_id = ? AND enabled = 1').all(tenantId);
  }

  /** Queues a delivery; a second row for the same (endpoint, event) is ignored. */
  insertDelivery(d: { id: string; tenant_id: string; endpoint_id: string; event_seq: number; event_id: string; event_type: string; at: number }): void {
    this.db.query(`INSERT OR IGNORE INTO webhook_deliveries (id, tenant_id, endpoint_id, event_seq, event_id, event_type, status, next_at, created_at)
      VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`).run(d.id, d.tenant_id, d.endpoint_id, d.event_seq, d.event_id, d.event_type, d.at, d.at);
  }

  /**
   * Seqs of at least `limit` deliveries of one endpoint due at `now` (when there are), oldest due first: read from the
   * due index alone (no row, no event), so skipping the ones already in flight costs almost nothing. The LIMIT is a
   * literal power of two: binding a new LIMIT value re-prepares the statement (~10 us a call, measured).
   */
  dueSeqs(endpointId: string, now: number, limit: number): number[] {
    const n = 2 ** Math.ceil(Math.log2(Math.max(16, Math.min(limit, 1 << 20))));
    return this.db.query<[number], [string, number]>(
      `SELECT seq FROM webhook_deliveries WHERE endpoint_id = ? AND next_at IS NOT NULL AND next_at <= ? ORDER BY next_at, seq LIMIT ${n}`,
    ).values(endpointId, now).map((r) => r[0] as number);
  }

  /** A delivery by seq (from `dueSeqs`) with its event; null when it is gone. */
  dueRow(seq: number): DueDelivery | null {
    return this.db.query<DueDelivery, [number]>(
      `SELECT d.seq, d.id, d.endpoint_id, d.tenant_id, d.attempts, d.round_base, e.id AS event_id, e.type AS event_type,
              e.at AS event_at, e.data AS event_data
       FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq WHERE d.seq = ?`,
    ).get(seq);
  }

  /** The earliest pending due time across enabled endpoints (null when nothing waits). */
  nextDueAt(): number | null {
    return this.db.query<{ t: number | null }, []>(
      `SELECT MIN(d.next_at) AS t FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
       WHERE w.enabled = 1 AND d.next_at IS NOT NULL`,
    ).get()?.t ?? null;
  }

  /** Applies attempt outcomes (call inside one transaction). */
  applyResult(r: AttemptResult): void {
    if (r.ok) {
      this.db.query(`UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, next_at = NULL, last_code = ?,
        last_error = NULL, last_at = ?, delivered_at = ? WHERE seq = ?`).run(r.code, r.at, r.at, r.seq);
    } else {
      this.db.query(`UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_at = ?, last_code = ?, last_error = ?,
        last_at = ? WHERE seq = ?`).run(r.dead ? 'dead' : 'failed', r.nextAt, r.code, r.error, r.at, r.seq);
    }
  }

  delivery(endpointId: string, id: string): DeliveryRow | null {
    return this.db.query<DeliveryRow, [string, string]>('SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND id = ?').get(endpointId, id);
  }

  /** Deliveries of an endpoint, newest first, optionally by status, `limit + 1` rows. */
  listDeliveries(endpointId: string, status: string | null, beforeSeq: number | null, limit: number): DeliveryRow[] {
    return this.db.query<DeliveryRow, [string, string | null, string | null, number, number]>(
      `SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND (? IS NULL OR status = ?) AND seq < ? ORDER BY seq DESC LIMIT ?`,
    ).all(endpointId, status, status, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1);
  }

  /** Makes a delivery due now with a fresh retry budget (same delivery id). */
  redeliver(id: string, now: number): void {
    this.db.query(`UPDATE webhook_deliveries SET status = 'pending', next_at = ?, round_base = attempts WHERE id = ?`).run(now, id);
  }
}
