import type { Migration } from '../migration';

/**
 * Library imports read in the background (issue 47): an import is created `fetching` and a durable `imports.read`
 * job reads its sitemaps; `progress` says how far it got, `error` (a problem) why it `failed`. `format` is empty
 * until the reading is done.
 */
export const m0196: Migration = {
  version: 196,
  name: 'library_import_reading',
  sql: `
ALTER TABLE library_imports ADD COLUMN progress TEXT;
ALTER TABLE library_imports ADD COLUMN error TEXT;
`,
};
