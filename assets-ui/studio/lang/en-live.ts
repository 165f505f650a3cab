/** English strings of the studio's live pages (merged into EN; every key must also be in he-live.ts). */
export const EN_LIVE = {
  // channel settings
  lv_edit: 'Edit settings', lv_settings: 'Channel settings', lv_save: 'Save changes', lv_saving: 'Saving…', lv_saved: 'Settings saved.', lv_cancel: 'Cancel',
  lv_protocol: 'Encoder protocol', lv_latency: 'SRT latency (ms)', lv_failover: 'Switch to the backup after (seconds of primary silence)',
  lv_segment: 'Segment duration (seconds)', lv_dvr: 'Live window (seconds a viewer can rewind)', lv_rec_enabled: 'Record continuously',
  lv_retention: 'Keep recordings (hours)', lv_timezone: 'Guide time zone', lv_timezone_hint: 'An IANA name such as Asia/Jerusalem or UTC.',
  lv_restart_note: 'Changing the encoder protocol, latency, segment duration, packaging or recording restarts a running channel (viewers see a short break).',
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
  // ingest rule, confirmations
  lv_listens_srt: 'This channel listens to SRT only: RTMP pushes are refused. To take RTMP, change the encoder protocol in the settings.',
  lv_listens_rtmp: 'This channel listens to RTMP only: SRT pushes are refused. To take SRT, change the encoder protocol in the settings.',
  lv_rtmp_server: 'Server', lv_refused_title: 'Last refused push', lv_refused_at: '{t} from {from}',
  lv_refused_wrong_protocol: 'A push over {proto} was refused: this channel listens to {listens} only.',
  lv_refused_stopped: 'A push over {proto} was refused: the channel was stopped.',
  lv_confirm_stop: 'Stop "{name}"? It is on air now: viewers lose the picture and recording stops.',
  lv_confirm_protocol: 'Switch the encoder protocol to {proto}? The channel restarts its ingest and drops off air for a few seconds; encoders still pushing {old} are refused.',
  lv_confirm_restart: 'Save and restart the running channel? It drops off air for a few seconds.',
  // alerts page
  nav_alerts: 'Alerts', al_title: 'Alerts and monitors', al_monitors: 'Monitors', al_new: 'New monitor', al_edit: 'Edit', al_delete: 'Delete',
  al_confirm_delete: 'Delete the monitor "{name}"? Its alerts stay in the history.', al_none: 'No monitors yet. A started channel gets one that watches its feed during scheduled programmes.',
  al_name: 'Name', al_target: 'Watches', al_target_channel: 'Channel', al_target_tenant: 'The whole account', al_channel: 'Channel', al_checks: 'Checks',
  al_add_check: 'Add a check', al_remove_check: 'Remove', al_threshold: 'Threshold', al_for: 'Holds for (seconds)', al_window: 'Window (seconds)', al_severity: 'Severity',
  al_during_programme: 'Only during scheduled programmes', al_destinations: 'Send to', al_no_destinations: 'No destinations yet: alerts show in the bell and go to connected systems only.',
  al_inapp: 'Show in the bell', al_notify_resolve: 'Tell when it resolves', al_repeat: 'Repeat while firing (minutes, 0 = never)',
  al_quiet: 'Quiet hours', al_quiet_on: 'Hold e-mail and Telegram during quiet hours', al_quiet_from: 'From', al_quiet_to: 'To', al_quiet_tz: 'Time zone', al_quiet_critical: 'Let critical alerts through',
  al_save: 'Save monitor', al_saved: 'Monitor saved.', al_cancel: 'Cancel', al_state_normal: 'normal', al_state_pending: 'pending', al_state_firing: 'firing',
  al_snooze: 'Snooze', al_snooze_for: 'Snooze for', al_unsnooze: 'Lift snooze', al_snoozed_until: 'Snoozed until {t}', al_minutes: '{n} minutes', al_hours: '{n, plural, one {# hour} other {# hours}}',
  al_dest_title: 'Alert destinations', al_dest_email: 'E-mail address', al_dest_add: 'Add', al_dest_telegram: 'Link a Telegram chat',
  al_dest_telegram_code: 'Send /start {code} to the bot from the chat, or open the link:', al_dest_active: 'active', al_dest_pending: 'waiting for confirmation',
  al_dest_remove: 'Remove', al_confirm_dest_remove: 'Remove the destination {target}?', al_history: 'Recent alerts', al_no_alerts: 'No alerts yet.',
  al_resolved: 'resolved {t}', al_firing_since: 'firing since {t}', al_admins_only: 'Only administrators set up monitors and destinations.',
  ck_feed_down: 'Feed down', ck_backup_feed_down: 'Backup feed down', ck_failover: 'Failover happened', ck_recorder_gap: 'Recorder gap', ck_input_bitrate_low: 'Input bitrate low', ck_input_errors: 'Input errors', ck_disk_free_low: 'Disk free low', ck_startup_p95: 'Startup time p95', ck_error_rate: 'Error rate', ck_rebuffer_ratio: 'Rebuffer ratio', ck_concurrent_drop: 'Concurrent viewers drop', ck_lip_sync: 'Lip-sync offset',
  al_muted_snooze: 'muted (snoozed)', al_muted_quiet: 'muted (quiet hours)',
  al_sum_feed_down: 'No feed on air on "{channel}".', al_sum_feed_down_prog: 'No feed on air on "{channel}" during "{programme}".',
};
