import type { Migration } from '../migration';

/**
 * Subtitle tracks beyond library assets (issue 43): a translated track names the track it was translated from
 * (`source_track_id`); a channel-recording track names its channel, its wall-clock range (`range_start_ms` to
 * `range_end_ms`, epoch ms) and the guide programme it was made for (nullable). A channel track has `asset_id` ''
 * (the column predates channel tracks and is NOT NULL); its cues are stored relative to `range_start_ms`.
 */
export const m0135: Migration = {
  version: 135,
  name: 'subtitle_channel_tracks',
  sql: `
ALTER TABLE subtitle_tracks ADD COLUMN source_track_id TEXT;
ALTER TABLE subtitle_tracks ADD COLUMN channel_id TEXT;
ALTER TABLE subtitle_tracks ADD COLUMN range_start_ms INTEGER;
ALTER TABLE subtitle_tracks ADD COLUMN range_end_ms INTEGER;
ALTER TABLE subtitle_tracks ADD COLUMN programme_id TEXT;
CREATE INDEX subtitle_tracks_channel ON subtitle_tracks (channel_id, range_start_ms) WHERE channel_id IS NOT NULL;
CREATE INDEX subtitle_tracks_programme ON subtitle_tracks (programme_id) WHERE programme_id IS NOT NULL;
`,
};
