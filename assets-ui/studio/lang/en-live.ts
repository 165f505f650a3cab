/** English strings of the studio's live pages (merged into EN; every key must also be in he-live.ts). */
export const EN_LIVE = {
  // channel settings
  lv_edit: 'Edit settings', lv_settings: 'Channel settings', lv_save: 'Save changes', lv_saving: 'Saving…', lv_saved: 'Settings saved.', lv_cancel: 'Cancel',
  lv_protocol: 'Encoder protocol', lv_latency: 'SRT latency (ms)', lv_failover: 'Switch to the backup after (seconds of primary silence)',
  lv_segment: 'Segment duration (seconds)', lv_dvr: 'Live window (seconds a viewer can rewind)', lv_rec_enabled: 'Record continuously',
  lv_retention: 'Keep recordings (hours)', lv_timezone: 'Guide time zone', lv_timezone_hint: 'An IANA name such as Asia/Jerusalem or UTC.',
  lv_restart_note: 'Changing the latency, segment duration, packaging or recording restarts a running channel (viewers see a short break).',
  lv_custom_ladder: 'Custom rungs (kept as they are)', lv_no_changes: 'Nothing changed.', lv_fix_fields: 'Check the fields marked below.',
  // per-input health
  lv_inputs: 'Inputs', lv_connected: 'receiving', lv_not_connected: 'nothing arriving', lv_on_air: 'on air', lv_fps: 'Frame rate', lv_restarts: 'Restarts',
  lv_fps_unit: 'frames/s', lv_input_graph: '{input}: bitrate and frame rate', lv_collecting_input: 'Waiting for media on this input…',
  // history
  lv_history: 'Failovers and recording', lv_history_hint: 'The last {h} hours, newest first.', lv_no_history: 'No feed changes or recording gaps in this period.',
  lv_ev_failover: 'Failover: {from} → {to}', lv_ev_feed: 'Feed: {from} → {to}', lv_ev_rec: 'Recording: {to}', lv_ev_gap: 'Recording gap of {d}',
  lv_gap_open: 'Recording gap since {t} (still open)', lv_recorded: 'Recorded in this period', lv_failovers: 'Failovers', lv_gaps: 'Gaps',
  lv_r_start: 'channel started', lv_r_primary_silent: 'primary silent', lv_r_backup_silent: 'backup silent', lv_r_primary_returned: 'primary returned', lv_r_no_feed: 'no feed',
  lv_reason: 'reason: {r}',
  // alert bell
  lv_alerts: 'Alerts', lv_alerts_n: '{n} firing alerts', lv_no_firing: 'No firing alerts.', lv_ack: 'Acknowledge', lv_acked: 'acknowledged {t}',
  st_critical: 'critical', st_warning: 'warning', st_info: 'info',
  lv_since: 'since {t}', lv_close: 'Close',
};
