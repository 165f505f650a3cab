import { tx, type Db } from '../../kernel/db/sqlite';

/** A clip row as stored. */
export interface ClipRow {
  seq: number; id: string; tenant_id: string; channel_id: string; title: string | null; start_ms: number; end_ms: number;
  precision: string; renditions: string; status: string; expires_at: number | null; final_dir: string | null; job_id: string | null;
  error: string | null; first_seg_ms: number | null; created_at: number; updated_at: number;
}

/** SQL of the clips feature. */
export class ClipStore {
  constructor(private db: Db) {}

  insert(c: Omit<ClipRow, 'seq'>): void {
    const cols = Object.keys(c);
    this.db.query(`INSERT INTO clips (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`).run(...(Object.values(c) as never[]));
  }
  get(tenantId: string, id: string): ClipRow | null {
    return this.db.query<ClipRow, [string, string]>('SELECT * FROM clips WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }
  anyById(id: string): ClipRow | null {
    return this.db.query<ClipRow, [string]>('SELECT * FROM clips WHERE id = ?').get(id);
  }
  list(tenantId: string, beforeSeq: number | null, limit: number, channelId?: string): ClipRow[] {
    return this.db.query<ClipRow, [string, number, string | null, string | null, number]>('SELECT * FROM clips WHERE tenant_id = ? AND seq < ? AND (? IS NULL OR channel_id = ?) ORDER BY seq DESC LIMIT ?')
      .all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, channelId ?? null, channelId ?? null, limit + 1);
  }
  setJob(id: string, jobId: string): void { this.db.query('UPDATE clips SET job_id = ? WHERE id = ?').run(jobId, id); }
  finish(id: string, finalDir: string, now: number): void {
    this.db.query("UPDATE clips SET status = 'final', final_dir = ?, expires_at = NULL, error = NULL, updated_at = ? WHERE id = ?").run(finalDir, now, id);
  }
  fail(id: string, error: string, now: number): void {
    this.db.query('UPDATE clips SET error = ?, updated_at = ? WHERE id = ?').run(error, now, id);
  }
  delete(id: string): void { this.db.query('DELETE FROM clips WHERE id = ?').run(id); }
  /** Deletes a clip and records its bucket objects for removal (migration 0249), in one transaction. */
  deleteWithObjects(id: string, tenantId: string, now: number): void {
    tx(this.db, () => { this.delete(id); this.markObjectsDeleted(id, tenantId, now); });
  }
  /** Records a clip's bucket objects for removal (kept until the sweeper removed them). */
  markObjectsDeleted(id: string, tenantId: string, now: number): void {
    this.db.query('INSERT OR IGNORE INTO clip_file_deletes (clip_id, tenant_id, created_at) VALUES (?, ?, ?)').run(id, tenantId, now);
  }
  /** Clips whose bucket objects are still to remove, oldest first. */
  objectDeletes(limit: number): { clip_id: string; tenant_id: string }[] {
    return this.db.query<{ clip_id: string; tenant_id: string }, [number]>('SELECT clip_id, tenant_id FROM clip_file_deletes ORDER BY created_at LIMIT ?').all(limit);
  }
  objectsDeleted(id: string): void { this.db.query('DELETE FROM clip_file_deletes WHERE clip_id = ?').run(id); }
}
