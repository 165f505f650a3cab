import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';

/** `publish` on create/complete: auto (default), manual, or a boolean (true = published as soon as ready, stored `on_ready`; false = manual). */
export const PublishMode = t.Union([t.Literal('auto'), t.Literal('manual'), t.Boolean()]);

/** Source of a new asset (the `upload` kind is refused here with 422). */
export const SourceBody = t.Object({
  kind: t.String({ description: 'url, s3 (upload is refused; use /v1/uploads)' }),
  url: t.Optional(t.String({ maxLength: 4096 })),
  key: t.Optional(t.String({ maxLength: 1024 })),
}, { additionalProperties: false });

/** Fields shared by asset creation and upload completion. */
export const AssetFields = {
  external_id: t.Optional(t.String({ description: '1-200 of letters, digits and . _ : / -; unique per tenant' })),
  title: t.Optional(t.String({ maxLength: 500 })),
  ladder: t.Optional(t.String({ maxLength: 64 })),
  publish: t.Optional(PublishMode),
  metadata: t.Optional(t.Record(t.String(), t.Any(), { description: 'JSON object up to 16 KB; ads = {disabled?, cues?: [seconds] (at most 50)}' })),
};

/** POST /v1/assets body. */
export const CreateAssetBody = t.Object({ source: SourceBody, ...AssetFields }, { additionalProperties: false });

/** PATCH /v1/assets/{id} body. */
export const PatchAssetBody = t.Object({
  title: t.Optional(t.String({ maxLength: 500 })),
  external_id: t.Optional(t.Union([t.String(), t.Null()])),
  ladder: t.Optional(t.String({ maxLength: 64 })),
  metadata: t.Optional(t.Record(t.String(), t.Any())),
  publish: t.Optional(t.Boolean({ description: 'true publishes a ready asset (needs assets:publish); false returns it to draft' })),
}, { additionalProperties: false });

/** A published subtitle track as a sidecar WebVTT file of the playback block. */
export const SubtitleSidecar = t.Object({
  id: t.String(), language: t.String({ description: 'BCP 47 tag' }), kind: t.String({ description: 'subtitles or captions' }),
  label: t.Union([t.String(), t.Null()]), url: t.String({ description: 'the whole track as WebVTT, under the same gate as the media' }),
});

/** The asset as the API shows it. */
export const AssetView = t.Object({
  id: t.String(),
  external_id: t.Union([t.String(), t.Null()]),
  title: t.String(),
  status: t.String(),
  error: t.Optional(t.String()),
  ladder: t.String(),
  publish: t.String(),
  published: t.Boolean(),
  metadata: t.Record(t.String(), t.Any()),
  playback: t.Optional(t.Record(t.String(), t.Union([t.String(), t.Array(SubtitleSidecar)]), { description: 'when ready: delivery URLs by role (hls, dash, poster, sprite, thumbs_vtt, download) and `subtitles`' })),
  share: t.Optional(t.Object({
    watch: t.String({ description: 'the public watch page (/w/…)' }),
    embed: t.String({ description: 'the iframe page (/e/…)' }),
    iframe: t.String({ description: 'embed code: an <iframe> of the embed page' }),
  }, { description: 'when ready: addresses to share the video' })),
  progress: t.Union([t.Number(), t.Null()]),
  duration_s: t.Union([t.Number(), t.Null()]),
  created_at: t.String(),
  updated_at: t.String(),
  deleted_at: t.Optional(t.String()),
});

/** What a search (`q`) adds to each listed asset: the field that matched and, for subtitle hits, the moments. */
const AssetSearchFields = t.Object({
  match: t.Optional(t.Object({ field: t.String({ description: '`title`, `external_id`, `metadata` or `subtitles`' }), snippet: t.String() })),
  moments: t.Optional(t.Array(t.Object({
    seconds: t.Number({ minimum: 0, description: 'from the start of the asset, to 0.1 s' }),
    line: t.String({ description: 'the subtitle cue, its lines joined by a space' }),
  }), { description: 'subtitle cues that matched `q`, in time order (at most 20)' })),
});

/** A cursor page of assets (with `q`, each adds `match` and, for subtitle hits, `moments`). */
export const AssetPage = t.Object({ items: t.Array(t.Composite([AssetView, AssetSearchFields])), next_cursor: t.Union([t.String(), t.Null()]) });

/** Trash retention setting. */
export const TrashSettings = t.Object({ retention_days: Int({ minimum: 1, maximum: 3650 }) }, { additionalProperties: false });
