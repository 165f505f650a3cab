import type { Migration } from '../migration';

const BUMP = 'BEGIN UPDATE delivery_grant_version SET v = v + 1 WHERE id = 1; END';
const PLAYBACK = ['playback_signing_keys', 'playback_policies', 'playback_policy_attachments', 'playback_revocations'];

/**
 * The delivery grant counter (issue 21): one row bumped by triggers in the same transaction as every write that can
 * change what a delivery token opens: an asset's status, output or trash mark, an asset or tenant removed, and every write to
 * signing keys, policies, attach points and revocations. The delivery front's grants (decisions nginx repeats on its
 * own) are all dropped when it moves, whichever process committed the change.
 */
export const m0110: Migration = {
  version: 110,
  name: 'delivery_grant_version',
  sql: [
    'CREATE TABLE delivery_grant_version (id INTEGER PRIMARY KEY CHECK (id = 1), v INTEGER NOT NULL);',
    'INSERT INTO delivery_grant_version (id, v) VALUES (1, 0);',
    `CREATE TRIGGER assets_grant_update AFTER UPDATE OF status, output, tenant_id, deleted_at ON assets ${BUMP};`,
    `CREATE TRIGGER assets_grant_delete AFTER DELETE ON assets ${BUMP};`,
    `CREATE TRIGGER tenants_grant_update AFTER UPDATE ON tenants ${BUMP};`,
    `CREATE TRIGGER tenants_grant_delete AFTER DELETE ON tenants ${BUMP};`,
    ...PLAYBACK.flatMap((t) => ['INSERT', 'UPDATE', 'DELETE'].map((op) => `CREATE TRIGGER ${t}_${op.toLowerCase()}_grant AFTER ${op} ON ${t} ${BUMP};`)),
  ].join('\n'),
};
