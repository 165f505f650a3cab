import type { Migration } from '../migration';

/**
 * RTMP stream keys are stored sealed (random per write), so publish lookups go by their SHA-256 instead. Existing
 * rows get their hashes (and sealed values) from the boot-time re-seal (src/kernel/secrets/columns.ts).
 */
export const m0048: Migration = {
  version: 48,
  name: 'channel_key_hashes',
  sql: `
ALTER TABLE channels ADD COLUMN rtmp_hash_primary TEXT;
ALTER TABLE channels ADD COLUMN rtmp_hash_backup TEXT;
CREATE UNIQUE INDEX channels_rtmp_hash_primary ON channels(rtmp_hash_primary);
CREATE UNIQUE INDEX channels_rtmp_hash_backup ON channels(rtmp_hash_backup);
`,
};
