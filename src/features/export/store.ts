/** Export destinations and their batches (migration 0181); credentials sealed like every other secret. */
import { sealerOf } from '../../kernel/secrets/seal';
import type { Db } from '../../kernel/db/sqlite';
import { lazyCommit } from '../../kernel/db/lazy-commit';

/** Kinds of destination. */
export type DestinationKind = 's3' | 'kafka' | 'https' | 'ga4';
/** Sources a batch is read from. */
export type BatchSource = 'platform' | 'player_events' | 'edge_requests';

/** A destination row (credentials still sealed). */
export interface DestinationRow {
  id: string; tenant_id: string; name: string; kind: DestinationKind; config: string; credentials: string | null;
  platform_events: string; stats_events: string; batch_events: number; batch_age_ms: number; enabled: number;
  platform_seq: number; player_ts: number; edge_ts: number; created_at: number; updated_at: number;
}

/** A batch row: the delivery log entry, retry state and (status dead) dead-letter entry. */
export interface BatchRow {
  seq: number; id: string; destination_id: string; source: BatchSource; range_from: number; range_to: number; replay: number;
  status: 'pending' | 'delivered' | 'dead'; events: number | null; bytes: number | null; attempts: number; next_at: number;
  last_error: string | null; latency_ms: number | null; created_at: number; updated_at: number; delivered_at: number | null;
  /** Attempts ever made (migration 0247; a replay resets `attempts`, not this): names a worker's attempt `export-<id>-<sends>`. */
  sends: number;
}

/** Reads and writes destinations and batches. */
export class ExportStore {
  constructor(readonly db: Db) {}

