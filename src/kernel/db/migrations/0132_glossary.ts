import type { Migration } from '../migration';

/**
 * The tenant glossary (issue 43): terms (names, places, programme names) passed to speech engines as their prompt and
 * corrected into after recognition. `variants` is a JSON array of misrecognitions/spellings; `language` null = every
 * language; `norm_key` (the term in search form) keeps a term unique per tenant and language.
 */
export const m0132: Migration = {
  version: 132,
  name: 'glossary',
  sql: `
CREATE TABLE glossary_entries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  term TEXT NOT NULL,
  variants TEXT NOT NULL DEFAULT '[]',
  language TEXT,
  norm_key TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX glossary_entries_term ON glossary_entries (tenant_id, COALESCE(language, ''), norm_key);
CREATE INDEX glossary_entries_tenant ON glossary_entries (tenant_id, seq);
`,
};
