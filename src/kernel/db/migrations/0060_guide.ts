import type { Migration } from '../migration';

/**
 * Programme guide (published programmes, search index, per-channel guide settings, staged drafts, published
 * versions), catch-up exclusion rules and clips. Owned by the guide, catch-up, clips and live-to-VOD features.
 */
export const m0060: Migration = {
  version: 60,
  name: 'guide_catchup_clips',
  sql: `
CREATE TABLE programmes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  series TEXT,
  episode TEXT,
  images TEXT NOT NULL DEFAULT '{}',
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  source TEXT NOT NULL DEFAULT 'api',
  play_start_ms INTEGER,
  play_end_ms INTEGER,
  bounds_status TEXT NOT NULL DEFAULT 'epg',
  vod_asset_id TEXT,
  vod_status TEXT,
  vod_trigger TEXT,
  vod_error TEXT,
  vod_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX programmes_channel_start ON programmes(channel_id, start_ms);
CREATE VIRTUAL TABLE programme_fts USING fts5(title, series, description, extra, tokenize = 'unicode61');
CREATE TABLE guide_settings (
  channel_id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  review_mode INTEGER NOT NULL DEFAULT 0,
  lock_hours REAL NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);
CREATE TABLE guide_drafts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  op TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX guide_drafts_channel ON guide_drafts(channel_id, seq);
CREATE TABLE guide_versions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  kind TEXT NOT NULL,
  changes INTEGER NOT NULL,
  snapshot TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (channel_id, version)
);
CREATE TABLE catchup_exclusions (
  tenant_id TEXT PRIMARY KEY,
  rules TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE clips (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  title TEXT,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  precision TEXT NOT NULL,
  renditions TEXT NOT NULL,
  status TEXT NOT NULL,
  expires_at INTEGER,
  final_dir TEXT,
  job_id TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX clips_tenant ON clips(tenant_id, seq);
`,
};
