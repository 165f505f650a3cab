/** English dictionary of the studio (the reference: every key here must exist in he.ts). */
import { EN_ASSET } from './en-asset';
import { EN_LIVE } from './en-live';
import { EN_GUIDE } from './en-guide';
import { EN_GUIDE_PARTNERS } from './en-guide-sources';
import { EN_FAST } from './en-fast';
import { EN_CLIPS } from './en-clips';
import { EN_NAMES } from './en-names';
import { EN_PEOPLE } from './en-people';
import { EN_SUBTITLES } from './en-subtitles';
import { EN_ARTICLES } from './en-articles';
import { EN_SITES } from './en-sites';
import { EN_IMPORTS } from './en-imports';
import { EN_INPUT_CHECKS } from './en-input-checks';
import { EN_SETTINGS } from './en-settings';

export const EN = {
  ...EN_ASSET, ...EN_LIVE, ...EN_GUIDE, ...EN_GUIDE_PARTNERS, ...EN_FAST, ...EN_CLIPS, ...EN_NAMES, ...EN_PEOPLE, ...EN_SUBTITLES, ...EN_ARTICLES, ...EN_SITES, ...EN_IMPORTS, ...EN_INPUT_CHECKS, ...EN_SETTINGS,
  studio: 'Studio', tenant: 'Organisation', skip: 'Skip to content', nav: 'Main', loading: 'Loading…', failed: 'That did not work:', retry: 'Try again', not_found: 'There is no such page.',
  copy: 'Copy', copied: 'Copied', show: 'Show', hide: 'Hide', save: 'Save', saved: 'Saved.', cancel: 'Cancel', done: 'Done', create: 'Create', delete: 'Delete', refresh: 'Refresh',
  nav_dashboard: 'Dashboard', nav_library: 'Library', nav_live: 'Live', nav_integrations: 'Integrations', nav_team: 'Team & settings',
  sign_in: 'Sign in', signing_in: 'Signing in…', sign_out: 'Sign out', signin_title: 'Sign in to the studio', signin_intro: 'Use the e-mail address and password of your studio account.',
  email: 'E-mail', password: 'Password', no_permission: 'Your role does not allow this page.',
  // dashboard
  period: 'Period', time: 'Time', range_24h: '24 hours', range_7d: '7 days', range_30d: '30 days', headline: 'Headline numbers',
  viewers_now: 'Watching now', live_updating: 'live', plays: 'Plays', watch_time: 'Watch time', viewers: 'Viewers', watch_minutes: 'Watch minutes',
  plays_watch: 'Plays and watch time', qoe: 'Quality of experience', startup: 'Startup time', rebuffer: 'Rebuffering', errors: 'Errors',
  top_content: 'Top content', channel_health: 'Live channels', recent_events: 'Recent events', waiting_events: 'Waiting for events… they appear here as they happen.',
  no_data: 'No data for this period yet.', no_channels: 'No channels yet.',
  // library
  view: 'View', all_assets: 'All assets', trash: 'Trash', search_assets: 'Search titles, IDs and metadata', n_shown: '{n} shown',
  library_empty: 'The library is empty. Drop video files above to upload them.', trash_empty: 'The trash is empty.', no_match: 'Nothing matches this search.',
  upload: 'Upload', drop_here: 'Drop video files here, or', choose_files: 'Choose files', resumed: 'resumed',
  up_starting: 'Starting…', up_uploading: 'Uploading…', up_retrying: 'Connection lost, retrying…', up_completing: 'Finishing…', up_done: 'Uploaded — open', up_failed: 'Upload failed',
  back_library: 'Back to the library', processing: 'Processing… the player appears when the video is ready.', details: 'Details', title: 'Title',
  duration: 'Duration', ladder: 'Encoding ladder', created: 'Created', publish: 'Publish', move_trash: 'Move to trash', restore: 'Restore',
  confirm_trash: 'Move this asset to the trash? It can be restored until the trash is emptied.',
  timeline: 'Status timeline', tl_registered: 'Registered', tl_started: 'started', tl_finished: 'finished', renditions: 'Renditions', resolution: 'Resolution',
  bitrate: 'Bitrate', codecs: 'Codecs', poster: 'Poster',
  // live
  channels: 'Channels', create_channel: 'Create a channel', name: 'Name', slug: 'Short name (slug)', slug_hint: 'Lower-case letters, digits and dashes; made from the name when empty.',
  packaging: 'Packaging', passthrough: 'Passthrough (the feed as it is)', abr: 'Adaptive (720p, 480p, 360p)', state: 'State', feed: 'Feed', recording: 'Recording', input: 'Input',
  feed_primary: 'primary', feed_backup: 'backup', feed_none: 'none', start: 'Start', stop: 'Stop', health: 'Health', collecting: 'Collecting bitrate samples…',
  live_player: 'Live', ingest: 'Ingest addresses', operators_only: 'Only operators see ingest addresses and secrets.', primary: 'Primary', backup: 'Backup',
  stream_key: 'Stream key', rotate: 'Rotate secrets', confirm_rotate: 'Rotate the ingest secrets? Encoders using the old ones are disconnected.',
  playback: 'Playback', ffmpeg_logs: 'ffmpeg logs', restarts: 'restarts',
  // integrations
  webhooks: 'Webhooks', endpoint_url: 'Endpoint address', events: 'Events', all_events: 'All events', add_webhook: 'Add webhook', no_webhooks: 'No webhooks yet.',
  secret_once: 'Copy the signing secret now: it is not shown again.', signing_secret: 'Signing secret', send_test: 'Send test', enable: 'Enable', disable: 'Disable',
  confirm_delete: 'Delete this? This cannot be undone.', deliveries: 'Deliveries', no_deliveries: 'No deliveries yet.', event: 'Event', response: 'Response',
  attempts: 'Attempts', when: 'When', redeliver: 'Redeliver',
  api_keys: 'API keys', api_key: 'API key', key_once: 'Copy the key now: it is shown only once.', role: 'Role', create_key: 'Create key', no_keys: 'No keys yet.',
  prefix: 'Starts with', revoke: 'Revoke', revoked: 'Revoked', confirm_revoke: 'Revoke this key? Programs using it stop working at once.',
  role_viewer: 'Viewer', role_editor: 'Editor', role_publisher: 'Publisher', role_engineer: 'Engineer', role_admin: 'Admin', role_owner: 'Owner',
  // team
  audit_log: 'Audit log', no_audit: 'Nothing recorded yet.', action: 'Action', who: 'Who',
  members: 'Members', joined: 'Joined', invitations: 'Invitations', invite: 'Invite', invite_link: 'No mail server is set up: send this link yourself.', link: 'Link',
  no_invitations: 'No pending invitations.', expires: 'expires', branding: 'Branding and settings', tenant_name: 'Organisation name', logo_url: 'Logo address',
  logo_hint: 'An https address of an image.', primary_colour: 'Main colour', accent_colour: 'Accent colour', time_zone: 'Time zone',
  // guide and clips
  nav_guide: 'Guide', nav_clips: 'Clips', channel: 'Channel', week: 'Week', prev_week: 'Previous week', next_week: 'Next week', today: 'Today', draft: 'draft',
  draft_waiting: '{n, plural, one {# staged change waits} other {# staged changes wait}} for review.', publish_guide: 'Publish the guide', add_programme: 'Add a programme', day: 'Day', from: 'From', to: 'To', add: 'Add',
  cut_clip: 'Cut a clip from the recording', clip_in: 'In', clip_out: 'Out', precision: 'Precision', precision_segment: 'Segment (ready at once)',
  precision_frame: 'Frame (exact, cut by a job)', cut: 'Cut clip', clip: 'Clip', clips: 'Clips', no_clips: 'No clips yet.', watch: 'Watch',
  st_finalizing: 'finalizing', st_final: 'final', st_expired: 'expired',
  nav_delivery: 'Delivery & security', policies: 'Playback policies', no_policies: 'No policies: playback is open.', token_required: 'Signed token required',
  referrers: 'Allowed sites', referrers_hint: 'Host names, separated by commas.', deny_countries: 'Blocked countries', attached: 'Applies to', attach_tenant: 'Apply to everything',
  signing_keys: 'Signing keys', confirm_rotate_key: 'Rotate the signing key? Tokens signed with the old key keep working until it is retired.', revocations: 'Revoked sessions',
  no_revocations: 'No revoked sessions.', player_configs: 'Player configurations', no_configs: 'No player configurations yet.', preview_needs_asset: 'The preview needs a ready asset in the library.',
  recent_alerts: 'Recent alerts', no_alerts: 'No alerts.', reencode: 'Re-encode',
  // statuses
  st_registered: 'registered', st_probing: 'probing', st_queued: 'queued', st_encoding: 'encoding', st_packaging: 'packaging', st_ready: 'ready', st_failed: 'failed',
  st_published: 'published', st_live: 'live', st_stopped: 'stopped', st_waiting: 'waiting for feed', st_gap: 'gap', st_rec_on: 'recording', st_rec_off: 'not recording',
  st_rec_gap: 'recording gap', st_enabled: 'enabled', st_disabled: 'disabled', st_pending: 'pending', st_delivered: 'delivered', st_dead: 'gave up', st_firing: 'firing', st_previous: 'previous', st_resolved: 'resolved',
};

/** A dictionary key. */
export type Key = keyof typeof EN;
