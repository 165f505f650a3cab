import type { Migration } from '../migration';

/**
 * Per rendition-hour summary of the recording (one row per `<rendition>/YYYY/MM/DD/HH` directory): the segment
 * index is rebuilt at this grain from directory listings; per-segment rows in `live_segments` exist only for
 * hours that were recorded live or read since (`materialized`). Owned by the channels feature.
 */
export const m0041: Migration = {
  version: 41,
  name: 'live_hours',
  sql: `
CREATE TABLE live_hours (
  channel_id TEXT NOT NULL,
  rendition TEXT NOT NULL,
  hour_ms INTEGER NOT NULL,
  n INTEGER NOT NULL,
  first_ms INTEGER NOT NULL,
  last_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  first_seq INTEGER NOT NULL,
  disc_seq_start INTEGER NOT NULL,
  first_disc INTEGER NOT NULL,
  inner_discs INTEGER NOT NULL,
  bytes INTEGER,
  dir_mtime REAL NOT NULL,
  materialized INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (channel_id, rendition, hour_ms)
) WITHOUT ROWID;
`,
};
