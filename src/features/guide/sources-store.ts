/** SQL of EPG sources and their fetch log (migration 0198). */
import type { Db } from '../../kernel/db/sqlite';

/** An EPG source row. */
export interface SourceRow {
  seq: number; id: string; tenant_id: string; channel_id: string; url: string; xmltv_channel: string | null; interval_s: number;
  auto_publish: number; enabled: number; etag: string | null; last_modified: string | null; content_hash: string | null;
  next_fetch_at: number; last_fetch_at: number | null; last_status: string | null; last_error: string | null; created_at: number; updated_at: number;
}

/** One fetch as logged. */
export interface FetchLogRow {
  seq: number; source_id: string; at: number; trigger: string; status: string; http_status: number | null; items: number;
  changed: number; outcome: string | null; version: number | null; error: string | null; ms: number | null;
}

/** EPG sources and fetch log. */
export class SourceStore {
  constructor(private db: Db) {}

  insert(r: Omit<SourceRow, 'seq'>): void {
    this.db.query(`INSERT INTO guide_sources (id, tenant_id, channel_id, url, xmltv_channel, interval_s, auto_publish, enabled, etag, last_modified, content_hash,
      next_fetch_at, last_fetch_at, last_status, last_error, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
      .run(r.id, r.tenant_id, r.channel_id, r.url, r.xmltv_channel, r.interval_s, r.auto_publish, r.enabled, r.etag, r.last_modified, r.content_hash,
        r.next_fetch_at, r.last_fetch_at, r.last_status, r.last_error, r.created_at, r.updated_at);
  }

  get(tenantId: string, id: string): SourceRow | null {
    return this.db.query<SourceRow, [string, string]>('SELECT * FROM guide_sources WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  byId(id: string): SourceRow | null {
    return this.db.query<SourceRow, [string]>('SELECT * FROM guide_sources WHERE id = ?').get(id);
  }

  list(tenantId: string, channelId?: string): SourceRow[] {
    return channelId
      ? this.db.query<SourceRow, [string, string]>('SELECT * FROM guide_sources WHERE tenant_id = ? AND channel_id = ? ORDER BY seq').all(tenantId, channelId)
      : this.db.query<SourceRow, [string]>('SELECT * FROM guide_sources WHERE tenant_id = ? ORDER BY seq').all(tenantId);
  }

  /** Enabled sources due at `now`, oldest due first. */
  due(now: number, limit: number): SourceRow[] {
    return this.db.query<SourceRow, [number, number]>('SELECT * FROM guide_sources WHERE enabled = 1 AND next_fetch_at <= ? ORDER BY next_fetch_at LIMIT ?').all(now, limit);
  }

  update(id: string, f: Partial<Omit<SourceRow, 'seq' | 'id' | 'tenant_id'>>): void {
    const cols = Object.keys(f);
    if (!cols.length) return;
    this.db.query(`UPDATE guide_sources SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(...(cols.map((c) => (f as Record<string, string | number | null>)[c]) as never[]), id);
  }

  delete(id: string): void { this.db.query('DELETE FROM guide_sources WHERE id = ?').run(id); }

  log(r: Omit<FetchLogRow, 'seq'>): void {
    this.db.query('INSERT INTO guide_source_log (source_id, at, trigger, status, http_status, items, changed, outcome, version, error, ms) VALUES (?,?,?,?,?,?,?,?,?,?,?)')
      .run(r.source_id, r.at, r.trigger, r.status, r.http_status, r.items, r.changed, r.outcome, r.version, r.error, r.ms);
    this.db.query('DELETE FROM guide_source_log WHERE source_id = ? AND seq <= (SELECT seq FROM guide_source_log WHERE source_id = ? ORDER BY seq DESC LIMIT 1 OFFSET 500)').run(r.source_id, r.source_id);
  }

  logOf(sourceId: string, limit: number): FetchLogRow[] {
    return this.db.query<FetchLogRow, [string, number]>('SELECT * FROM guide_source_log WHERE source_id = ? ORDER BY seq DESC LIMIT ?').all(sourceId, limit);
  }
}
