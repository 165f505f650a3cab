import type { Migration } from '../migration';

/**
 * A/B watermark traces of copies cut at an unknown point (issue 46): `offset_search` 1 when the request gave no
 * `offset_s`, so the job searches where in the asset the copy starts (the found offset is in the result).
 */
export const m0243: Migration = {
  version: 243,
  name: 'watermark_offset_search',
  sql: `
ALTER TABLE watermark_traces ADD COLUMN offset_search INTEGER NOT NULL DEFAULT 0;
`,
};
