import type { Migration } from '../migration';
import { m0198 } from './0198_guide_sources';
import { m0199 } from './0199_guide_templates';
import { m0200 } from './0200_guide_destinations';
import { m0203 } from './0203_fast_channels';
import { m0207 } from './0207_cluster';
import { m0213 } from './0213_notification_rules';
import { m0214 } from './0214_packaging_settings';
import { m0221 } from './0221_sites_change_index';
import { m0222 } from './0222_subtitle_live_channel_gone';
import { m0223 } from './0223_watermark';
import { m0226 } from './0226_channel_input_checks';
import { m0231 } from './0231_cluster_stream_seq';
import { m0236 } from './0236_sites_changes';
import { m0240 } from './0240_live_hour_moves';
import { m0243 } from './0243_watermark_offset_search';
import { m0244 } from './0244_watermark_sessions_prune';
import { m0247 } from './0247_export_on_workers';
import { m0249 } from './0249_clip_file_deletes';
import { m0001 } from './0001_identity';
import { m0002 } from './0002_jobs_outbox';
import { m0010 } from './0010_assets';
import { m0011 } from './0011_asset_library';
import { m0012 } from './0012_uploads';
import { m0020 } from './0020_media_jobs';
import { m0030 } from './0030_webhooks';
import { m0031 } from './0031_inbound_hooks';
import { m0040 } from './0040_channels';
import { m0041 } from './0041_live_hours';
import { m0042 } from './0042_live_hour_lists';
import { m0048 } from './0048_channel_key_hashes';
import { m0050 } from './0050_playback';
import { m0051 } from './0051_playback_change_counter';
import { m0060 } from './0060_guide';
import { m0061 } from './0061_clip_first_segment';
import { m0062 } from './0062_guide_version_author';
import { m0070 } from './0070_player';
import { m0080 } from './0080_people';
import { m0090 } from './0090_support';
import { m0100 } from './0100_monitors';
import { m0110 } from './0110_delivery_grant_version';
import { m0113 } from './0113_session_expiry_hook_signatures';
import { m0130 } from './0130_subtitles';
import { m0131 } from './0131_subtitle_revisions';
import { m0132 } from './0132_glossary';
import { m0133 } from './0133_subtitle_settings';
import { m0150 } from './0150_sites';
import { m0160 } from './0160_ai_artifacts';
import { m0180 } from './0180_billing';
import { m0181 } from './0181_event_export';
import { m0182 } from './0182_storage_keys';
import { m0183 } from './0183_library_imports';
import { m0196 } from './0196_library_import_reading';
import { m0184 } from './0184_live_subtitles';
import { m0185 } from './0185_subtitle_search_rowids';
import { m0189 } from './0189_cdn_distributions';
import { m0187 } from './0187_site_page_review';
import { m0192 } from './0192_blackouts';
import { m0193 } from './0193_leaks';
import { m0140 } from './0140_subtitle_search';
import { m0135 } from './0135_subtitle_channel_tracks';

/** Every schema migration, in version order. Add new files here (one line each). */
export const MIGRATIONS: Migration[] = [
  m0001,
  m0002,
  m0010,
  m0011,
  m0012,
  m0020,
  m0030,
  m0031,
  m0040,
  m0041,
  m0042,
  m0048,
  m0050,
  m0051,
  m0060,
  m0061,
  m0062,
  m0070,
  m0080,
  m0090,
  m0100,
  m0110,
  m0113,
  m0130,
  m0131,
  m0132,
  m0133,
  m0135,
  m0140,
  m0150,
  m0160,
  m0180,
  m0181,
  m0182,
  m0183,
  m0184,
  m0185,
  m0189,
  m0187,
  m0192,
  m0193,
  m0196,
  m0198,
  m0199,
  m0200,
  m0203,
  m0207,
  m0213,
  m0214,
  m0221,
  m0222,
  m0223,
  m0226,
  m0231,
  m0236,
  m0240,
  m0243,
  m0244,
  m0247,
  m0249,
];
