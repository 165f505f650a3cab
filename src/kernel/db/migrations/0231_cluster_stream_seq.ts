import type { Migration } from '../migration';

/**
 * Cancel on the cluster (issue 49): the control node keeps the JetStream sequence of each published job message, so
 * a cancel removes a job no worker took yet from the work queue (a taken one is stopped over `vs.cancel.<job>`).
 */
export const m0231: Migration = {
  version: 231,
  name: 'cluster_stream_seq',
  sql: `
ALTER TABLE cluster_jobs ADD COLUMN stream_seq INTEGER;
`,
};
