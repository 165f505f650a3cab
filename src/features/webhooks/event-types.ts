/**
 * The authoritative catalogue of event types (returned as `event_types` by GET /v1/webhooks) with the shape of each
 * type's `data`, which the OpenAPI document renders from here.
 */
export const EVENT_TYPES: Record<string, string> = {
  'asset.ready': '`{asset, external_id, status, error?, playback?}` — processing finished (`status` is `ready`); `playback` holds the playback URLs when known.',
  'asset.preview_ready': '`{asset, external_id, status, preview: {hls}, source}` — a playable preview exists while the asset is still processing (`source`: `remux`, `quick-encode` or `ladder`); `preview.hls` keeps answering (the ladder\'s master) once ready.',
  'asset.published': '`{asset, external_id, published_at}` — a ready asset was published.',
  'asset.failed': '`{asset, external_id, status, error?, playback?}` — processing failed (`status` is `failed`); `error` is a short reason.',
  'clip.ready': '`{clip, channel?, asset?, precision, status}` — a clip can be played (segment clips at once, frame clips before re-encoding).',
  'clip.final': '`{clip, channel?, asset?, status: "final"}` — a frame-precision clip finished re-encoding.',
  'channel.feed_changed': '`{channel_id, slug, feed, previous, reason, warnings?}` — the feed on air changed (input switch, slate), or its health warnings changed (`warnings: [{code, detail}]`: a codec, profile or pixel format browsers cannot play).',
  'channel.ingest_failover': '`{channel, from_input, to_input, reason}` — ingest switched to a backup input.',
  'channel.recording_status': '`{channel, recording: boolean, reason?}` — continuous recording started or stopped.',
  'channel.input_black': '`{channel_id, slug, input, check, state, since, ended_at?, duration_s?, value?, reason?, settings}` — the on-air picture turned black for the channel\'s `black.min_duration_s` (`state: "started"`, `since`: when it began), or picture returned (`state: "ended"` with `ended_at`, `duration_s`; `reason` when the analyser restarted or stopped instead). docs/input-monitoring.md.',
  'channel.input_freeze': '`{channel_id, slug, input, check, state, since, ended_at?, duration_s?, value?, reason?, settings}` — the on-air picture stayed unchanged for `freeze.min_duration_s` (`started`), or moved again (`ended`).',
  'channel.input_silence': '`{channel_id, slug, input, check, state, since, ended_at?, duration_s?, value?, reason?, settings}` — the on-air audio stayed under `silence.noise_db` for `silence.min_duration_s` (`started`), or sound returned (`ended`).',
  'channel.input_loudness': '`{channel_id, slug, input, check, state, since, ended_at?, duration_s?, value?, reason?, settings}` — the on-air short-term loudness (EBU R128) stayed outside `loudness.target_lufs` ± `tolerance_lu` for `min_duration_s` (`started`; `value`: short-term LUFS), or came back within it (`ended`).',
  'channel.programme_started': '`{channel, channel_id, slug, programme, title, start, end}` — a guide programme went on air (the guide clock, once per programme start).',
  'prewarm.finished': '`{prewarm, status, urls, failed}` — an edge pre-warm request finished.',
  'security.leak_suspected': '`{leak, asset?, channel?, reason}` — a playback leak is suspected.',
  'security.revoked': '`{session?, token?, reason}` — playback sessions or tokens were revoked.',
  'policy.changed': '`{policy, change}` — a playback policy changed.',
  'epg.published': '`{channel, version, from, to}` — a guide version was published; also, per publishing destination that received it, `{destination_id, destination, kind, delivery, channel, trigger, attempt, bytes}`.',
  'epg.delivery_failed': '`{destination_id, destination, kind, delivery, channel, trigger, attempts, error}` — delivering the guide to a destination failed after its last retry.',
  'alert.firing': '`{alert, monitor, monitor_name, check, severity, target_kind, target_id, value, threshold, summary, detail, since, started_at, muted, inapp}` — a monitor check started firing (`since`: when its condition began; `muted`: `snooze` or `quiet_hours` when e-mail and Telegram were held back). See docs/monitors.md.',
  'alert.resolved': '`{alert, monitor, monitor_name, check, severity, target_kind, target_id, started_at, resolved_at, duration_s, detail, value, reason?}` — a firing alert resolved (`reason: "check changed"` when its check was edited).',
  'artifact.published': '`{artifact, subject, url, moment_url, jsonld}` — an AI article was approved (once).',
  ping: '`{webhook_id}` — sent by POST /v1/webhooks/{id}/test to that endpoint only.',
};

/** Every event type name, in catalogue order. */
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES);

/** True when `t` is a known event type. */
export function isEventType(t: string): boolean {
  return Object.prototype.hasOwnProperty.call(EVENT_TYPES, t);
}

/** Markdown table of event types and their `data`, for OpenAPI descriptions. */
export function eventTypesMarkdown(): string {
  return ['| Event type | `data` |', '|---|---|', ...EVENT_TYPE_NAMES.map((t) => `| \`${t}\` | ${EVENT_TYPES[t]} |`)].join('\n');
}
