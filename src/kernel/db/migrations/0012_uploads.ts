import type { Migration } from '../migration';

/** Multipart upload sessions and their stored parts (bytes live in DATA/media/<tenant>/uploads/<id>/data). */
export const m0012: Migration = {
  version: 12,
  name: 'uploads',
  sql: `
CREATE TABLE uploads (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  key_id TEXT NOT NULL,
  object_key TEXT NOT NULL,
  filename TEXT NOT NULL,
  content_type TEXT,
  size_bytes INTEGER NOT NULL,
  part_size INTEGER NOT NULL,
  part_count INTEGER NOT NULL,
  browser_origin TEXT,
  token_hash TEXT UNIQUE,
  status TEXT NOT NULL DEFAULT 'open',
  asset_id TEXT,
  completion TEXT,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX uploads_status ON uploads(status, expires_at);
CREATE TABLE upload_parts (
  upload_id TEXT NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
  part_number INTEGER NOT NULL,
  size INTEGER NOT NULL,
  etag TEXT NOT NULL,
  stored_at INTEGER NOT NULL,
  PRIMARY KEY (upload_id, part_number)
);
`,
};
