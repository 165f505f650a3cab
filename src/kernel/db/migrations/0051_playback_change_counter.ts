import type { Migration } from '../migration';

const TABLES = ['playback_signing_keys', 'playback_policies', 'playback_policy_attachments', 'playback_revocations'];
const BUMP = 'BEGIN UPDATE playback_state_version SET v = v + 1 WHERE id = 1; END';

/**
 * The playback change counter: one row bumped by triggers in the same transaction as every write to signing keys,
 * policies, attach points and revocations, so a delivery worker (read-only connection) learns of a change with one
 * read and refuses a revoked token on its very next request. IF NOT EXISTS: trees from before this migration created
 * the same objects at start.
 */
export const m0051: Migration = {
  version: 51,
  name: 'playback_change_counter',
  sql: [
    'CREATE TABLE IF NOT EXISTS playback_state_version (id INTEGER PRIMARY KEY CHECK (id = 1), v INTEGER NOT NULL);',
    'INSERT OR IGNORE INTO playback_state_version (id, v) VALUES (1, 0);',
    ...TABLES.flatMap((t) => ['INSERT', 'UPDATE', 'DELETE'].map((op) =>
      `CREATE TRIGGER IF NOT EXISTS ${t}_${op.toLowerCase()}_v AFTER ${op} ON ${t} ${BUMP};`)),
  ].join('\n'),
};
