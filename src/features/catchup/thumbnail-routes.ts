import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { Int } from '../../kernel/http/schema';
import { GuideService } from '../guide/service';
import { serveFile } from '../media-delivery/serve-file';
import { notFound } from '../../kernel/errors';
import { answers } from '../meta/model';
import { MAX_THUMBS, ThumbnailService } from './thumbnails';

const T = 'Catch-up';
const At = t.String({ format: 'date-time' });

/** Answer of GET /v1/channels/{id}/thumbnails. */
export const ThumbnailPlan = t.Object({
  from: At, to: At, count: Int(), rendition: t.String(),
  segment_ms: Int({ description: 'the channel\'s nominal segment length' }),
  fps: t.Union([t.Number(), t.Null()], { description: 'frame rate of the recording (video samples per second of a segment); null when unreadable' }),
  recorded: t.Array(t.Object({ from: At, to: At }), { description: 'recorded spans inside the range (gaps are absent)' }),
  segments: t.Union([t.Array(Int()), t.Null()], { description: 'segment boundaries (epoch ms: every segment start and the last end) where a segment-precision clip can start or end; null past 1,000 segments' }),
  items: t.Array(t.Object({
    at: At, at_ms: Int({ description: 'the frame time in epoch milliseconds (the image address ends with it)' }),
    segment_start: At, segment_end: At,
    url: t.String({ description: '`/v1/channels/{id}/thumbnails/{at_ms}`: the JPEG frame' }),
  })),
});

/** GET /v1/channels/{id}/thumbnails (a filmstrip plan) and /thumbnails/{at_ms} (one JPEG frame). */
export function thumbnailRoutes(ctx: AppContext) {
  const svc = new ThumbnailService(ctx);
  const guide = new GuideService(ctx);
  return new Elysia()
    .use(ctx.http)
    .get('/v1/channels/:id/thumbnails', ({ principal: p, params, query }) => svc.plan(guide.channel(p.tenantId, params.id), query), {
      auth: { scope: 'channels:read', platform: true }, params: t.Object({ id: t.String() }),
      query: t.Object({
        from: t.Optional(t.String({ description: 'RFC 3339; default 10 minutes before `to`' })),
        to: t.Optional(t.String({ description: 'RFC 3339; default now; at most 24 hours after `from`' })),
        count: t.Optional(t.Integer({ minimum: 1, maximum: MAX_THUMBS, description: `frames to spread over the range, 1-${MAX_THUMBS} (default 12)` })),
      }),
      detail: doc(T, 'Recording thumbnails', 'תמונות ממוזערות של הקלטה', `A filmstrip of the channel's recording: \`count\` (1-${MAX_THUMBS}, default 12) frames evenly spread over \`from\`-\`to\` (at most 24 hours), each with its segment's bounds and the \`url\` of a small JPEG (160 pixels wide, rendered by ffmpeg on first request and cached). Frames falling in a gap of the recording are left out; \`recorded\` lists the recorded spans and \`fps\` the frame rate, for snapping a clip's in/out points; \`segments\` the segment boundaries (up to 1,000) a segment-precision clip snaps to. Nothing recorded in the range: 422 \`from\`.`, answers({ 200: ThumbnailPlan })),
    })
    .get('/v1/channels/:id/thumbnails/:at_ms', async ({ principal: p, params, request }) => {
      const file = await svc.frame(guide.channel(p.tenantId, params.id), Number(params.at_ms));
      const r = serveFile(request, file, 'private, max-age=86400');
      if (!r) throw notFound('thumbnail');
      return r;
    }, {
      auth: { scope: 'channels:read', platform: true },
      params: t.Object({ id: t.String(), at_ms: t.String({ pattern: '^[0-9]{10,14}$', description: 'epoch milliseconds (an item\'s `at_ms`)' }) }),
      detail: doc(T, 'Recording thumbnail', 'תמונה ממוזערת מהקלטה', 'The recorded frame at `at_ms` (on a 100 ms grid inside its segment) as a JPEG 160 pixels wide; cached, with `ETag`. Nothing recorded at that time: 422 `at`.', {
        responses: { 200: { description: 'JPEG image', content: { 'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } } } }, 304: { description: 'not modified (`If-None-Match` matched the `ETag`)' } },
      }),
    });
}
