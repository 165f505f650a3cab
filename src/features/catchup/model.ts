import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';

const At = t.String({ format: 'date-time' });
const OrNull = <T extends ReturnType<typeof t.String>>(s: T) => t.Union([s, t.Null()]);

/** Live-to-VOD state of a programme (`vod`): null until published, then follows the library asset. */
export const VodView = t.Object({
  asset_id: OrNull(t.String()),
  status: t.String({ description: '`publishing`, `published` or `failed`' }),
  trigger: t.String({ description: '`api`, `batch`, ...' }),
  asset_status: OrNull(t.String({ description: 'the library asset status, `deleted` once it is gone' })),
  error: t.Optional(t.String()),
  updated_at: OrNull(At),
});

/** One catch-up programme. */
export const CatchupItem = t.Object({
  id: t.String(), title: t.String(), series: OrNull(t.String()), episode: OrNull(t.String()),
  start_at: At, end_at: At, duration_s: Int(),
  airing: t.Boolean({ description: 'on air now (start-over is offered)' }),
  coverage: t.Number({ minimum: 0, maximum: 1, description: 'recorded share of the playback range' }),
  status: t.String({ description: '`recorded`, `partial` or `not_recorded`; once published to the library the `vod` status' }),
  play_start: At, play_end: At,
  bounds_status: t.String({ description: '`epg` or `confirmed`' }),
  bounds_method: t.String({ description: '`guide` or `editor`' }),
  adjusted_ms: Int({ description: 'how far the playback range differs from the guide times' }),
  thumbnail: OrNull(t.String()),
  vod: t.Union([VodView, t.Null()]),
  playback: t.Object({
    hls: t.String({ description: '`/m/catchup/<slug>/<start_ms>/<end_ms|live>/master.m3u8?c=<tenant>` on the delivery host' }),
    startover: t.Optional(t.String({ description: 'while on air: `/m/startover/<slug>/<programme_id>/master.m3u8?c=<tenant>`' })),
  }),
});

/** Answer of GET /v1/channels/{id}/catchup. */
export const CatchupList = t.Object({
  from: At, to: At, retention_from: At,
  excluded_hidden: Int({ description: 'programmes left out by the tenant\'s exclusion rules' }),
  items: t.Array(CatchupItem),
});

/** A place in a programme (or asset) where the search words were said. */
export const Moment = t.Object({
  seconds: t.Number({ minimum: 0, description: 'from the start of playback (the programme\'s `play_start`; an asset\'s start), to 0.1 s' }),
  line: t.String({ description: 'the subtitle cue, its lines joined by a space' }),
});

/** Answer of GET /v1/channels/{id}/catchup/search. */
export const CatchupSearch = t.Object({
  truncated: t.Boolean({ description: 'more than `limit` programmes matched' }),
  items: t.Array(t.Composite([CatchupItem, t.Object({
    match: t.Object({ field: t.String({ description: '`title`, `series`, `description` or `subtitles`' }), snippet: t.String() }),
    moments: t.Optional(t.Array(Moment, { description: 'subtitle cues that matched, in time order (at most 20)' })),
  })])),
});

/** Answer of POST .../programmes/{programme_id}/publish-vod. */
export const VodPublishAnswer = t.Object({ programme_id: t.String(), job_id: t.String(), vod: t.Union([VodView, t.Null()]) });

/** Answer of the batch form: one entry per programme, accepted with its job or refused with the problem. */
export const VodBatchAnswer = t.Object({
  items: t.Array(t.Object({
    programme_id: t.String(),
    accepted: t.Boolean(),
    job_id: t.Optional(t.String()),
    vod: t.Optional(t.Union([VodView, t.Null()])),
    error: t.Optional(t.Object({ code: t.String(), status: Int(), detail: t.String() })),
  })),
});
