import type { Db } from '../../kernel/db/sqlite';

/** SQL of tenant settings (the tenant row's name and its `settings` JSON); the only place it lives. */
export class SettingsStore {
  constructor(private db: Db) {}

  get(tenantId: string): { name: string; slug: string; settings: string } | null {
    return this.db.query<{ name: string; slug: string; settings: string }, [string]>('SELECT name, slug, settings FROM tenants WHERE id = ?').get(tenantId);
  }

  put(tenantId: string, name: string, settings: string): void {
    this.db.query('UPDATE tenants SET name = ?, settings = ? WHERE id = ?').run(name, settings, tenantId);
  }
}
