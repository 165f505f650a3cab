import type { Migration } from '../migration';

/**
 * Outbound webhooks: endpoints, one delivery row per (endpoint, event) filled from the outbox by a durable cursor,
 * and the named outbox cursors themselves (fan-out position survives a crash in the same transaction as its rows).
 */
export const m0030: Migration = {
  version: 30,
  name: 'webhooks',
  sql: `
CREATE TABLE outbox_cursors (
  name TEXT PRIMARY KEY,
  seq INTEGER NOT NULL
);
CREATE TABLE webhook_endpoints (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  from_seq INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints(tenant_id, seq);
CREATE TABLE webhook_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_seq INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  round_base INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER,
  last_code INTEGER,
  last_error TEXT,
  last_at INTEGER,
  delivered_at INTEGER,
  created_at INTEGER NOT NULL,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(endpoint_id, next_at) WHERE next_at IS NOT NULL;
CREATE INDEX webhook_deliveries_list ON webhook_deliveries(endpoint_id, seq);
`,
};
