import type { Migration } from '../migration';

/**
 * Pruning marked sessions (issue 46): `watermark_sessions` rows older than the trace retention are deleted by the
 * session sweeper in batches; this index lets it find them by issue time across tenants.
 */
export const m0244: Migration = {
  version: 244,
  name: 'watermark_sessions_prune',
  sql: `
CREATE INDEX watermark_sessions_issued ON watermark_sessions (issued_at);
`,
};
