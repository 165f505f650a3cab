/** English strings of the guide-to-partners pages: EPG sources, templates, destinations (every key also in he-guide-sources.ts). */
export const EN_GUIDE_PARTNERS = {
  gp_nav: 'Guide sections', gp_nav_guide: 'Week', gp_nav_sources: 'EPG sources', gp_nav_templates: 'Templates', gp_nav_destinations: 'Destinations',
  // sources
  gp_sources_title: 'EPG sources', gp_sources_intro: 'Each channel can read its guide from an XMLTV address on a schedule. A changed document waits as a draft for review, unless it publishes at once.',
  gp_add_source: 'Add a source', gp_source_url: 'XMLTV address (URL)', gp_interval: 'Fetch every (minutes)', gp_auto_publish: 'Publish changes at once (no review)',
  gp_xml_channel: 'Channel in the document (optional)', gp_no_sources: 'No EPG sources yet.', gp_fetch_now: 'Fetch now', gp_fetch_log: 'Fetch log', gp_hide_log: 'Hide the log',
  gp_last_fetch: 'Last fetch', gp_mode: 'Changes', gp_mode_review: 'draft for review', gp_mode_auto: 'published at once', gp_every: 'every {n} min',
  gp_items: 'Programmes', gp_reason: 'Reason', gp_never: 'not yet', gp_fetched: 'Fetched: {status}.',
  gp_st_not_modified: 'not modified', gp_st_unchanged: 'unchanged', gp_st_staged: 'staged as a draft', gp_st_published: 'published', gp_st_error: 'error',
  gp_st_delivered: 'delivered', gp_st_retrying: 'will retry', gp_st_failed: 'failed',
  gp_trigger_schedule: 'scheduled', gp_trigger_manual: 'by hand', gp_no_log: 'Nothing logged yet.',
  // templates
  gp_templates_title: 'Schedule templates', gp_templates_intro: 'A week of fixed slots. Applied to a channel and a range of days, it becomes a draft of the guide: look at it in the week view, then publish or discard it.',
  gp_template: 'Template', gp_new_template: 'New template', gp_template_name: 'Template name', gp_save_template: 'Save the template', gp_saved: 'Template saved.',
  gp_add_slot: 'Add a slot', gp_weekday: 'Day of the week', gp_start: 'Starts', gp_minutes: 'Length (minutes)', gp_slot_title: 'Title', gp_remove_slot: 'Remove “{title}”',
  gp_no_slots: 'No slots on this day.', gp_apply: 'Apply to days', gp_apply_from: 'First day', gp_apply_to: 'Last day', gp_apply_mode: 'How',
  gp_mode_fill: 'Fill the gaps only', gp_mode_replace: 'Replace those days', gp_apply_btn: 'Apply and open the draft', gp_applied: 'Staged {n} programmes as a draft; {skipped} slots were left out because the guide already has a programme there.',
  gp_no_templates: 'No templates yet: give the new one a name and slots.', gp_delete_template: 'Delete the template',
  // destinations
  gp_dest_title: 'Publishing destinations', gp_dest_intro: 'After each publish, the published guide is sent to partners; each destination also has a private address partners can read it from.',
  gp_add_dest: 'Add a destination', gp_dest_name: 'Name', gp_kind: 'Delivery', gp_kind_https: 'Web address (signed request)', gp_kind_sftp: 'File server (SFTP)', gp_kind_s3: 'Object storage (S3)', gp_kind_pull: 'Partner reads it (address only)',
  gp_format: 'Document', gp_channels: 'Channels', gp_days_behind: 'Days before today', gp_days_ahead: 'Days after today', gp_timezone: 'Time zone', gp_retries: 'Retries', gp_retry_delay: 'First retry after (seconds)',
  gp_url: 'Receiver address', gp_method: 'Method', gp_host: 'Server', gp_port: 'Port', gp_username: 'User name', gp_path: 'File path on the server', gp_private_key: 'Private key', gp_password: 'Password', gp_host_key: 'Server key fingerprint (optional)',
  gp_endpoint: 'Storage address', gp_bucket: 'Bucket', gp_key: 'Object name', gp_access_key: 'Access key', gp_secret_key: 'Secret key',
  gp_secret_once: 'The signing secret is shown only now. Give it to the partner so they can check each delivery.', gp_signing_secret: 'Signing secret',
  gp_pull_url: 'Address partners read from', gp_test: 'Send a test', gp_test_ok: 'The test arrived ({bytes} bytes, {ms} ms).', gp_test_failed: 'The test did not arrive: {why}',
  gp_deliveries: 'Delivery log', gp_no_dest: 'No destinations yet.', gp_attempt: 'Attempt', gp_window: '{behind, plural, one {# day} other {# days}} back, {ahead, plural, one {# day} other {# days}} ahead ({tz})',
  gp_last_delivery: 'Last delivery', gp_choose_channel: 'Choose at least one channel.',
  // the version kind of an auto-published EPG source (guide-versions.tsx reads g_kind_<kind>)
  g_kind_source: 'Published from an EPG source',
};
