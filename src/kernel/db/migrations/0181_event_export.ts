import type { Migration } from '../migration';

/**
 * Event export destinations (issue 47): S3, Kafka, HTTPS and GA4 sinks of platform events (the outbox) and
 * statistics events (DuckDB), each with its own durable position. A batch row is written, with the range it covers,
 * in the same transaction that moves the position past it; it is the delivery log entry, the retry state and, once
 * its retries are spent, the dead-letter entry. A range is re-read from its source on every attempt, so a batch's
 * content (and its deterministic object key / id) is the same on every retry and after a crash.
 */
export const m0181: Migration = {
  version: 181,
  name: 'event_export',
  sql: `
CREATE TABLE export_destinations (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  config TEXT NOT NULL,
  credentials TEXT,
  platform_events TEXT NOT NULL,
  stats_events TEXT NOT NULL,
  batch_events INTEGER NOT NULL,
  batch_age_ms INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  platform_seq INTEGER NOT NULL,
  player_ts INTEGER NOT NULL,
  edge_ts INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX export_destinations_tenant ON export_destinations (tenant_id, seq);
CREATE TABLE export_batches (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  destination_id TEXT NOT NULL REFERENCES export_destinations(id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  range_from INTEGER NOT NULL,
  range_to INTEGER NOT NULL,
  replay INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  events INTEGER,
  bytes INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  last_error TEXT,
  latency_ms INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  delivered_at INTEGER
);
CREATE INDEX export_batches_due ON export_batches (destination_id, status, seq);
`,
};
