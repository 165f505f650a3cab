import type { Db } from '../../kernel/db/sqlite';

/** An `uploads` row. */
export interface UploadRow {
  seq: number; id: string; tenant_id: string; key_id: string; object_key: string; filename: string; content_type: string | null;
  size_bytes: number; part_size: number; part_count: number; browser_origin: string | null; token_hash: string | null;
  status: 'open' | 'completing' | 'completed' | 'expired'; asset_id: string | null; completion: string | null;
  expires_at: number; created_at: number; updated_at: number;
}

/** A stored part. */
export interface PartRow { part_number: number; size: number; etag: string }

/** SQL of the uploads feature. */
export class UploadStore {
  constructor(private db: Db) {}

  /** Inserts a new open upload. */
  insert(u: Omit<UploadRow, 'seq' | 'status' | 'asset_id' | 'completion' | 'updated_at'>): void {
    this.db.query(`INSERT INTO uploads (id, tenant_id, key_id, object_key, filename, content_type, size_bytes, part_size, part_count, browser_origin,
      token_hash, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(u.id, u.tenant_id, u.key_id, u.object_key, u.filename, u.content_type, u.size_bytes, u.part_size, u.part_count,
        u.browser_origin, u.token_hash, u.expires_at, u.created_at, u.created_at);
  }

  /** One upload of a tenant. */
  get(tenantId: string, id: string): UploadRow | null {
    return this.db.query<UploadRow, [string, string]>('SELECT * FROM uploads WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** One upload by id (any tenant). */
  byId(id: string): UploadRow | null {
    return this.db.query<UploadRow, [string]>('SELECT * FROM uploads WHERE id = ?').get(id);
  }

  /** The upload a browser token belongs to (by the token's SHA-256). */
  byTokenHash(hash: string): UploadRow | null {
    return this.db.query<UploadRow, [string]>('SELECT * FROM uploads WHERE token_hash = ?').get(hash);
  }

  /** Forgets a part before it is (re)written, so a failed resend never leaves a stale etag. */
  dropPart(uploadId: string, n: number): void {
    this.db.query('DELETE FROM upload_parts WHERE upload_id = ? AND part_number = ?').run(uploadId, n);
  }

  /** Records a stored part (after its bytes are on disk). */
  putPart(uploadId: string, p: PartRow, now: number): void {
    this.db.query(`INSERT INTO upload_parts (upload_id, part_number, size, etag, stored_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(upload_id, part_number) DO UPDATE SET size = excluded.size, etag = excluded.etag, stored_at = excluded.stored_at`)
      .run(uploadId, p.part_number, p.size, p.etag, now);
  }

  /** Every stored part of an upload. */
  parts(uploadId: string): PartRow[] {
    return this.db.query<PartRow, [string]>('SELECT part_number, size, etag FROM upload_parts WHERE upload_id = ? ORDER BY part_number').all(uploadId);
  }

  /** Moves an open upload to `completing` with its future asset id and asset fields; false if it was not open. */
  beginCompletion(id: string, assetId: string, completion: string, now: number): boolean {
    return this.db.query(`UPDATE uploads SET status = 'completing', asset_id = ?, completion = ?, updated_at = ? WHERE id = ? AND status = 'open'`)
      .run(assetId, completion, now, id).changes > 0;
  }

  /** Marks an upload completed. */
  markCompleted(id: string, now: number): void {
    this.db.query(`UPDATE uploads SET status = 'completed', updated_at = ? WHERE id = ?`).run(now, id);
    this.db.query('DELETE FROM upload_parts WHERE upload_id = ?').run(id);
  }

  /** Uploads stuck in `completing` (a crash during complete); finished on start. */
  completing(): UploadRow[] {
    return this.db.query<UploadRow, []>(`SELECT * FROM uploads WHERE status = 'completing'`).all();
  }

  /** Open uploads whose hour has passed. */
  expiredOpen(now: number): UploadRow[] {
    return this.db.query<UploadRow, [number]>(`SELECT * FROM uploads WHERE status = 'open' AND expires_at <= ? LIMIT 500`).all(now);
  }

  /** Marks an upload expired and forgets its parts. */
  markExpired(id: string, now: number): void {
    this.db.query(`UPDATE uploads SET status = 'expired', token_hash = NULL, updated_at = ? WHERE id = ?`).run(now, id);
    this.db.query('DELETE FROM upload_parts WHERE upload_id = ?').run(id);
  }

  /** Deletes finished upload records older than `before` (kept a while so late calls get 410 or the asset). */
  prune(before: number): void {
    this.db.query(`DELETE FROM uploads WHERE status IN ('expired', 'completed') AND updated_at < ?`).run(before);
  }

  /**
   * True while what started an upload is still valid: the API key exists and is not revoked, or (an upload started
   * from the studio) the person's session is neither revoked nor expired. Browser tokens die with it.
   */
  keyActive(keyId: string, now = Date.now()): boolean {
    return !!this.db.query<{ x: number }, [string, string, number]>(`SELECT 1 AS x FROM api_keys WHERE id = ? AND revoked_at IS NULL
      UNION ALL SELECT 1 FROM user_sessions WHERE id = ? AND revoked_at IS NULL AND expires_at > ? LIMIT 1`).get(keyId, keyId, now);
  }
}
