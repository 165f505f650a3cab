/** GET/PATCH /v1/packaging: the tenant's packaging settings for new encodes. */
import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { audit } from '../audit/service';
import { PackagingService } from './service';
import { lipSyncRoutes } from './lip-sync';

/** Settings as answered. */
export const PackagingView = t.Object({
  segment_s: t.Union([t.Integer(), t.Null()], { description: 'CMAF segment duration in seconds for new encodes (HLS and DASH share the segments); null: each ladder\'s own (config/ladders.yml)' }),
  dash: t.Boolean({ description: 'write a DASH manifest (`manifest.mpd`) for new encodes; off: HLS only' }),
  aes128_default: t.Boolean({ description: 'new encodes are delivered only as AES-128 HLS (`playback.hls` is `.../aes/master.m3u8`; the key `aes/key.bin` goes through the same token gate); their clear HLS, DASH and MP4 download answer 403 and no DASH manifest is written' }),
  iframe_playlists: t.Boolean({ description: 'new encodes get one I-frame playlist per video rendition (`EXT-X-I-FRAMES-ONLY`, byte ranges of the keyframes inside the CMAF segments), listed in the master as `EXT-X-I-FRAME-STREAM-INF`; not together with `aes128_default`' }),
  updated_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
});

/** Body of PATCH /v1/packaging. */
export const PackagingPatchBody = t.Object({
  segment_s: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 10 }), t.Null()], { description: '1-10 seconds, or null for the ladder\'s' })),
  dash: t.Optional(t.Boolean()),
  aes128_default: t.Optional(t.Boolean({ description: 'AES-128 HLS only for new encodes' })),
  iframe_playlists: t.Optional(t.Boolean({ description: 'I-frame playlists for new encodes; with `aes128_default` on as well: 422' })),
}, { additionalProperties: false, minProperties: 1 });

/** Packaging settings routes (and the lip-sync switch beside them). */
export function packagingRoutes(ctx: AppContext) {
  const svc = new PackagingService(ctx);
  return new Elysia()
    .use(ctx.http)
    .use(lipSyncRoutes(ctx))
    .get('/v1/packaging', ({ principal: p }) => svc.get(p.tenantId), {
      auth: { scope: 'assets:read' },
      response: { 200: PackagingView },
      detail: doc('Identity', 'Read packaging settings', 'קריאת הגדרות האריזה', 'Segment duration, DASH on/off, AES-128 by default and I-frame playlists for new encodes (assets encoded before a change keep their packaging; re-encode to apply). docs/packaging.md.'),
    })
    .patch('/v1/packaging', ({ principal: p, body, request }) => {
      const { out, changed } = svc.patch(p.tenantId, body);
      if (Object.keys(changed).length) audit(ctx, { tenantId: p.tenantId, action: 'settings.changed', actor: p, request, target: p.tenantId, details: { changed: Object.fromEntries(Object.entries(changed).map(([k, v]) => [`packaging.${k}`, v])) } });
      return out;
    }, {
      auth: { scope: 'tenant:settings' },
      body: PackagingPatchBody,
      response: { 200: PackagingView },
      detail: doc('Identity', 'Change packaging settings', 'שינוי הגדרות האריזה', 'Any subset: `segment_s` 1-10 (null: the ladder\'s), `dash`, `aes128_default`, `iframe_playlists`. Applies to encodes that start after the change. AES-128 by default and I-frame playlists cannot both be on (422 naming the field that turned the second on). Audited as `settings.changed`.'),
    });
}
