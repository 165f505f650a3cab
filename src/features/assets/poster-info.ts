/** GET /v1/assets/{id}/poster: the poster's URLs, size and whether it was upscaled. */
import { t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { playbackFor, tenantAsset } from './lifecycle';
import { parseAssetOutput } from './output';
import type { PosterInfo } from './poster-upscale';

const Size = t.Union([t.Integer(), t.Null()]);
/** Answer of GET /v1/assets/{id}/poster. */
export const PosterInfoView = t.Object({
  poster: t.String({ description: 'JPEG URL' }), poster_webp: t.Union([t.String(), t.Null()], { description: 'WebP URL' }),
  width: Size, height: Size,
  upscaled: t.Boolean({ description: 'drawn larger than its frame (lanczos + unsharp) to cover the largest site image' }),
  source_width: Size, source_height: Size,
});

/** The poster of a ready asset of the tenant. */
export function posterInfo(ctx: AppContext, tenantId: string, id: string) {
  const a = isUuid(id) ? tenantAsset(ctx.db, tenantId, id) : null;
  if (!a) throw notFound('asset');
  const out = parseAssetOutput(a.output);
  const playback = playbackFor(ctx, a);
  if (a.status !== 'ready' || !out || !playback) throw new AppError('conflict', `asset is ${a.status}, not ready`);
  const info = (out as { poster_info?: PosterInfo }).poster_info;
  const webp = out.files.poster_webp ? playback.poster.replace(/[^/]+$/, out.files.poster_webp) : null;
  return {
    poster: playback.poster, poster_webp: webp, width: info?.width ?? null, height: info?.height ?? null, upscaled: info?.upscaled ?? false,
    source_width: info?.source_width ?? null, source_height: info?.source_height ?? null,
  };
}
