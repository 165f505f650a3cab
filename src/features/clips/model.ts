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