  /** Inserts a destination; `credentials` (JSON) is sealed. */
  insert(r: DestinationRow): void {
    this.db.query(`INSERT INTO export_destinations (id, tenant_id, name, kind, config, credentials, platform_events, stats_events, batch_events,
      batch_age_ms, enabled, platform_seq, player_ts, edge_ts, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(r.id, r.tenant_id, r.name, r.kind, r.config, r.credentials === null ? null : sealerOf(this.db).seal(r.credentials), r.platform_events,
        r.stats_events, r.batch_events, r.batch_age_ms, r.enabled, r.platform_seq, r.player_ts, r.edge_ts, r.created_at, r.updated_at);
  }

  /** One destination of a tenant, or null. */
  get(tenantId: string, id: string): DestinationRow | null {
    return this.db.query<DestinationRow, [string, string]>('SELECT * FROM export_destinations WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** A tenant's destinations, oldest first. */
  list(tenantId: string): DestinationRow[] {
    return this.db.query<DestinationRow, [string]>('SELECT * FROM export_destinations WHERE tenant_id = ? ORDER BY seq').all(tenantId);
  }

  /** Every destination (the worker's round). */
  all(): DestinationRow[] {
    return this.db.query<DestinationRow, []>('SELECT * FROM export_destinations ORDER BY seq').all();
  }

  /** The opened credentials JSON of a destination (null when it has none). */
  credentials(r: DestinationRow): Record<string, string> | null {
    return r.credentials === null ? null : JSON.parse(sealerOf(this.db).open(r.credentials)) as Record<string, string>;
  }

  /** Changes fields of a destination. */
  update(id: string, f: Partial<Pick<DestinationRow, 'name' | 'config' | 'platform_events' | 'stats_events' | 'batch_events' | 'batch_age_ms' | 'enabled'>> & { credentials?: string | null }, now: number): void {
    const sets: string[] = [], vals: (string | number | null)[] = [];
    for (const [k, v] of Object.entries(f)) {
      if (v === undefined) continue;
      sets.push(`${k} = ?`);
      vals.push(k === 'credentials' && v !== null ? sealerOf(this.db).seal(v as string) : v as string | number);
    }
    if (!sets.length) return;
    this.db.query(`UPDATE export_destinations SET ${sets.join(', ')}, updated_at = ? WHERE id = ?`).run(...vals, now, id);
  }

  /** Deletes a destination (its batches go with it). */
  delete(id: string): void {
    this.db.query('DELETE FROM export_destinations WHERE id = ?').run(id);
  }

  /**
   * Records a new batch and moves the destination's position past it, in one transaction (the batch row is the
   * durable record of the range until it is delivered or dead). Committed without waiting for the disk (lazyCommit: a
   * WAL fsync on the event loop took 120-280 ms while encodes wrote): a process crash loses nothing, and a power loss
   * can only take the position back to a range that is then cut again with the same deterministic batch id and the
   * same event ids (at-least-once, as documented).
   */
  createBatch(b: Pick<BatchRow, 'id' | 'destination_id' | 'source' | 'range_from' | 'range_to' | 'replay'>, position: { column: 'platform_seq' | 'player_ts' | 'edge_ts'; value: number } | null, now: number): void {
    lazyCommit(this.db, () => {
      this.db.query(`INSERT OR IGNORE INTO export_batches (id, destination_id, source, range_from, range_to, replay, status, attempts, next_at, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`).run(b.id, b.destination_id, b.source, b.range_from, b.range_to, b.replay, now, now, now);
      if (position) this.db.query(`UPDATE export_destinations SET ${position.column} = ? WHERE id = ?`).run(position.value, b.destination_id);
    });
  }

  /** The destination's oldest pending batch (the head: batches go out one at a time, in order). */
  head(destinationId: string): BatchRow | null {
    return this.db.query<BatchRow, [string]>(`SELECT * FROM export_batches WHERE destination_id = ? AND status = 'pending' ORDER BY seq LIMIT 1`).get(destinationId);
  }

  /** The destination's next pending batch after `seq` (the one read ahead while the head is sent). */
  nextAfter(destinationId: string, seq: number): BatchRow | null {
    return this.db.query<BatchRow, [string, number]>(`SELECT * FROM export_batches WHERE destination_id = ? AND status = 'pending' AND seq > ? ORDER BY seq LIMIT 1`).get(destinationId, seq);
  }

  /** Marks a batch delivered (lazily committed: lost only to a power loss, and then the batch is sent again). */
  delivered(id: string, o: { events: number; bytes: number; latencyMs: number }, now: number): void {
    lazyCommit(this.db, () => this.db.query(`UPDATE export_batches SET status = 'delivered', events = ?, bytes = ?, latency_ms = ?, attempts = attempts + 1, sends = sends + 1, last_error = NULL,
      delivered_at = ?, updated_at = ? WHERE id = ?`).run(o.events, o.bytes, o.latencyMs, now, now, id));
  }

  /** Records a failed attempt: retried at `nextAt`, or dead (the dead-letter queue) when `nextAt` is null. */
  failed(id: string, o: { events: number; bytes: number; error: string; latencyMs: number }, nextAt: number | null, now: number): void {
    this.db.query(`UPDATE export_batches SET status = ?, events = ?, bytes = ?, latency_ms = ?, attempts = attempts + 1, sends = sends + 1, last_error = ?, next_at = ?, updated_at = ? WHERE id = ?`)
      .run(nextAt === null ? 'dead' : 'pending', o.events, o.bytes, o.latencyMs, o.error.slice(0, 500), nextAt ?? now, now, id);
  }

  /** Batches of a destination, newest first (cursor: batch seq), optionally only one status. */
  batches(destinationId: string, o: { status?: string; before?: number; limit: number }): BatchRow[] {
    return this.db.query<BatchRow, [string, string | null, string | null, number, number]>(
      `SELECT * FROM export_batches WHERE destination_id = ? AND (? IS NULL OR status = ?) AND seq < ? ORDER BY seq DESC LIMIT ?`)
      .all(destinationId, o.status ?? null, o.status ?? null, o.before ?? Number.MAX_SAFE_INTEGER, o.limit);
  }

  /** One batch of a destination. */
  batch(destinationId: string, id: string): BatchRow | null {
    return this.db.query<BatchRow, [string, string]>('SELECT * FROM export_batches WHERE destination_id = ? AND id = ?').get(destinationId, id);
  }

  /** Puts a dead batch back in the queue (same id, so the same object key / message keys): a dead-letter replay. */
  requeue(id: string, now: number): void {
    this.db.query(`UPDATE export_batches SET status = 'pending', attempts = 0, next_at = ?, updated_at = ? WHERE id = ?`).run(now, now, id);
  }
}
