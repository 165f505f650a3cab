import type { Migration } from '../migration';

/**
 * Past one box (issue 49): worker tokens (hashed; revocable) that let `viewstream worker --join` machines take jobs,
 * and the control node's record of each job handed to the cluster (NATS JetStream): the publish generation (its
 * de-duplication id), the worker running it, progress, and the result the control node alone writes back.
 */
export const m0207: Migration = {
  version: 207,
  name: 'cluster',
  sql: `
CREATE TABLE worker_tokens (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  last_seen_at INTEGER
);
CREATE TABLE cluster_jobs (
  job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  gen INTEGER NOT NULL DEFAULT 1,
  status TEXT NOT NULL,
  subject TEXT NOT NULL,
  worker TEXT,
  progress REAL,
  eta_s INTEGER,
  result TEXT,
  error TEXT,
  permanent INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);
`,
};
