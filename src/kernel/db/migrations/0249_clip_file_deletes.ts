import type { Migration } from '../migration';

/**
 * Final clips' objects still to remove from a bucket media store (issue 49): deleting a clip writes this record in
 * the transaction that deletes its row, so its objects under `media/<tenant>/clips/<id>/` go even when the bucket is
 * down at that moment or the process stops first; the clips feature's sweeper deletes the objects, then the record.
 * Owned by the clips feature.
 */
export const m0249: Migration = {
  version: 249,
  name: 'clip_file_deletes',
  sql: `
CREATE TABLE clip_file_deletes (
  clip_id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
`,
};
