import type { Migration } from '../migration';

/**
 * Sites (issue 44): a covering index for the public catalogue's once-a-second change check (count, newest updated_at
 * and published count of a tenant's assets), which otherwise reads every asset row: ~0.1 s at 100,000 items on a
 * busy box, on the request path; ~9 ms from this index.
 */
export const m0221: Migration = {
  version: 221,
  name: 'sites_change_index',
  sql: `
CREATE INDEX assets_site_changes ON assets(tenant_id, updated_at, published);
`,
};
