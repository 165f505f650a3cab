import type { Migration } from '../migration';

/** Weekly schedule templates (issue 48): slots (ISO weekday, start, duration, title, ...) applied to a range of days as a draft. */
export const m0199: Migration = {
  version: 199,
  name: 'guide_templates',
  sql: `
CREATE TABLE guide_templates (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  slots TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX guide_templates_tenant ON guide_templates (tenant_id, seq);
`,
};
