import type { Migration } from '../migration';

/**
 * Storage keys (issue 47): S3-style access keys that let a customer's tools put files into the tenant's
 * `ingest/<prefix>/in/` with standard S3 clients, and the multipart uploads in progress under them.
 */
export const m0182: Migration = {
  version: 182,
  name: 'storage_keys',
  sql: `
CREATE TABLE storage_keys (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  access_key_id TEXT NOT NULL UNIQUE,
  secret TEXT NOT NULL,
  prefix TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  last_used_at INTEGER
);
CREATE INDEX storage_keys_tenant ON storage_keys (tenant_id, seq);
CREATE TABLE storage_uploads (
  id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES storage_keys(id) ON DELETE CASCADE,
  object_key TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
`,
};
