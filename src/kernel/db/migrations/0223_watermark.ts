import type { Migration } from '../migration';

/**
 * A/B forensic watermark (issue 46). `watermark_sessions`: the playback sessions issued for a marked asset (kept after
 * their `playback_sessions` row expires: a leak is traced long after the viewing), the candidates a trace scores.
 * `watermark_traces`: trace requests of leaked copies, their progress and result (JSON: the bits read, the best
 * candidates with confidence, the named session).
 */
export const m0223: Migration = {
  version: 223,
  name: 'watermark',
  sql: `
CREATE TABLE watermark_sessions (
  sid TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL,
  viewer_id TEXT,
  via TEXT NOT NULL,
  issued_at INTEGER NOT NULL
);
CREATE INDEX watermark_sessions_asset ON watermark_sessions (tenant_id, asset_id, issued_at);
CREATE TABLE watermark_traces (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  asset_id TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('upload', 'url')),
  url TEXT,
  files INTEGER NOT NULL DEFAULT 0,
  offset_s REAL NOT NULL DEFAULT 0,
  status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  progress REAL NOT NULL DEFAULT 0,
  result TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX watermark_traces_tenant ON watermark_traces (tenant_id, seq);
`,
};
