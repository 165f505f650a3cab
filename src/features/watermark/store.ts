import type { Db } from '../../kernel/db/sqlite';
import type { MarkedSession } from './sessions';

/** A trace row as stored. */
export interface TraceRow {
  seq: number; id: string; tenant_id: string; asset_id: string; source: 'upload' | 'url'; url: string | null; files: number; offset_s: number;
  /** 1: no offset was given, the job searches where the copy starts. */
  offset_search: number;
  status: 'queued' | 'running' | 'done' | 'failed'; progress: number; result: string | null; error: string | null;
  created_at: number; updated_at: number; finished_at: number | null;
}

/** SQL of the watermark feature: marked sessions and traces. */
export class WatermarkStore {
  constructor(private db: Db) {}

  /** Sessions issued for an asset while it was marked, oldest first (at most `limit`). */
  sessionsOf(tenantId: string, assetId: string, limit: number): MarkedSession[] {
    return this.db.query<MarkedSession, [string, string, number]>('SELECT sid, tenant_id, asset_id, viewer_id, via, issued_at FROM watermark_sessions WHERE tenant_id = ? AND asset_id = ? ORDER BY issued_at LIMIT ?').all(tenantId, assetId, limit);
  }
  insertTrace(r: Omit<TraceRow, 'seq' | 'progress' | 'result' | 'error' | 'finished_at' | 'updated_at'>): void {
    this.db.query('INSERT INTO watermark_traces (id, tenant_id, asset_id, source, url, files, offset_s, offset_search, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(r.id, r.tenant_id, r.asset_id, r.source, r.url, r.files, r.offset_s, r.offset_search, r.status, r.created_at, r.created_at);
  }
  trace(tenantId: string, id: string): TraceRow | null {
    return this.db.query<TraceRow, [string, string]>('SELECT * FROM watermark_traces WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }
  traceById(id: string): TraceRow | null {
    return this.db.query<TraceRow, [string]>('SELECT * FROM watermark_traces WHERE id = ?').get(id);
  }
  /** Traces of a tenant, newest first, before a cursor `seq`. */
  traces(tenantId: string, beforeSeq: number | null, limit: number): TraceRow[] {
    return this.db.query<TraceRow, [string, number, number]>('SELECT * FROM watermark_traces WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?').all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit);
  }
  running(id: string, at: number): void {
    this.db.query("UPDATE watermark_traces SET status = 'running', updated_at = ? WHERE id = ? AND status IN ('queued', 'running')").run(at, id);
  }
  progress(id: string, pct: number, at: number): void {
    this.db.query("UPDATE watermark_traces SET progress = ?, updated_at = ? WHERE id = ? AND status = 'running'").run(pct, at, id);
  }
  finish(id: string, result: unknown, at: number): void {
    this.db.query("UPDATE watermark_traces SET status = 'done', progress = 100, result = ?, error = NULL, updated_at = ?, finished_at = ? WHERE id = ?").run(JSON.stringify(result), at, at, id);
  }
  fail(id: string, error: string, at: number): void {
    this.db.query("UPDATE watermark_traces SET status = 'failed', error = ?, updated_at = ?, finished_at = ? WHERE id = ? AND status IN ('queued', 'running')").run(error.slice(0, 500), at, at, id);
  }
}
