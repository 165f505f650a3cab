import type { Migration } from '../migration';

/**
 * Closed months of billing usage (issue 47): once a month has ended (plus a grace hour for late statistics), its
 * figures are computed once and kept here, so retention of segments, events and statistics never changes a past bill.
 */
export const m0180: Migration = {
  version: 180,
  name: 'billing_months',
  sql: `
CREATE TABLE billing_months (
  tenant_id TEXT NOT NULL,
  month TEXT NOT NULL,
  figures TEXT NOT NULL,
  computed_at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, month)
) WITHOUT ROWID;
`,
};
