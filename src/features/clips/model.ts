import { t } from 'elysia';

/** Body of POST /v1/clips. */
export const CreateClipBody = t.Object({
  channel_id: t.String(),
  start_at: t.String({ description: 'RFC 3339' }),
  end_at: t.String({ description: 'RFC 3339; after start_at, at most 6 hours later' }),
  precision: t.Optional(t.Union([t.Literal('segment'), t.Literal('frame')], { description: 'segment (default): ready at once over the recording; frame: cut exactly by a job, then final' })),
  renditions: t.Optional(t.Array(t.String({ maxLength: 64 }), { minItems: 1, maxItems: 20 })),
  title: t.Optional(t.String({ maxLength: 500 })),
  publish: t.Optional(t.Boolean({ description: 'checks scope clips:publish; stores nothing' })),
  asset_id: t.Optional(t.String({ description: 'clips from library assets are not implemented (422)' })),
}, { additionalProperties: false });

/** Parsed create input. */
export type CreateClip = typeof CreateClipBody.static;

const At = t.String({ format: 'date-time' });
/** A clip as answered. */
export const ClipView = t.Object({
  id: t.String(), channel_id: t.String(), title: t.Union([t.String(), t.Null()]),
  start_at: At, end_at: At,
  precision: t.String({ description: '`segment` or `frame`' }),
  renditions: t.Array(t.String()),
  status: t.String({ description: '`ready`, `finalizing` (frame precision, until its job is done) or `final`; a failed cut keeps its status and sets `error`' }),
  expired: t.Boolean({ description: 'retention removed the recording under a segment-precision clip (playback answers 410)' }),
  expires_at: t.Union([At, t.Null()]),
  playback: t.Object({ hls: t.String({ description: '`/m/clips/<id>/master.m3u8?c=<tenant>` on the delivery host' }) }),
  error: t.Optional(t.String()),
  created_at: At, updated_at: At,
});
