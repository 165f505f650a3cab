import type { Migration } from '../migration';

/**
 * CDN distributions (issue 46): hostnames the edge serves for a tenant, with their origin (the tenant's own delivery
 * or an external URL), cache rules, allowed methods, TLS file paths and an on/off switch. A hostname belongs to one
 * distribution of one tenant at most (`cdn_hostnames` primary key: a second claim is a 409).
 */
export const m0189: Migration = {
  version: 189,
  name: 'cdn_distributions',
  sql: `
CREATE TABLE cdn_distributions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  origin_kind TEXT NOT NULL CHECK (origin_kind IN ('delivery', 'url')),
  origin_url TEXT,
  cache_rules TEXT NOT NULL,
  allowed_methods TEXT NOT NULL,
  tls_certificate TEXT,
  tls_key TEXT,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX cdn_distributions_tenant ON cdn_distributions (tenant_id, seq);
CREATE TABLE cdn_hostnames (
  hostname TEXT PRIMARY KEY,
  distribution_id TEXT NOT NULL REFERENCES cdn_distributions(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL
);
CREATE INDEX cdn_hostnames_distribution ON cdn_hostnames (distribution_id);
`,
};
