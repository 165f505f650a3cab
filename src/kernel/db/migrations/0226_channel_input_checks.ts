import type { Migration } from '../migration';

/** Input-check settings per channel (issue 48): black, freeze, silence and loudness thresholds (JSON, defaults filled on read). */
export const m0226: Migration = {
  version: 226,
  name: 'channel_input_checks',
  sql: `
CREATE TABLE channel_input_checks (
  channel_id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  settings TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TRIGGER channel_input_checks_channel_gone AFTER DELETE ON channels
BEGIN
  DELETE FROM channel_input_checks WHERE channel_id = OLD.id;
END;
`,
};
