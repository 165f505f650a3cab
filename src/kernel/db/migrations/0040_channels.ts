import type { Migration } from '../migration';

/** Live channels and their recording segment index. Owned by the channels feature (and the live layer). */
export const m0040: Migration = {
  version: 40,
  name: 'channels',
  sql: `
CREATE TABLE channels (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  slug TEXT NOT NULL,
  name TEXT NOT NULL,
  protocol TEXT NOT NULL DEFAULT 'srt',
  srt_port_primary INTEGER NOT NULL UNIQUE,
  srt_port_backup INTEGER NOT NULL UNIQUE,
  srt_passphrase TEXT NOT NULL,
  srt_latency_ms INTEGER NOT NULL DEFAULT 120,
  rtmp_key_primary TEXT NOT NULL UNIQUE,
  rtmp_key_backup TEXT NOT NULL UNIQUE,
  ladder TEXT NOT NULL DEFAULT 'passthrough',
  segment_s REAL NOT NULL DEFAULT 2,
  failover_s REAL NOT NULL DEFAULT 3,
  recording_enabled INTEGER NOT NULL DEFAULT 1,
  retention_hours INTEGER NOT NULL DEFAULT 168,
  dvr_window_s INTEGER NOT NULL DEFAULT 3600,
  timezone TEXT NOT NULL DEFAULT 'UTC',
  desired TEXT NOT NULL DEFAULT 'stopped',
  status TEXT NOT NULL DEFAULT 'stopped',
  feed TEXT NOT NULL DEFAULT 'none',
  recording TEXT NOT NULL DEFAULT 'off',
  feed_info TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX channels_slug ON channels(tenant_id, slug);
CREATE INDEX channels_tenant ON channels(tenant_id, seq);
CREATE TABLE live_segments (
  channel_id TEXT NOT NULL,
  rendition TEXT NOT NULL,
  start_ms INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  path TEXT NOT NULL,
  discontinuity INTEGER NOT NULL DEFAULT 0,
  init_ms INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  disc_seq INTEGER NOT NULL,
  PRIMARY KEY (channel_id, rendition, start_ms)
) WITHOUT ROWID;
`,
};
