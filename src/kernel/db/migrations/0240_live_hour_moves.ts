import type { Migration } from '../migration';

/**
 * Recording hours held in a bucket media store (docs/scale-out.md "Recordings"). Unlike `live_hours` (a cache of
 * the listings), this is the durable record of where a closed hour's segments are: `moving` while they are copied
 * (the local files stay until every copy is verified, so a restart resumes the move), `moved` once the bucket holds
 * them all (the local files are then removed), `deleting` once retention dropped the hour's index rows (its objects
 * are removed next, then the row). Owned by the live engine.
 */
export const m0240: Migration = {
  version: 240,
  name: 'live_hour_moves',
  sql: `
CREATE TABLE live_hour_moves (
  channel_id TEXT NOT NULL,
  rendition TEXT NOT NULL,
  hour_ms INTEGER NOT NULL,
  tenant_id TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('moving', 'moved', 'deleting')),
  n INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (channel_id, rendition, hour_ms)
) WITHOUT ROWID;
CREATE INDEX live_hour_moves_state ON live_hour_moves (state);
`,
};
