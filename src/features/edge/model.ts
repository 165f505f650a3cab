import { t } from 'elysia';

const Url = t.String({ minLength: 1, maxLength: 2048, description: 'a viewer URL (absolute, or a path) of this edge' });
const Id = t.String({ minLength: 1, maxLength: 64 });

/** POST /v1/purge: exactly one selector. */
export const PurgeBody = t.Object({
  urls: t.Optional(t.Array(Url, { minItems: 1, maxItems: 1000, description: 'exact URLs (a `/t/<token>` prefix and the host are ignored; query kept)' })),
  prefix: t.Optional(t.String({ minLength: 2, maxLength: 2048, pattern: '^(https?://[^/]+)?/', description: 'a URL path prefix, e.g. `/m/<tenant>/assets/<asset>/`' })),
  asset_id: t.Optional(Id),
  clip_id: t.Optional(Id),
  tag: t.Optional(t.String({ minLength: 1, maxLength: 256, pattern: '^[^\\s,]+$', description: 'a `Cache-Tag` value, or `asset:<id>` / `clip:<id>`' })),
}, { additionalProperties: false });

/** 202 of POST /v1/purge. */
export const PurgeAccepted = t.Object({
  job_id: t.String(),
  keys: t.Integer({ description: 'cached objects the selector names now' }),
  prefix: t.Union([t.String(), t.Null()], { description: 'the prefix purged (null for other selectors)' }),
});

/** POST /v1/prewarm: exactly one target. */
export const PrewarmBody = t.Object({
  asset_id: t.Optional(Id),
  clip_id: t.Optional(Id),
  channel_id: t.Optional(Id),
  urls: t.Optional(t.Array(Url, { minItems: 1, maxItems: 1000 })),
  renditions: t.Optional(t.Union([t.Literal('all'), t.Literal('lowest')], { description: 'asset, clip, channel: every rendition (default) or the lowest bandwidth only' })),
}, { additionalProperties: false });

/** A pre-warm request and its report. */
export const PrewarmView = t.Object({
  id: t.String(),
  status: t.Union([t.Literal('queued'), t.Literal('running'), t.Literal('succeeded'), t.Literal('failed'), t.Literal('cancelled')]),
  progress: t.Number({ description: 'percent of the URLs known so far that were fetched' }),
  target: t.Record(t.String(), t.Unknown()),
  fetched: t.Integer({ description: 'URLs fetched through the edge' }),
  hit: t.Integer({ description: 'of them, already cached (X-Cache-Status HIT)' }),
  stored: t.Integer({ description: 'of them, stored by this pre-warm (MISS, EXPIRED)' }),
  failed: t.Integer({ description: 'URLs that did not answer 200/206' }),
  bytes: t.Integer(),
  failures: t.Array(t.Object({ url: t.String(), status: t.Integer() }), { description: 'the first 20 failed URLs (tokens removed)' }),
  created_at: t.String(), finished_at: t.Union([t.String(), t.Null()]),
});
