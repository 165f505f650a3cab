import type { Migration } from '../migration';

/** Assets (VOD library). Owned by the assets feature; the media lifecycle updates status/progress/playback columns. */
export const m0010: Migration = {
  version: 10,
  name: 'assets',
  sql: `
CREATE TABLE assets (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  external_id TEXT,
  title TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL,
  error TEXT,
  ladder TEXT,
  publish_mode TEXT NOT NULL DEFAULT 'auto',
  published INTEGER NOT NULL DEFAULT 0,
  published_at INTEGER,
  metadata TEXT NOT NULL DEFAULT '{}',
  source TEXT NOT NULL,
  source_path TEXT,
  duration_s REAL,
  probe TEXT,
  progress REAL,
  output TEXT,
  deleted_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX assets_external ON assets(tenant_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX assets_tenant ON assets(tenant_id, deleted_at, seq);
`,
};
