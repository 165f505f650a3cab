import type { Migration } from '../migration';

/**
 * People (issue 17): users with argon2id passwords, memberships (user × tenant × role), studio sessions (cookie
 * token and CSRF token stored as SHA-256 / plain per row), single-use links (invitations, first-owner setup,
 * password resets; only hashes stored), site-connection codes (hashed, 60 s) and the audit log.
 */
export const m0080: Migration = {
  version: 80,
  name: 'people',
  sql: `
CREATE TABLE users (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT NOT NULL DEFAULT '',
  password_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  password_changed_at INTEGER NOT NULL,
  disabled_at INTEGER
);
CREATE TABLE memberships (
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  role TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, user_id)
);
CREATE INDEX memberships_user ON memberships(user_id);
CREATE TABLE user_sessions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id),
  hash TEXT NOT NULL UNIQUE,
  csrf TEXT NOT NULL,
  tenant_id TEXT,
  ip TEXT,
  user_agent TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX user_sessions_user ON user_sessions(user_id, seq);
CREATE TABLE invitations (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  email TEXT,
  role TEXT NOT NULL,
  hash TEXT NOT NULL UNIQUE,
  invited_by TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  accepted_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX invitations_tenant ON invitations(tenant_id, seq);
CREATE TABLE password_resets (
  hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE TABLE connect_codes (
  hash TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  site_origin TEXT NOT NULL,
  site_name TEXT NOT NULL DEFAULT '',
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT,
  at INTEGER NOT NULL,
  action TEXT NOT NULL,
  actor_kind TEXT NOT NULL,
  actor_id TEXT,
  actor_label TEXT NOT NULL DEFAULT '',
  ip TEXT,
  target TEXT,
  details TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_tenant ON audit_log(tenant_id, seq);
`,
};
