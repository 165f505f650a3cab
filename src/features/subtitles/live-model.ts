import { t } from 'elysia';
import type { LiveSubsRow } from './live-store';

/** PUT /v1/channels/{id}/live-subtitles: the languages recognised live (an empty list turns live subtitles off). */
export const LiveSubtitlesBody = t.Object({
  languages: t.Array(t.String({ minLength: 2, maxLength: 35, description: 'BCP 47 language (`en`; the engine for it must be configured)' }), { maxItems: 4, description: 'languages recognised live; replaces the list' }),
  kind: t.Optional(t.Union([t.Literal('subtitles'), t.Literal('captions')], { description: 'default subtitles' })),
}, { additionalProperties: false });

/** Where live recognition of one language stands. */
export const LiveSubtitleState = t.Object({
  language: t.String(), kind: t.String(),
  state: t.String({ description: 'starting (no chunk yet), running (keeping up), behind (over 60 s behind the live edge), waiting (no feed or channel stopped), failed (see error)' }),
  lag_ms: t.Union([t.Integer(), t.Null()], { description: 'median over the last 20 cues of the wall time from the start of a cue\'s speech to the cue being available' }),
  lag_max_ms: t.Union([t.Integer(), t.Null()], { description: 'the largest such lag in the last recognised chunk' }),
  behind_ms: t.Union([t.Integer(), t.Null()], { description: 'recorded audio not yet recognised (live edge minus recognised_until)' }),
  recognised_until: t.Union([t.String(), t.Null()], { description: 'wall-clock end of the audio recognised; the rendition lists segments up to here' }),
  engine: t.Union([t.String(), t.Null()]), error: t.Union([t.String(), t.Null()]),
  chunks: t.Integer(), cues: t.Integer(), skipped_ms: t.Integer({ description: 'audio left out to catch up with the live edge' }),
  track_id: t.Union([t.String(), t.Null()], { description: 'the hourly recording track the newest cues went to' }),
  updated_at: t.String(),
});

/** A channel's live subtitles. */
export const LiveSubtitlesView = t.Object({
  languages: t.Array(t.String()),
  live_subtitles: t.Array(LiveSubtitleState),
});

const iso = (ms: number) => new Date(ms).toISOString();

/** The API view of a channel's live-subtitle rows. */
export function liveSubtitlesView(rows: LiveSubsRow[]) {
  return {
    languages: rows.map((r) => r.language),
    live_subtitles: rows.map((r) => ({
      language: r.language, kind: r.kind, state: r.state, lag_ms: r.lag_ms, lag_max_ms: r.lag_max_ms, behind_ms: r.behind_ms,
      recognised_until: r.until_ms === null ? null : iso(r.until_ms), engine: r.engine, error: r.error, chunks: r.chunks, cues: r.cues,
      skipped_ms: r.skipped_ms, track_id: r.track_id, updated_at: iso(r.updated_at),
    })),
  };
}
