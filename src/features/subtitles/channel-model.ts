import { t } from 'elysia';
import type { ChannelTrackRow } from './channel-store';

/** POST /v1/channels/{id}/subtitles: a programme or a wall-clock range; an upload (`content`) or speech recognition. */
export const CreateChannelTrackBody = t.Object({
  language: t.String({ minLength: 2, maxLength: 35, description: 'BCP 47 language of the text (`he`, `en`, `ar`)' }),
  programme_id: t.Optional(t.String({ description: 'the guide programme: its range is the played range (`play_start`/`play_end`) or its slot' })),
  start_at: t.Optional(t.String({ description: 'range start (RFC 3339), with end_at, instead of programme_id' })),
  end_at: t.Optional(t.String({ description: 'range end (RFC 3339); at most 12 hours after start_at' })),
  kind: t.Optional(t.Union([t.Literal('subtitles'), t.Literal('captions')], { description: 'default subtitles' })),
  label: t.Optional(t.String({ maxLength: 100, description: 'name shown in players (default: the language)' })),
  content: t.Optional(t.String({ maxLength: 10 * 1024 * 1024, description: 'WebVTT or SRT text, times from the range start; absent: the recorded speech is recognised' })),
  format: t.Optional(t.Union([t.Literal('vtt'), t.Literal('srt')], { description: 'default: WebVTT when the text starts with WEBVTT, else SRT' })),
  prompt: t.Optional(t.String({ maxLength: 2000, description: 'glossary words passed to the speech engine (recognition only)' })),
}, { additionalProperties: false });

/** GET /v1/channels/{id}/subtitles query. */
export const ChannelTrackQuery = t.Object({
  programme_id: t.Optional(t.String({ description: 'only the tracks of this programme' })),
  from: t.Optional(t.String({ description: 'only tracks whose range ends after this time (RFC 3339)' })),
  to: t.Optional(t.String({ description: 'only tracks whose range starts before this time (RFC 3339)' })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, description: 'default 100' })),
}, { additionalProperties: false });

/** A channel-recording subtitle track as the API shows it. */
export const ChannelTrackView = t.Object({
  id: t.String(), channel_id: t.String(), programme_id: t.Union([t.String(), t.Null()]),
  start_at: t.String({ description: 'range start; cue times are relative to it' }), end_at: t.String(),
  language: t.String(), kind: t.String(), label: t.Union([t.String(), t.Null()]),
  source: t.String({ description: 'upload, asr, translation or edited' }), source_track_id: t.Union([t.String(), t.Null()]),
  status: t.String({ description: 'queued, running, ready or failed' }),
  published: t.Boolean(), engine: t.Union([t.String(), t.Null()]), job_id: t.Union([t.String(), t.Null()]),
  error: t.Union([t.String(), t.Null()]), cue_count: t.Integer(), created_at: t.String(), updated_at: t.String(),
});

/** The list answer. */
export const ChannelTrackList = t.Object({ items: t.Array(ChannelTrackView) });

const iso = (ms: number) => new Date(ms).toISOString();

/** The API view of a channel track row. */
export function channelTrackView(r: ChannelTrackRow) {
  return {
    id: r.id, channel_id: r.channel_id, programme_id: r.programme_id, start_at: iso(r.range_start_ms), end_at: iso(r.range_end_ms),
    language: r.language, kind: r.kind, label: r.label, source: r.source, source_track_id: r.source_track_id ?? null, status: r.status,
    published: r.published === 1, engine: r.engine, job_id: r.job_id, error: r.error, cue_count: r.cue_count,
    created_at: iso(r.created_at), updated_at: iso(r.updated_at),
  };
}
