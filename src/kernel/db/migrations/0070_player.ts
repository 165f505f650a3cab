import type { Migration } from '../migration';

/** Player configurations, where they apply, library sections and an asset's section. Owned by the player feature. */
export const m0070: Migration = {
  version: 70,
  name: 'player',
  sql: `
CREATE TABLE player_configs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  doc TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX player_configs_name ON player_configs(tenant_id, name);
CREATE TABLE player_config_assignments (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  config_id TEXT NOT NULL REFERENCES player_configs(id) ON DELETE CASCADE,
  target_kind TEXT NOT NULL,
  target_ref TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX player_assign_target ON player_config_assignments(tenant_id, target_kind, target_ref);
CREATE TABLE library_sections (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX library_sections_name ON library_sections(tenant_id, name);
ALTER TABLE assets ADD COLUMN section_id TEXT;
`,
};
