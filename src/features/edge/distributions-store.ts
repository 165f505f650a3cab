import type { Database } from 'bun:sqlite';

/** A distribution's row (JSON columns as text). */
export interface DistributionRow {
  id: string; tenant_id: string; name: string; origin_kind: 'delivery' | 'url'; origin_url: string | null;
  cache_rules: string; allowed_methods: string; tls_certificate: string | null; tls_key: string | null;
  enabled: number; created_at: number; updated_at: number;
}

/** A distribution's row with its hostnames. */
export type DistributionRecord = DistributionRow & { hostnames: string[] };

const COLS = 'id, tenant_id, name, origin_kind, origin_url, cache_rules, allowed_methods, tls_certificate, tls_key, enabled, created_at, updated_at';

/** The only place the SQL of CDN distributions lives. */
export class DistributionStore {
  constructor(private db: Database) {}

  private withHosts(rows: DistributionRow[]): DistributionRecord[] {
    if (!rows.length) return [];
    const hosts = this.db.query<{ hostname: string; distribution_id: string }, string[]>(
      `SELECT hostname, distribution_id FROM cdn_hostnames WHERE distribution_id IN (${rows.map(() => '?').join(',')}) ORDER BY rowid`).all(...rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, hostnames: hosts.filter((h) => h.distribution_id === r.id).map((h) => h.hostname) }));
  }

  /** A tenant's distributions, oldest first. */
  list(tenantId: string): DistributionRecord[] {
    return this.withHosts(this.db.query<DistributionRow, [string]>(`SELECT ${COLS} FROM cdn_distributions WHERE tenant_id = ? ORDER BY seq`).all(tenantId));
  }

  /** Every distribution of every tenant (what the edge renders). */
  all(): DistributionRecord[] {
    return this.withHosts(this.db.query<DistributionRow, []>(`SELECT ${COLS} FROM cdn_distributions ORDER BY seq`).all());
  }

  /** One distribution of a tenant, or null. */
  get(tenantId: string, id: string): DistributionRecord | null {
    const r = this.db.query<DistributionRow, [string, string]>(`SELECT ${COLS} FROM cdn_distributions WHERE tenant_id = ? AND id = ?`).get(tenantId, id);
    return r ? this.withHosts([r])[0]! : null;
  }

  /** How many distributions a tenant has. */
  count(tenantId: string): number {
    return this.db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM cdn_distributions WHERE tenant_id = ?').get(tenantId)!.n;
  }

  /** Hostnames of `names` held by distributions other than `except`. */
  taken(names: string[], except: string | null): string[] {
    if (!names.length) return [];
    return this.db.query<{ hostname: string }, string[]>(
      `SELECT hostname FROM cdn_hostnames WHERE hostname IN (${names.map(() => '?').join(',')}) AND distribution_id <> ?`).all(...names, except ?? '').map((r) => r.hostname);
  }

  /** Inserts or replaces a distribution and its hostnames (call inside a transaction). */
  save(r: DistributionRecord): void {
    this.db.query(`INSERT INTO cdn_distributions (${COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET name = excluded.name, origin_kind = excluded.origin_kind, origin_url = excluded.origin_url,
        cache_rules = excluded.cache_rules, allowed_methods = excluded.allowed_methods, tls_certificate = excluded.tls_certificate,
        tls_key = excluded.tls_key, enabled = excluded.enabled, updated_at = excluded.updated_at`)
      .run(r.id, r.tenant_id, r.name, r.origin_kind, r.origin_url, r.cache_rules, r.allowed_methods, r.tls_certificate, r.tls_key, r.enabled, r.created_at, r.updated_at);
    this.db.query('DELETE FROM cdn_hostnames WHERE distribution_id = ?').run(r.id);
    for (const h of r.hostnames) this.db.query('INSERT INTO cdn_hostnames (hostname, distribution_id, tenant_id) VALUES (?, ?, ?)').run(h, r.id, r.tenant_id);
  }

  /** Deletes a distribution (its hostnames go with it). */
  delete(id: string): void {
    this.db.query('DELETE FROM cdn_hostnames WHERE distribution_id = ?').run(id);
    this.db.query('DELETE FROM cdn_distributions WHERE id = ?').run(id);
  }
}
