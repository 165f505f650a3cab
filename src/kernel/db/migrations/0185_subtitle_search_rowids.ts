import type { Migration } from '../migration';

/**
 * Transcript search rowids that name their cue (issue 43, search p95): a row of `subtitle_search` /
 * `subtitle_search_rows` is now `track_seq * 2^24 + cue_seq` (src/features/subtitles/search-index.ts `searchRowId`),
 * so a query finds a hit's track and cue from the full-text match alone, without a random read of
 * `subtitle_search_rows` per hit; newest-first is newest track first. The old rows (insertion-order ids) are dropped
 * here and every ready, published track is indexed again in the background after start (`backfillSubtitleIndexInBackground`).
 */
export const m0185: Migration = {
  version: 185,
  name: 'subtitle_search_rowids',
  sql: `
DELETE FROM subtitle_search_rows;
INSERT INTO subtitle_search (subtitle_search) VALUES ('delete-all');
`,
};
