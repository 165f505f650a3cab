import type { Migration } from '../migration';

/** Asset search index (folded Hebrew/Latin text, FTS5 prefix queries) and per-tenant trash retention. */
export const m0011: Migration = {
  version: 11,
  name: 'asset_library',
  sql: `
CREATE VIRTUAL TABLE assets_fts USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE asset_settings (
  tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
  trash_retention_days INTEGER NOT NULL DEFAULT 30,
  updated_at INTEGER NOT NULL
);
CREATE INDEX assets_trash ON assets(deleted_at) WHERE deleted_at IS NOT NULL;
`,
};
