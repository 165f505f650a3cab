import type { Migration } from '../migration';

/** Who published each guide version (a person's name or an API key), shown in the studio's version list. */
export const m0062: Migration = {
  version: 62,
  name: 'guide_version_author',
  sql: 'ALTER TABLE guide_versions ADD COLUMN author TEXT;',
};
