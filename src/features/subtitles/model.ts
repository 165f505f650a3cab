import { t } from 'elysia';
import type { TrackRow } from './store';

/** POST /v1/assets/{id}/subtitles body: an upload (`content`) or, without it, speech recognition. */
export const CreateTrackBody = t.Object({
  language: t.String({ minLength: 2, maxLength: 35, description: 'BCP 47 language of the text (`he`, `en`, `ar`)' }),
  kind: t.Optional(t.Union([t.Literal('subtitles'), t.Literal('captions')], { description: 'default subtitles' })),
  label: t.Optional(t.String({ maxLength: 100, description: 'name shown in players (default: the language)' })),
  content: t.Optional(t.String({ maxLength: 10 * 1024 * 1024, description: 'the WebVTT or SRT file text; absent: the speech is recognised' })),
  format: t.Optional(t.Union([t.Literal('vtt'), t.Literal('srt')], { description: 'default: WebVTT when the text starts with WEBVTT, else SRT' })),
  prompt: t.Optional(t.String({ maxLength: 2000, description: 'glossary words passed to the speech engine (recognition only)' })),
}, { additionalProperties: false });

/** A subtitle track as the API shows it. */
export const TrackView = t.Object({
  id: t.String(), asset_id: t.String(), language: t.String(), kind: t.String(), label: t.Union([t.String(), t.Null()]),
  source: t.String({ description: 'upload, asr, translation, or edited once its cues were edited (the first source is kept in original_source)' }),
  source_track_id: t.Optional(t.Union([t.String(), t.Null()], { description: 'translations: the track translated from' })),
  status: t.String({ description: 'queued, running, ready or failed' }),
  published: t.Boolean(), engine: t.Union([t.String(), t.Null()]), job_id: t.Union([t.String(), t.Null()]),
  error: t.Union([t.String(), t.Null()]), cue_count: t.Integer(), created_at: t.String(), updated_at: t.String(),
  version: t.Optional(t.Integer({ description: 'raised by every change of the cues; the ETag is `"<version>"` (If-Match of cue edits)' })),
  original_source: t.Optional(t.Union([t.String(), t.Null()], { description: 'once edited (`source` edited): the source it had before' })),
  glossary_corrections: t.Optional(t.Union([t.Object({ replacements: t.Integer(), cues: t.Integer(), terms: t.Array(t.Object({ term: t.String(), count: t.Integer() })) }), t.Null()], { description: 'what the glossary corrected after recognition' })),
});

/** The list answer. */
export const TrackList = t.Object({ items: t.Array(TrackView) });

/** The API view of a track row. */
export function trackView(r: TrackRow) {
  return {
    id: r.id, asset_id: r.asset_id, language: r.language, kind: r.kind, label: r.label, source: r.source, status: r.status,
    published: r.published === 1, engine: r.engine, job_id: r.job_id, error: r.error, cue_count: r.cue_count, source_track_id: r.source_track_id ?? null,
    created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString(),
    version: r.version ?? 1, original_source: r.original_source ?? null,
    glossary_corrections: r.glossary_corrections ? JSON.parse(r.glossary_corrections) as { replacements: number; cues: number; terms: { term: string; count: number }[] } : null,
  };
}
