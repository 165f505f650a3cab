import type { Migration } from '../migration';

/**
 * Notification rules and the studio inbox (issue 48): a person's rules pick events (types or families, channels, a
 * lowest severity) and send them to the inbox and/or e-mail. Each routed event is one `notification_items` row per
 * person (in the inbox when a matching rule asked for it; its e-mail state when one asked for e-mail).
 */
export const m0213: Migration = {
  version: 213,
  name: 'notification_rules',
  sql: `
CREATE TABLE notification_rules (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  event_types TEXT NOT NULL,
  channels TEXT NOT NULL DEFAULT '[]',
  min_severity TEXT NOT NULL,
  deliver TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX notification_rules_tenant ON notification_rules (tenant_id, enabled);
CREATE INDEX notification_rules_user ON notification_rules (tenant_id, user_id, seq);
CREATE TABLE notification_items (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  user_id TEXT NOT NULL REFERENCES users(id),
  event_id TEXT NOT NULL,
  event_seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  severity TEXT NOT NULL,
  channel_id TEXT,
  title TEXT NOT NULL,
  data TEXT NOT NULL,
  rule_ids TEXT NOT NULL,
  in_inbox INTEGER NOT NULL,
  read_at INTEGER,
  mail_status TEXT,
  mail_attempts INTEGER NOT NULL DEFAULT 0,
  mail_next_at INTEGER,
  mail_error TEXT,
  created_at INTEGER NOT NULL,
  UNIQUE (user_id, event_id)
);
CREATE INDEX notification_items_inbox ON notification_items (tenant_id, user_id, in_inbox, seq);
CREATE INDEX notification_items_unread ON notification_items (user_id, tenant_id, read_at) WHERE in_inbox = 1;
CREATE INDEX notification_items_mail ON notification_items (mail_status, mail_next_at) WHERE mail_status = 'pending';
`,
};
