import type { Migration } from '../migration';

/**
 * Public sites (issue 44): a site (slug unique on the appliance: `/s/v1/{site}` has no tenant), its custom domains
 * with their verification token, pages (a draft document, the live one, numbered published versions, one scheduled
 * publish or unpublish), shows, people, menus (draft and live), the route table with redirects, and preview tokens
 * (stored hashed). Documents are JSON; the columns are what is looked up or kept unique.
 */
export const m0150: Migration = {
  version: 150,
  name: 'sites',
  sql: `
CREATE TABLE sites (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active',
  time_zone TEXT NOT NULL DEFAULT 'Asia/Jerusalem',
  settings TEXT NOT NULL DEFAULT '{}',
  theme_draft TEXT NOT NULL DEFAULT '{}',
  theme_live TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX sites_tenant ON sites (tenant_id, seq);
CREATE TABLE site_domains (
  hostname TEXT PRIMARY KEY,
  site_id TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  token TEXT NOT NULL,
  verified_at INTEGER,
  method TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX site_domains_site ON site_domains (site_id);
CREATE TABLE site_pages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  site_id TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  path TEXT,
  template_for TEXT,
  draft TEXT NOT NULL,
  live TEXT,
  live_version INTEGER,
  versions INTEGER NOT NULL DEFAULT 0,
  schedule TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX site_pages_path ON site_pages (site_id, path) WHERE path IS NOT NULL;
CREATE UNIQUE INDEX site_pages_template ON site_pages (site_id, template_for) WHERE template_for IS NOT NULL;
CREATE TABLE site_page_versions (
  page_id TEXT NOT NULL REFERENCES site_pages (id) ON DELETE CASCADE,
  version INTEGER NOT NULL,
  doc TEXT NOT NULL,
  actor TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (page_id, version)
) WITHOUT ROWID;
CREATE TABLE site_items (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  site_id TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  slug TEXT NOT NULL,
  data TEXT NOT NULL,
  live TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (site_id, kind, slug)
);
CREATE TABLE site_routes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  site_id TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  path TEXT NOT NULL,
  target TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (site_id, path)
);
CREATE TABLE site_preview_tokens (
  hash TEXT PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  site_id TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  page_id TEXT,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
`,
};
