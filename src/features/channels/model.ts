import { t } from 'elysia';
import { InputChecksStateView } from './input-checks-model';
import { Int } from '../../kernel/http/schema';

const Slug = t.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$', description: 'lower-case letters, digits and dashes; unique in the tenant' });
const Recording = t.Object({
  enabled: t.Optional(t.Boolean({ description: 'continuous recording on (default true)' })),
  retention_hours: t.Optional(Int({ minimum: 1, maximum: 24 * 366, description: 'hours of recording kept (default 168)' })),
}, { additionalProperties: false });
const Ingest = t.Object({
  protocol: t.Optional(t.Union([t.Literal('srt'), t.Literal('rtmp')], { description: 'the protocol the channel listens to (default `srt`); a push over the other one is refused at connect with the reason. Changing it restarts a running channel\'s ingest (a few seconds without feed)' })),
  latency_ms: t.Optional(Int({ minimum: 20, maximum: 8000, description: 'SRT receive latency (default 120)' })),
  failover_s: t.Optional(t.Number({ minimum: 1, maximum: 60, description: 'seconds of primary silence before the backup becomes the feed (default 3)' })),
}, { additionalProperties: false });
const Rung = t.Object({
  height: Int({ minimum: 72, maximum: 2160, description: 'height cap in pixels (never upscaled); the rendition is named `<height>p`' }),
  video_kbps: Int({ minimum: 50, maximum: 50_000 }),
}, { additionalProperties: false });
const Common = {
  name: t.String({ minLength: 1, maxLength: 200 }),
  ingest: t.Optional(Ingest),
  ladder: t.Optional(t.Union([t.Literal('passthrough'), t.Literal('abr'), t.Array(Rung, { minItems: 1, maxItems: 6 })], {
    description: 'packaging: `passthrough` (default; the feed\'s H.264 copied, non-AAC audio encoded to AAC), `abr` (720p/480p/360p encoded live on the best encoder, never upscaled, aligned segments) or your own rungs',
  })),
  recording: t.Optional(Recording),
  dvr_window_s: t.Optional(Int({ minimum: 10, maximum: 86400, description: 'seconds listed in the live playlist (default 3600)' })),
  segment_s: t.Optional(Int({ minimum: 1, maximum: 10, description: 'target CMAF segment duration (default 2)' })),
  timezone: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the guide (default: the tenant\'s `time_zone`)' })),
};

/** Body of POST /v1/channels. */
export const CreateChannelBody = t.Object({ ...Common, slug: t.Optional(Slug) }, { additionalProperties: false });
/** Body of PATCH /v1/channels/{id}. */
export const PatchChannelBody = t.Object({ ...Common, name: t.Optional(Common.name) }, { additionalProperties: false });
/** Body of POST /v1/channels/{id}/ingest/rotate. */
export const RotateBody = t.Object({
  srt: t.Optional(t.Boolean({ description: 'rotate the SRT passphrase (default true)' })),
  rtmp: t.Optional(t.Boolean({ description: 'rotate both RTMP stream keys (default true)' })),
}, { additionalProperties: false });

/** Input types of the service. */
export type CreateChannel = typeof CreateChannelBody.static;
/** PATCH input. */
export type PatchChannel = typeof PatchChannelBody.static;

const Endpoint = t.Object({ url: t.String(), port: Int(), passphrase: t.String() });
const RtmpEndpoint = t.Object({ url: t.String(), stream_key: t.String() });
/** Answer of GET /v1/channels/{id}/ingest (secrets). */
export const IngestView = t.Object({
  srt: t.Object({ primary: Endpoint, backup: Endpoint, latency_ms: Int(), pbkeylen: Int() }),
  rtmp: t.Object({ primary: RtmpEndpoint, backup: RtmpEndpoint }),
});

const InputNow = t.Object({
  connected: t.Boolean({ description: 'media arrived on this input within the last 5 s' }),
  bitrate_kbps: t.Union([t.Number(), t.Null()]), fps: t.Union([t.Number(), t.Null()]), resolution: t.Union([t.String(), t.Null()]),
  restarts: Int({ description: 'times this input\'s ffmpeg was restarted since the channel started' }),
});

