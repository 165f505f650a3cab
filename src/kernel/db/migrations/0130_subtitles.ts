import type { Migration } from '../migration';

/**
 * Subtitle tracks of library assets and their cues (issue 43). A track is created by upload (WebVTT/SRT) or by
 * speech recognition (`status` queued -> running -> ready | failed, with its job); cues are stored in logical order
 * as plain text, lines joined by `\n`, numbered by `seq` in time order.
 */
export const m0130: Migration = {
  version: 130,
  name: 'subtitles',
  sql: `
CREATE TABLE subtitle_tracks (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  asset_id TEXT NOT NULL,
  language TEXT NOT NULL,
  kind TEXT NOT NULL,
  label TEXT,
  source TEXT NOT NULL,
  status TEXT NOT NULL,
  published INTEGER NOT NULL DEFAULT 0,
  engine TEXT,
  job_id TEXT,
  error TEXT,
  cue_count INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX subtitle_tracks_asset ON subtitle_tracks (tenant_id, asset_id, seq);
CREATE TABLE subtitle_cues (
  track_id TEXT NOT NULL REFERENCES subtitle_tracks (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (track_id, seq)
) WITHOUT ROWID;
`,
};
