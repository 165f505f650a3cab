import type { Migration } from '../migration';

/**
 * Live subtitles (issue 43, migration 0184) go with their channel: a deleted channel's `subtitle_live` rows were left
 * behind (its languages stayed "on" for a channel that no longer exists). Orphans are removed and a trigger removes a
 * channel's rows with it (the table has no foreign key; SQLite cannot add one to an existing table).
 */
export const m0222: Migration = {
  version: 222,
  name: 'subtitle_live_channel_gone',
  sql: `
DELETE FROM subtitle_live WHERE channel_id NOT IN (SELECT id FROM channels);
CREATE TRIGGER subtitle_live_channel_gone AFTER DELETE ON channels BEGIN
  DELETE FROM subtitle_live WHERE channel_id = OLD.id;
END;
`,
};
