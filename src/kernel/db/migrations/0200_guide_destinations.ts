import type { Migration } from '../migration';

/**
 * Guide publishing destinations (issue 48): after each publish the published guide (XMLTV or JSON) is pushed to HTTPS,
 * SFTP or S3, or pulled by the partner from a token-protected URL. `credentials` (HTTPS signing secret, SFTP key or
 * password, S3 secret key) and `pull_token` are sealed. Every push attempt is a row of `guide_deliveries`.
 */
export const m0200: Migration = {
  version: 200,
  name: 'guide_destinations',
  sql: `
CREATE TABLE guide_destinations (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  format TEXT NOT NULL,
  config TEXT NOT NULL DEFAULT '{}',
  credentials TEXT,
  channels TEXT NOT NULL DEFAULT '[]',
  days_behind INTEGER NOT NULL,
  days_ahead INTEGER NOT NULL,
  timezone TEXT NOT NULL,
  retries INTEGER NOT NULL,
  retry_delay_s INTEGER NOT NULL,
  pull_token TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX guide_destinations_tenant ON guide_destinations (tenant_id, seq);
CREATE TABLE guide_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  destination_id TEXT NOT NULL REFERENCES guide_destinations(id) ON DELETE CASCADE,
  delivery TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  trigger TEXT NOT NULL,
  status TEXT NOT NULL,
  detail TEXT,
  bytes INTEGER,
  ms INTEGER,
  next_at INTEGER,
  at INTEGER NOT NULL
);
CREATE INDEX guide_deliveries_destination ON guide_deliveries (destination_id, seq);
`,
};
