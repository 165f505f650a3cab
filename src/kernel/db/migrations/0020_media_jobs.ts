import type { Migration } from '../migration';

/** Job queue extras (cancel flag, start time, per-job notes) and asset media columns (first-playable, encoder). */
export const m0020: Migration = {
  version: 20,
  name: 'media_jobs',
  sql: `
ALTER TABLE jobs ADD COLUMN cancel_requested INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN started_at INTEGER;
ALTER TABLE assets ADD COLUMN eta_s INTEGER;
ALTER TABLE assets ADD COLUMN output_version INTEGER NOT NULL DEFAULT 0;
CREATE INDEX jobs_failed ON jobs(tenant_id, status, seq);
`,
};
