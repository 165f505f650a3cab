import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { hidden } from '../../kernel/http/plugin';
import { PlaybackService } from '../playback/service';

/** How long a studio preview token plays (a studio page may stay open through a working day). */
const PREVIEW_TTL_S = 8 * 3600;

/** Body of POST /v1/playback/preview: the one target to preview (as in POST /v1/playback/tokens). */
const PreviewBody = t.Object({
  asset: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
  channel: t.Optional(t.String({ minLength: 1, maxLength: 100 })),
  clip: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
}, { additionalProperties: false });

/**
 * POST /v1/playback/preview (studio; any signed-in member of the tenant): a playback session marked as studio
 * playback. The player reports it like any session, and the beacon intake keeps its beacons out of audience figures.
 */
export function previewRoutes(ctx: AppContext) {
  const svc = new PlaybackService(ctx);
  return new Elysia()
    .use(ctx.http)
    .post('/v1/playback/preview', ({ principal: p, body }) => svc.issue({ id: p.tenantId, slug: p.tenantSlug }, body, { ttl_s: PREVIEW_TTL_S }, 'studio'), {
      auth: { scope: 'assets:read' }, body: PreviewBody, detail: hidden,
    });
}
