import type { Migration } from '../migration';

/**
 * Monitors and alerts (issue 20): monitors with their checks, the evaluation state of each check (so a restart
 * resumes pending and firing checks), alert history, alert destinations (e-mail, Telegram) with their confirmation
 * and link codes, and the durable queue of e-mail/Telegram notifications.
 */
export const m0100: Migration = {
  version: 100,
  name: 'monitors',
  sql: `
CREATE TABLE monitors (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  name TEXT NOT NULL,
  target_kind TEXT NOT NULL,
  target_id TEXT,
  target_host TEXT,
  checks TEXT NOT NULL,
  destinations TEXT NOT NULL DEFAULT '[]',
  inapp INTEGER NOT NULL DEFAULT 1,
  notify_resolve INTEGER NOT NULL DEFAULT 1,
  repeat_min INTEGER NOT NULL DEFAULT 0,
  quiet_hours TEXT,
  snooze_until INTEGER,
  snooze_reason TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX monitors_tenant ON monitors (tenant_id, seq);
CREATE TABLE monitor_states (
  monitor_id TEXT NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  check_idx INTEGER NOT NULL,
  check_key TEXT NOT NULL,
  state TEXT NOT NULL,
  since INTEGER NOT NULL,
  alert_id TEXT,
  last_notified_at INTEGER,
  memo TEXT,
  PRIMARY KEY (monitor_id, check_idx)
);
CREATE TABLE alerts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  monitor_id TEXT NOT NULL,
  monitor_name TEXT NOT NULL,
  check_idx INTEGER NOT NULL,
  check_type TEXT NOT NULL,
  severity TEXT NOT NULL,
  target_kind TEXT NOT NULL,
  target_id TEXT,
  state TEXT NOT NULL,
  value REAL,
  threshold REAL,
  summary TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '{}',
  inapp INTEGER NOT NULL DEFAULT 1,
  muted TEXT,
  notifications INTEGER NOT NULL DEFAULT 0,
  condition_at INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  resolved_at INTEGER,
  acked_at INTEGER,
  acked_by TEXT
);
CREATE INDEX alerts_tenant ON alerts (tenant_id, seq);
CREATE INDEX alerts_monitor ON alerts (monitor_id, seq);
CREATE TABLE alert_destinations (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  target TEXT,
  name TEXT,
  status TEXT NOT NULL,
  token_hash TEXT,
  token_expires_at INTEGER,
  created_at INTEGER NOT NULL,
  confirmed_at INTEGER
);
CREATE INDEX alert_destinations_tenant ON alert_destinations (tenant_id, seq);
CREATE UNIQUE INDEX alert_destinations_token ON alert_destinations (token_hash) WHERE token_hash IS NOT NULL;
CREATE TABLE alert_notifications (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  alert_id TEXT NOT NULL,
  destination_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  error TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
);
CREATE INDEX alert_notifications_due ON alert_notifications (status, next_at);
-- Windowed checks count outbox events of one type (failovers) by time.
CREATE INDEX events_type_at ON events (type, at);
-- The guide clock finds programmes starting in its tick across channels.
CREATE INDEX programmes_start ON programmes (start_ms);
`,
};
