import type { Migration } from '../migration';

/** Inbound hooks (signed calls from a customer's content system) and the delivery ids already seen (replay guard). */
export const m0031: Migration = {
  version: 31,
  name: 'inbound_hooks',
  sql: `
CREATE TABLE inbound_hooks (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  kind TEXT NOT NULL,
  mapping TEXT NOT NULL,
  secret TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX inbound_hooks_tenant ON inbound_hooks(tenant_id, seq);
CREATE TABLE inbound_hook_calls (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  hook_id TEXT NOT NULL REFERENCES inbound_hooks(id) ON DELETE CASCADE,
  delivery_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  result TEXT NOT NULL,
  UNIQUE (hook_id, delivery_id)
);
CREATE INDEX inbound_hook_calls_hook ON inbound_hook_calls(hook_id, seq);
`,
};
