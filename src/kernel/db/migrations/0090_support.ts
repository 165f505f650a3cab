import type { Migration } from '../migration';

/** Support requests (issue 19): a tenant's requests and their message thread (opening text, replies). */
export const m0090: Migration = {
  version: 90,
  name: 'support',
  sql: `
CREATE TABLE support_requests (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  category TEXT NOT NULL,
  status TEXT NOT NULL,
  opened_by TEXT NOT NULL,
  via TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  closed_at INTEGER
);
CREATE INDEX support_requests_tenant ON support_requests (tenant_id, seq);
CREATE INDEX support_requests_recent ON support_requests (tenant_id, created_at);
CREATE TABLE support_messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  request_id TEXT NOT NULL REFERENCES support_requests (id) ON DELETE CASCADE,
  author TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX support_messages_request ON support_messages (request_id, seq);
`,
};
