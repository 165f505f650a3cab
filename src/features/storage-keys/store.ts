/** Storage keys and their multipart uploads (migration 0182); secrets sealed at rest. */
import { sealerOf } from '../../kernel/secrets/seal';
import type { Db } from '../../kernel/db/sqlite';

/** A storage key row (secret still sealed). */
export interface StorageKeyRow {
  id: string; tenant_id: string; name: string; access_key_id: string; secret: string; prefix: string;
  created_at: number; revoked_at: number | null; last_used_at: number | null;
}

/** Reads and writes storage keys. */
export class StorageKeyStore {
  constructor(readonly db: Db) {}

  insert(r: Omit<StorageKeyRow, 'revoked_at' | 'last_used_at'>): void {
    this.db.query('INSERT INTO storage_keys (id, tenant_id, name, access_key_id, secret, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(r.id, r.tenant_id, r.name, r.access_key_id, sealerOf(this.db).seal(r.secret), r.prefix, r.created_at);
  }

  /** A tenant's keys, newest first (revoked ones included). */
  list(tenantId: string): StorageKeyRow[] {
    return this.db.query<StorageKeyRow, [string]>('SELECT * FROM storage_keys WHERE tenant_id = ? ORDER BY seq DESC').all(tenantId);
  }

  get(tenantId: string, id: string): StorageKeyRow | null {
    return this.db.query<StorageKeyRow, [string, string]>('SELECT * FROM storage_keys WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** A live key by its access key id, with its opened secret. */
  byAccessKey(accessKeyId: string): (StorageKeyRow & { plain: string }) | null {
    const r = this.db.query<StorageKeyRow, [string]>('SELECT * FROM storage_keys WHERE access_key_id = ? AND revoked_at IS NULL').get(accessKeyId);
    return r ? { ...r, plain: sealerOf(this.db).open(r.secret) } : null;
  }

  revoke(id: string, now: number): void {
    this.db.query('UPDATE storage_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?').run(now, id);
  }

  used(id: string, now: number): void {
    this.db.query('UPDATE storage_keys SET last_used_at = ? WHERE id = ?').run(now, id);
  }

  startUpload(id: string, keyId: string, objectKey: string, now: number): void {
    this.db.query('INSERT INTO storage_uploads (id, key_id, object_key, created_at) VALUES (?, ?, ?, ?)').run(id, keyId, objectKey, now);
  }

  upload(id: string, keyId: string): { id: string; object_key: string } | null {
    return this.db.query<{ id: string; object_key: string }, [string, string]>('SELECT id, object_key FROM storage_uploads WHERE id = ? AND key_id = ?').get(id, keyId);
  }

  endUpload(id: string): void {
    this.db.query('DELETE FROM storage_uploads WHERE id = ?').run(id);
  }
}
