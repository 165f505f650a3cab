import type { Migration } from '../migration';

/**
 * The transcript search index (issue 43, "Search inside what was said"): one row per cue of a ready, published
 * subtitle track, in `subtitle_search_rows` (which cue, its times relative to the track) and the contentless FTS5
 * table `subtitle_search` under the same rowid. Text is indexed in the Hebrew-aware search form
 * (src/text/hebrew-search.ts): `exact` holds the words, `loose` the copies without 1-3 prefix letters, `scope` the
 * tenant / asset / channel tokens a query is limited by. Maintained by `reindexTrack` (src/features/subtitles/
 * search-index.ts) whenever a track's cues, status or published flag change; a deleted track's rows go with it (trigger).
 * Text arrives normalised (letters and digits, one space between words), so the `ascii` tokenizer (splits at ASCII
 * spaces and punctuation only) sees exactly our words; unicode61 splits some letters of newer Unicode versions off a
 * word, turning a quoted query word into a phrase, which `detail = column` refuses.
 */
export const m0140: Migration = {
  version: 140,
  name: 'subtitle_search',
  sql: `
CREATE TABLE subtitle_search_rows (
  id INTEGER PRIMARY KEY,
  track_seq INTEGER NOT NULL,
  cue_seq INTEGER NOT NULL,
  start_ms INTEGER NOT NULL,
  end_ms INTEGER NOT NULL
);
CREATE INDEX subtitle_search_rows_track ON subtitle_search_rows (track_seq);
CREATE VIRTUAL TABLE subtitle_search USING fts5(exact, loose, scope, content = '', contentless_delete = 1,
  prefix = '2 3', detail = column, tokenize = 'ascii');
CREATE TRIGGER subtitle_search_track_deleted AFTER DELETE ON subtitle_tracks BEGIN
  DELETE FROM subtitle_search WHERE rowid IN (SELECT id FROM subtitle_search_rows WHERE track_seq = old.seq);
  DELETE FROM subtitle_search_rows WHERE track_seq = old.seq;
END;
`,
};
