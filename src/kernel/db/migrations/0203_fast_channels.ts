import type { Migration } from '../migration';

/**
 * FAST channels (issue 48): a schedule of library assets attached to a channel (`fast_schedules`, one per channel),
 * the per-asset prepared renditions it airs (`fast_preps`: the asset's CMAF renditions muxed by stream copy, or
 * conformed to the channel's renditions by a re-encode when they differ), and the ad-break markers the FAST runtime
 * wrote into the channel's timeline (`live_markers`, read by the live playlists as EXT-X-DATERANGE).
 */
export const m0203: Migration = {
  version: 203,
  name: 'fast_channels',
  sql: `
CREATE TABLE fast_schedules (
  channel_id TEXT PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  enabled INTEGER NOT NULL DEFAULT 1,
  items TEXT NOT NULL DEFAULT '[]',
  dayparts TEXT NOT NULL DEFAULT '[]',
  renditions TEXT NOT NULL DEFAULT '[]',
  break_s REAL,
  slate_asset_id TEXT,
  guide_hours INTEGER NOT NULL DEFAULT 24,
  anchor_ms INTEGER NOT NULL,
  version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX fast_schedules_tenant ON fast_schedules (tenant_id);
CREATE TABLE fast_preps (
  tenant_id TEXT NOT NULL,
  asset_id TEXT NOT NULL,
  asset_version INTEGER NOT NULL,
  profile TEXT NOT NULL,
  mode TEXT NOT NULL,
  status TEXT NOT NULL,
  dir TEXT NOT NULL,
  segments TEXT NOT NULL DEFAULT '[]',
  error TEXT,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (asset_id, asset_version, profile)
);
CREATE TABLE live_markers (
  channel_id TEXT NOT NULL,
  start_ms INTEGER NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  planned_ms INTEGER NOT NULL,
  attrs TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (channel_id, start_ms, kind)
);
`,
};
