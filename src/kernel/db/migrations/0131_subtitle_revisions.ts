import type { Migration } from '../migration';

/**
 * Cue editing (issue 43): a track's `version` (its ETag, raised by every change of its cues), `original_source` (kept
 * when an edit turns `source` into `edited`), `next_cue_id` (cue ids are `subtitle_cues.seq`, stable across edits and
 * never reused in a track; new cues take this one), `glossary_corrections` (JSON counts of the corrections applied after
 * recognition). Cues are read in time order (`start_ms`, then `seq`). Every edit is a row of `subtitle_revisions`
 * holding the cues it touched before and after (JSON), so any revision can be undone as a new one.
 */
export const m0131: Migration = {
  version: 131,
  name: 'subtitle_revisions',
  sql: `
ALTER TABLE subtitle_tracks ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE subtitle_tracks ADD COLUMN original_source TEXT;
ALTER TABLE subtitle_tracks ADD COLUMN next_cue_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE subtitle_tracks ADD COLUMN glossary_corrections TEXT;
CREATE INDEX subtitle_cues_time ON subtitle_cues (track_id, start_ms, seq);
CREATE TABLE subtitle_revisions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  track_id TEXT NOT NULL REFERENCES subtitle_tracks (id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  op TEXT NOT NULL,
  author_kind TEXT NOT NULL,
  author_id TEXT,
  author_name TEXT,
  created_at INTEGER NOT NULL,
  before TEXT NOT NULL,
  after TEXT NOT NULL,
  counts TEXT,
  undo_of TEXT,
  undone_by TEXT
);
CREATE INDEX subtitle_revisions_track ON subtitle_revisions (track_id, seq);
`,
};
