import type { AppContext } from '../../kernel/context';
import { notFound } from '../../kernel/errors';
import type { Guarded } from '../playback/gate';
import { serveText } from '../media-delivery/serve-file';
import { RANGE_SUBS, RANGE_VTT, rangeMasterWithSubs, rangeSubsPlaylist, rangeSubtitleLanguages, rangeVttSegment } from '../subtitles/hls-range';
import { masterResponse, mediaResponse, rangeTimes, renditionsOf, type RangeSource } from './source';

/**
 * Subtitle renditions of a recorded range's playlists (catch-up, start-over, clips over the recording; issue 43): the
 * master with one `subs-<language>-<first_ms>` rendition per language of the channel's published recording tracks
 * over the range (unchanged when none), that rendition's playlist (a `subs-` "variant") and its WebVTT segments
 * (`vtt/<start_ms>-<duration_ms>.vtt`). See src/features/subtitles/hls-range.ts.
 */
export function rangeSubtitles(ctx: AppContext) {
  const q = (slug: string) => `?c=${encodeURIComponent(slug)}`;
  const M3U8 = 'application/vnd.apple.mpegurl';
  const cacheOf = (src: RangeSource) => `public, max-age=${src.to === null ? 2 : 60}`;
  const master = async (g: Guarded, src: RangeSource) => {
    const now = ctx.clock.now();
    const langs = rangeSubtitleLanguages(ctx.db, g.tenant.id, src.ch.id, src.from, src.to ?? now);
    if (!langs.length) return masterResponse(ctx, src, q(src.tenantSlug), g.request);
    const first = rangeTimes(ctx, src, renditionsOf(ctx, src)[0] ?? 'src', now).start[0];
    const body = await masterResponse(ctx, src, q(src.tenantSlug)).text();
    return serveText(g.request, first === undefined ? body : rangeMasterWithSubs(body, langs, first, q(src.tenantSlug)), M3U8, cacheOf(src));
  };
  const variant = async (g: Guarded, src: RangeSource) => {
    const sub = RANGE_SUBS.exec(g.params.r);
    if (!sub) return mediaResponse(ctx, src, g.params.r, q(src.tenantSlug), g.request);
    if (!rangeSubtitleLanguages(ctx.db, g.tenant.id, src.ch.id, src.from, src.to ?? ctx.clock.now()).some((l) => l.language === sub[1])) throw notFound('subtitles');
    const main = await mediaResponse(ctx, src, renditionsOf(ctx, src)[0] ?? 'src', q(src.tenantSlug)).text();
    return serveText(g.request, rangeSubsPlaylist(main), M3U8, cacheOf(src));
  };
  const vtt = (g: Guarded, src: RangeSource) => {
    const sub = RANGE_SUBS.exec(g.params.r), f = RANGE_VTT.exec(g.params.file);
    if (!sub || !f) throw notFound('file');
    const start = Number(f[1]), dur = Number(f[2]), to = src.to ?? ctx.clock.now() + 60_000;
    if (start + dur <= src.from || start >= to) throw notFound('file');
    return serveText(g.request, rangeVttSegment(ctx.db, g.tenant.id, src.ch.id, sub[1], Number(sub[2]), start, dur), 'text/vtt; charset=utf-8', cacheOf(src));
  };
  return {
    /** The range's master playlist, with subtitle renditions when the range has published tracks. */
    master,
    /** A variant playlist, or a subtitle rendition's playlist for a `subs-` rendition name. */
    variant,
    /** A WebVTT segment of a subtitle rendition. */
    vtt,
  };
}
