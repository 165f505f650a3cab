/**
 * English names of what the appliance reports by code: event types (inbox, timelines), job types (status timeline)
 * and audit actions (audit log). Merged into EN; every key must also be in he-names.ts. Looked up by names.ts.
 */
export const EN_NAMES = {
  // events
  ev_asset_ready: 'Video ready', ev_asset_preview_ready: 'Video preview playable', ev_asset_published: 'Video published', ev_asset_failed: 'Video processing failed', ev_clip_ready: 'Clip ready',
  ev_clip_final: 'Clip finished (frame-exact)', ev_channel_feed_changed: 'Channel feed changed', ev_channel_ingest_failover: 'Ingest switched to backup',
  ev_channel_recording_status: 'Recording started or stopped', ev_channel_programme_started: 'Programme on air', ev_prewarm_finished: 'Edge pre-warm finished',
  ev_security_leak_suspected: 'Suspected playback leak', ev_security_revoked: 'Playback sessions revoked', ev_policy_changed: 'Playback policy changed',
  ev_epg_published: 'Guide published', ev_epg_delivery_failed: 'Guide delivery failed', ev_alert_firing: 'Alert firing', ev_alert_resolved: 'Alert resolved',
  ev_artifact_published: 'Article published', ev_ping: 'Test event', ev_family: 'All “{name}” events',
  evf_asset: 'video', evf_clip: 'clip', evf_channel: 'channel', evf_prewarm: 'pre-warm', evf_security: 'security', evf_policy: 'policy', evf_epg: 'guide',
  evf_alert: 'alert', evf_artifact: 'article',
  ev_of_asset: 'Video: {title}', ev_of_clip: 'Clip: {title}', ev_of_channel: 'Channel: {title}', ev_status: 'Status: {s}', ev_error: 'Error: {e}',
  ev_unknown_asset: 'a video no longer in the library',
  // jobs (status timeline)
  job_asset_process: 'Checking the source', job_asset_encode: 'Encoding', job_asset_fetch: 'Fetching the source', job_vod_publish: 'Copying the recording',
  job_clip_finalize: 'Cutting the clip', job_other: 'Processing',
  // audit actions
  au_key_created: 'API key created', au_key_revoked: 'API key revoked', au_member_added: '{who} joined the team as {role}', au_member_removed: '{who} removed from the team',
  au_member_role_changed: 'Role of {who} changed from {from} to {to}', au_invitation_created: 'Invitation sent to {who} ({role})', au_invitation_revoked: 'Invitation cancelled',
  au_settings_changed: 'Settings changed', au_connect_approved: 'Site connection approved', au_connect_disconnected: 'Site disconnected',
  au_signin_failed: 'Failed sign-in', au_signin_throttled: 'Sign-in blocked after repeated failures', au_password_reset: 'Password changed with a reset link',
  au_password_reset_sent: 'Password reset sent to {who}', au_asset_published: 'Published “{title}”', au_asset_unpublished: 'Unpublished “{title}”',
  au_asset_trashed: 'Moved “{title}” to the trash', au_asset_restored: 'Restored “{title}”', au_asset_purged: 'Deleted a video for good', au_asset_poster_changed: 'Poster of a video changed', au_asset_trash_emptied: 'Emptied the trash ({n})',
  au_guide_published: 'Guide of {name} published (version {v})', au_guide_rolled_back: 'Guide of {name} rolled back (version {v})',
  au_guide_changed: 'Guide of {name} changed directly, without review (version {v})',
  au_channel_stopped: 'Channel {name} stopped', au_channel_started: 'Channel {name} started', au_programme_to_library: 'Programme sent to the library',
  au_programme_to_library_pub: 'Programme published to the library', au_mcp_tool_call: 'Assistant tool used', au_other: 'Other action', au_code: 'Action code',
  au_target: 'Subject', au_system: 'the system',
};
