import type { Migration } from '../migration';

/**
 * Compact segment list of each closed rendition-hour (a cache of `live_segments`, like everything in the index):
 * Int32 triples (start offset in the hour, duration, discontinuity flag | init index), the hour's init starts and
 * its recorded spans. Valid while n/first/last/end/dir_mtime match the hour's `live_hours` row; dropped with the
 * hour's rows and rebuilt from them on the next read. Owned by the channels feature.
 */
export const m0042: Migration = {
  version: 42,
  name: 'live_hour_lists',
  sql: `
CREATE TABLE live_hour_lists (
  channel_id TEXT NOT NULL,
  rendition TEXT NOT NULL,
  hour_ms INTEGER NOT NULL,
  n INTEGER NOT NULL,
  first_ms INTEGER NOT NULL,
  last_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL,
  dir_mtime REAL NOT NULL,
  inits BLOB NOT NULL,
  segs BLOB NOT NULL,
  spans BLOB NOT NULL,
  PRIMARY KEY (channel_id, rendition, hour_ms)
);
`,
};
