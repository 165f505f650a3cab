import type { Migration } from '../migration';

const STATE = 'BEGIN UPDATE playback_state_version SET v = v + 1 WHERE id = 1; END';
const GRANT = 'BEGIN UPDATE delivery_grant_version SET v = v + 1 WHERE id = 1; END';

/**
 * Geo blackouts (issue 46): per channel, optionally one programme or a time window, the countries in which (or outside
 * which) viewers are refused. Every write bumps the playback change counter (delivery workers re-read the rules on
 * their next request) and the delivery grant counter (the front's grants are dropped), like policies.
 */
export const m0192: Migration = {
  version: 192,
  name: 'blackouts',
  sql: [
    `CREATE TABLE playback_blackouts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  channel TEXT NOT NULL,
  programme_id TEXT,
  name TEXT NOT NULL,
  from_ms INTEGER,
  to_ms INTEGER,
  applies_to TEXT NOT NULL CHECK (applies_to IN ('in', 'out')),
  countries TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);`,
    'CREATE INDEX playback_blackouts_tenant ON playback_blackouts (tenant_id, seq);',
    ...['INSERT', 'UPDATE', 'DELETE'].flatMap((op) => [
      `CREATE TRIGGER playback_blackouts_${op.toLowerCase()}_v AFTER ${op} ON playback_blackouts ${STATE};`,
      `CREATE TRIGGER playback_blackouts_${op.toLowerCase()}_grant AFTER ${op} ON playback_blackouts ${GRANT};`,
    ]),
  ].join('\n'),
};
