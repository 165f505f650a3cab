import type { Migration } from '../migration';

/**
 * Leak suspicions (issue 46): a playback session seen from more addresses, networks or countries than its policy
 * allows within its window. `evidence` is JSON (hashed addresses, ASNs, countries, user agents, counts); `status` is
 * open, dismissed or revoked.
 */
export const m0193: Migration = {
  version: 193,
  name: 'leaks',
  sql: `
CREATE TABLE playback_leaks (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  sid TEXT NOT NULL,
  target_kind TEXT NOT NULL,
  target_id TEXT NOT NULL,
  policy_id TEXT,
  reason TEXT NOT NULL,
  evidence TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'dismissed', 'revoked')),
  auto INTEGER NOT NULL DEFAULT 0,
  detected_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  resolved_at INTEGER,
  resolved_by TEXT
);
CREATE UNIQUE INDEX playback_leaks_sid ON playback_leaks (tenant_id, sid);
CREATE INDEX playback_leaks_tenant ON playback_leaks (tenant_id, seq);
`,
};
