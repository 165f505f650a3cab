import type { Migration } from '../migration';

/** The durable job queue and the event outbox shared by every feature. */
export const m0002: Migration = {
  version: 2,
  name: 'jobs_outbox',
  sql: `
CREATE TABLE jobs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  type TEXT NOT NULL,
  payload TEXT NOT NULL,
  subject_kind TEXT,
  subject_id TEXT,
  status TEXT NOT NULL DEFAULT 'queued',
  priority INTEGER NOT NULL DEFAULT 0,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL DEFAULT 5,
  run_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  progress REAL,
  eta_s INTEGER,
  error TEXT,
  result TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX jobs_ready ON jobs(status, run_at, priority);
CREATE INDEX jobs_tenant ON jobs(tenant_id, seq);
CREATE INDEX jobs_subject ON jobs(subject_kind, subject_id);
CREATE TABLE job_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  at INTEGER NOT NULL,
  kind TEXT NOT NULL,
  detail TEXT
);
CREATE INDEX job_events_job ON job_events(job_id, seq);
CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  type TEXT NOT NULL,
  at INTEGER NOT NULL,
  data TEXT NOT NULL
);
CREATE INDEX events_tenant ON events(tenant_id, seq);
`,
};
