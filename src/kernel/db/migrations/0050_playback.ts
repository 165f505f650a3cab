import type { Migration } from '../migration';

/** Playback protection: signing keys, policies and attach points, issued sessions, revocations. */
export const m0050: Migration = {
  version: 50,
  name: 'playback',
  sql: `
CREATE TABLE playback_signing_keys (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  secret TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  retired_at INTEGER
);
CREATE INDEX playback_keys_tenant ON playback_signing_keys(tenant_id, seq);
CREATE TABLE playback_policies (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  rules TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE playback_policy_attachments (
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  target_kind TEXT NOT NULL,
  target_ref TEXT NOT NULL,
  policy_id TEXT NOT NULL REFERENCES playback_policies(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, target_kind, target_ref)
);
CREATE TABLE playback_sessions (
  sid TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  target_kind TEXT NOT NULL,
  target_id TEXT NOT NULL,
  viewer_id TEXT,
  via TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX playback_sessions_tenant ON playback_sessions(tenant_id, issued_at);
CREATE TABLE playback_revocations (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  sid TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  reason TEXT,
  revoked_at INTEGER NOT NULL
);
`,
};
