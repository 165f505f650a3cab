import type { Migration } from '../migration';

/**
 * EPG sources (issue 48): per channel an XMLTV URL fetched every `interval_s` (conditional GET with the last ETag and
 * Last-Modified); what changed is staged as a draft or, with `auto_publish`, published at once. Every fetch is logged.
 */
export const m0198: Migration = {
  version: 198,
  name: 'guide_sources',
  sql: `
CREATE TABLE guide_sources (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  xmltv_channel TEXT,
  interval_s INTEGER NOT NULL,
  auto_publish INTEGER NOT NULL DEFAULT 0,
  enabled INTEGER NOT NULL DEFAULT 1,
  etag TEXT,
  last_modified TEXT,
  content_hash TEXT,
  next_fetch_at INTEGER NOT NULL,
  last_fetch_at INTEGER,
  last_status TEXT,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX guide_sources_tenant ON guide_sources (tenant_id, seq);
CREATE INDEX guide_sources_due ON guide_sources (enabled, next_fetch_at);
CREATE TABLE guide_source_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  source_id TEXT NOT NULL REFERENCES guide_sources(id) ON DELETE CASCADE,
  at INTEGER NOT NULL,
  trigger TEXT NOT NULL,
  status TEXT NOT NULL,
  http_status INTEGER,
  items INTEGER NOT NULL DEFAULT 0,
  changed INTEGER NOT NULL DEFAULT 0,
  outcome TEXT,
  version INTEGER,
  error TEXT,
  ms INTEGER
);
CREATE INDEX guide_source_log_source ON guide_source_log (source_id, seq);
`,
};
