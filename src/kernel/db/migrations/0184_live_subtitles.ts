import type { Migration } from '../migration';

/**
 * Live subtitles (issue 43): per channel and language, whether the live audio is recognised as it is recorded, and
 * where that stands: `until_ms` (wall-clock end of the audio recognised so far), the lag figures, counters, the
 * current hourly recording track the cues land in, and a failure reason.
 */
export const m0184: Migration = {
  version: 184,
  name: 'live_subtitles',
  sql: `
CREATE TABLE subtitle_live (
  channel_id TEXT NOT NULL,
  language TEXT NOT NULL,
  tenant_id TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'subtitles',
  state TEXT NOT NULL DEFAULT 'starting',
  engine TEXT,
  error TEXT,
  until_ms INTEGER,
  lag_ms INTEGER,
  lag_max_ms INTEGER,
  behind_ms INTEGER,
  chunks INTEGER NOT NULL DEFAULT 0,
  cues INTEGER NOT NULL DEFAULT 0,
  skipped_ms INTEGER NOT NULL DEFAULT 0,
  track_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (channel_id, language)
) WITHOUT ROWID;
CREATE INDEX subtitle_live_tenant ON subtitle_live (tenant_id, channel_id);
`,
};