/** A channel as answered (no secrets). */
export const ChannelView = t.Object({
  id: t.String(), slug: t.String(), name: t.String(),
  status: t.Union([t.Literal('stopped'), t.Literal('waiting'), t.Literal('live'), t.Literal('failed')]),
  started: t.Boolean({ description: 'the operator asked the channel to run (restarted after a server restart)' }),
  feed: t.Union([t.Literal('primary'), t.Literal('backup'), t.Literal('none')]),
  recording: t.Union([t.Literal('on'), t.Literal('off'), t.Literal('gap')]),
  input: t.Object({
    bitrate_kbps: t.Union([t.Number(), t.Null()], { description: 'kbit/s of the on-air input over the last ~4 s of media (bytes of the segments it packaged ÷ their duration)' }),
    fps: t.Union([t.Number(), t.Null()], { description: 'frames per second the on-air input receives (over the last ~4 s)' }),
    resolution: t.Union([t.String(), t.Null()]),
    video_codec: t.Union([t.String(), t.Null()]), audio_codec: t.Union([t.String(), t.Null()]),
    warnings: t.Optional(t.Array(t.Object({ code: t.String(), detail: t.String() }), { description: 'why browsers cannot play this feed as it is (passthrough channels; a ladder channel transcodes instead)' })),
  }),
  inputs: t.Object({ primary: InputNow, backup: InputNow }, { description: 'each ingest input now, on air or not (the backup is measured while the primary feeds the channel)' }),
  input_checks: t.Optional(t.Object(InputChecksStateView.properties, { description: 'input monitoring of the on-air signal (black, freeze, silence, loudness): what holds now and since when; settings at /v1/channels/{id}/input-checks' })),
  ingest: t.Object({
    protocol: t.String({ description: '`srt` or `rtmp`: the one protocol the channel listens to' }), srt_ports: t.Object({ primary: Int(), backup: Int() }), latency_ms: Int(), failover_s: t.Number(),
    last_refused: t.Union([t.Object({
      at: t.String({ description: 'RFC 3339' }), protocol: t.String(), code: t.String({ description: '`wrong_protocol` or `stopped`' }),
      reason: t.String({ description: 'the words the encoder was sent' }), from: t.String({ description: 'the encoder\'s address' }),
    }), t.Null()], { description: 'the last push to this channel refused at connect since the server started, while it applies (null: none; it goes once the channel takes that protocol or is started); an unknown stream key cannot be tied to a channel and is only logged' }),
  }),
  ladder: t.Union([t.String(), t.Array(t.Object({ height: Int(), video_kbps: Int() }))]),
  segment_s: t.Number(),
  recording_settings: t.Object({ enabled: t.Boolean(), retention_hours: Int() }),
  dvr_window_s: Int(),
  timezone: t.String(),
  playback: t.Object({ hls: t.String() }),
  created_at: t.String(), updated_at: t.String(),
});

/** Answer of GET /v1/channels/{id}/logs. */
export const LogsView = t.Object({ primary: t.Array(t.String()), backup: t.Array(t.String()), restarts: Int() });

const At = t.String({ description: 'RFC 3339' });
/** Query of GET /v1/channels/{id}/history. */
export const HistoryQuery = t.Object({
  from: t.Optional(t.String({ maxLength: 40, description: 'RFC 3339; default one hour before `to`' })),
  to: t.Optional(t.String({ maxLength: 40, description: 'RFC 3339; default now; at most 8 days after `from`' })),
});
/** Answer of GET /v1/channels/{id}/history. */
export const HistoryView = t.Object({
  channel_id: t.String(), from: At, to: At,
  feed: t.String({ description: 'the feed now' }), recording: t.String({ description: 'the recording status now' }),
  feed_changes: t.Array(t.Object({ at: At, feed: t.String(), previous: t.String(), reason: t.String() }), { description: 'the input on air changed (`none` when no input feeds the channel), oldest first' }),
  failovers: t.Array(t.Object({ at: At, from: t.String(), to: t.String(), reason: t.String() }), { description: 'switches between the primary and the backup input' }),
  recording_changes: t.Array(t.Object({ at: At, recording: t.String(), previous: t.String() }), { description: 'recording status changes (`on`, `off`, `gap`)' }),
  gaps: t.Array(t.Object({ from: At, to: At, duration_s: t.Number(), open: t.Boolean({ description: 'still missing now: nothing recorded since `from`' }) }), { description: 'holes of a second or more in the recording (from the segment index)' }),
  recorded_s: t.Number({ description: 'seconds recorded in the window' }),
  truncated: t.Boolean({ description: 'more than 500 entries of a list: the newest 500 are kept' }),
});
