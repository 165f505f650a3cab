import type { Migration } from '../migration';

/**
 * Publish with review (issue 44, studio): a page's draft can be sent for review (`review`: JSON `{by, at}` of the
 * request); editing the draft or publishing it clears the request.
 */
export const m0187: Migration = {
  version: 187,
  name: 'site_page_review',
  sql: `ALTER TABLE site_pages ADD COLUMN review TEXT;`,
};
