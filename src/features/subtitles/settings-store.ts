import type { Db } from '../../kernel/db/sqlite';

/** SQL of per-tenant subtitle settings (`subtitle_settings`, migration 0133): one JSON document per tenant. */
export class SubtitleSettingsStore {
  constructor(private readonly db: Db) {}

  /** The stored JSON and its time, or null when the tenant never changed them. */
  get(tenantId: string): { settings: string; updated_at: number } | null {
    return this.db.query<{ settings: string; updated_at: number }, [string]>('SELECT settings, updated_at FROM subtitle_settings WHERE tenant_id = ?').get(tenantId);
  }

  /** Writes a tenant's settings. */
  put(tenantId: string, settings: string, now: number): void {
    this.db.query('INSERT INTO subtitle_settings (tenant_id, settings, updated_at) VALUES (?, ?, ?) ON CONFLICT(tenant_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at')
      .run(tenantId, settings, now);
  }
}
