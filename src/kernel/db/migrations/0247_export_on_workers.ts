import type { Migration } from '../migration';

/**
 * Export batches sent by cluster workers (issue 49). `export_batches.sends` counts the attempts ever made of a batch
 * (never reset: a dead-letter replay sets `attempts` back to 0, not this), so each attempt handed to a worker has its
 * own cluster record `export-<batch>-<sends>`; an outcome already applied is never applied (or sent) again after a
 * restart. `cluster_jobs` loses its foreign key to `jobs`: an export attempt is not a queue job (the export loop cuts
 * and schedules batches itself), so the record is kept apart; triggers remove the records of a deleted job or batch.
 */
export const m0247: Migration = {
  version: 247,
  name: 'export_on_workers',
  sql: `
ALTER TABLE export_batches ADD COLUMN sends INTEGER NOT NULL DEFAULT 0;
UPDATE export_batches SET sends = attempts;
CREATE TABLE cluster_jobs_new (
  job_id TEXT PRIMARY KEY,
  gen INTEGER NOT NULL DEFAULT 1,
  status TEXT NOT NULL,
  subject TEXT NOT NULL,
  worker TEXT,
  progress REAL,
  eta_s INTEGER,
  result TEXT,
  error TEXT,
  permanent INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  stream_seq INTEGER
);
INSERT INTO cluster_jobs_new (job_id, gen, status, subject, worker, progress, eta_s, result, error, permanent, updated_at, stream_seq)
  SELECT job_id, gen, status, subject, worker, progress, eta_s, result, error, permanent, updated_at, stream_seq FROM cluster_jobs;
DROP TABLE cluster_jobs;
ALTER TABLE cluster_jobs_new RENAME TO cluster_jobs;
CREATE TRIGGER cluster_jobs_of_job AFTER DELETE ON jobs BEGIN
  DELETE FROM cluster_jobs WHERE job_id = OLD.id;
END;
CREATE TRIGGER cluster_jobs_of_export_batch AFTER DELETE ON export_batches BEGIN
  DELETE FROM cluster_jobs WHERE job_id >= 'export-' || OLD.id || '-' AND job_id < 'export-' || OLD.id || '.';
END;
`,
};
