import type { Migration } from '../migration';

/** Per-tenant subtitle settings (issue 43): auto-subtitle languages, reading speed, default engine, as JSON. */
export const m0133: Migration = {
  version: 133,
  name: 'subtitle_settings',
  sql: `
CREATE TABLE subtitle_settings (
  tenant_id TEXT PRIMARY KEY,
  settings TEXT NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
`,
};
