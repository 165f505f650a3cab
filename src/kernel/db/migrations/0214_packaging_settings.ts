import type { Migration } from '../migration';

/** Packaging settings per tenant (issue 48): segment duration and DASH on/off for new encodes (JSON, defaults filled on read). */
export const m0214: Migration = {
  version: 214,
  name: 'packaging_settings',
  sql: `
CREATE TABLE packaging_settings (
  tenant_id TEXT PRIMARY KEY REFERENCES tenants(id),
  settings TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
`,
};
