import type { Migration } from '../migration';

/** Start of the first recorded segment under a clip (a segment-precision clip expires when retention removes it). */
export const m0061: Migration = {
  version: 61,
  name: 'clip_first_segment',
  sql: 'ALTER TABLE clips ADD COLUMN first_seg_ms INTEGER;',
};
