import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { audit } from '../audit/service';
import { AssetView } from './model';
import { setPosterAt } from './poster';
import { assetView } from './view';
import { posterInfo, PosterInfoView } from './poster-info';

/** PUT /v1/assets/{id}/poster body. */
const PosterBody = t.Object({
  time_s: t.Number({ minimum: 0, maximum: 86_400 * 7, description: 'seconds from the start; at most the asset duration' }),
}, { additionalProperties: false });

/** The `posters` group: choose a ready asset's poster by time (drawn from its own media by ffmpeg). */
export function posterRoutes(ctx: AppContext) {
  return new Elysia({ prefix: '/v1/assets' })
    .use(ctx.http)
    .put('/:id/poster', async ({ principal: p, params, body, request }) => {
      const a = await setPosterAt(ctx, p.tenantId, params.id, body.time_s);
      const v = assetView(ctx, a);
      audit(ctx, { tenantId: p.tenantId, action: 'asset.poster_changed', actor: p, request, target: a.id, details: { time_s: body.time_s, poster: v.playback?.poster ?? null } });
      return v;
    }, {
      auth: { scope: 'assets:write', platform: true },
      params: t.Object({ id: t.String() }),
      body: PosterBody,
      response: { 200: AssetView },
      detail: doc('Assets', "Set an asset's poster from a frame", 'בחירת תמונת שער מתוך פריים',
        'Draws the frame at `time_s` from the asset\'s own media (JPEG and WebP) and makes it the poster: `playback.poster` answers a new URL (images are cached as immutable). Answers the asset. A time past the duration answers 422; an asset that is not ready answers 409; other tenants\' assets answer 404. Recorded in the audit log (`asset.poster_changed`).',
        { 'x-problems': [409, 422] }),
    })
    .get('/:id/poster', ({ principal: p, params }) => posterInfo(ctx, p.tenantId, params.id), {
      auth: { scope: 'assets:read', platform: true },
      params: t.Object({ id: t.String() }),
      response: { 200: PosterInfoView },
      detail: doc('Assets', "Get an asset's poster", 'קבלת תמונת השער של נכס',
        'The poster\'s URL and size. A poster chosen from a frame smaller than the largest site image (1920x1080) is drawn at a size that covers it (lanczos scaling and an unsharp mask) and flagged `upscaled: true`, with the frame\'s own size in `source_width`/`source_height`. The encode\'s own poster: sizes null, `upscaled` false. Not ready: 409.',
        { 'x-problems': [409] }),
    });
}
