import type { Migration } from '../migration';

/**
 * Library imports (issue 47): a sitemap (or sitemap index, or media RSS feed) read once into items for review; the
 * selected new items are registered as `url` assets when the import is started.
 */
export const m0183: Migration = {
  version: 183,
  name: 'library_imports',
  sql: `
CREATE TABLE library_imports (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  url TEXT NOT NULL,
  format TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'review',
  sources TEXT NOT NULL DEFAULT '[]',
  truncated INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER
);
CREATE INDEX library_imports_tenant ON library_imports (tenant_id, seq);
CREATE TABLE library_import_items (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  import_id TEXT NOT NULL REFERENCES library_imports(id) ON DELETE CASCADE,
  page_url TEXT NOT NULL,
  video_url TEXT NOT NULL,
  video_kind TEXT NOT NULL,
  external_id TEXT NOT NULL,
  title TEXT NOT NULL,
  duration_s REAL,
  thumbnail_url TEXT,
  status TEXT NOT NULL,
  selected INTEGER NOT NULL,
  result TEXT,
  asset_id TEXT,
  error TEXT
);
CREATE INDEX library_import_items_import ON library_import_items (import_id, seq);
`,
};
