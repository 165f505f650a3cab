import { Elysia, t } from 'elysia';
import { existsSync, readFileSync } from 'node:fs';
import type { AppContext } from '../../kernel/context';
import { hidden } from '../../kernel/http/plugin';
import { notFound } from '../../kernel/errors';
import { codecsOf, masterPlaylist, mediaPlaylist, resolutionOf } from '../../live/playlist';
import { initPath, segmentAbsPath } from '../../live/paths';
import { SegmentIndex } from '../../live/segment-index';
import { ChannelStore } from './store';

const M3U8 = { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': 'public, max-age=1', 'access-control-allow-origin': '*' };
const MEDIA = { 'cache-control': 'public, max-age=86400, immutable', 'access-control-allow-origin': '*' };

/** Unprotected live delivery: /live/<tenant>/<channel>/master.m3u8, variants, init and media segments (from the index). */
export function liveRoutes(ctx: AppContext) {
  const store = new ChannelStore(ctx.db);
  const index = new SegmentIndex(ctx.db, ctx.config.dataDir);
  const channel = (tenant: string, slug: string) => {
    const ch = store.byTenantSlug(tenant, slug);
    if (!ch) throw notFound('channel');
    return ch;
  };
  const P = t.Object({ tenant: t.String(), channel: t.String() });
  const PR = t.Object({ tenant: t.String(), channel: t.String(), rendition: t.String(), file: t.String() });
  return new Elysia({ prefix: '/live' })
    .get('/:tenant/:channel/master.m3u8', ({ params }) => {
      const ch = channel(params.tenant, params.channel);
      const rends = index.renditions(ch.id);
      if (!rends.length) throw notFound('live stream');
      const variants = rends.map((r) => {
        const last = index.lastSegment(ch, r)!;
        const recent = index.segmentsInRange(ch, r, last.start_ms - 30_000, last.start_ms + 1);
        const bits = recent.reduce((a, s) => a + s.bytes * 8, 0), ms = recent.reduce((a, s) => a + s.duration_ms, 0);
        const init = initPath(ctx.config.dataDir, ch.tenant_id, ch.id, r, last.init_ms);
        const bytes = existsSync(init) ? readFileSync(init) : null;
        return { uri: `${r}/index.m3u8`, bandwidth: ms ? (bits * 1000) / ms * 1.2 : 1_000_000, resolution: bytes && resolutionOf(bytes), codecs: bytes && codecsOf(bytes) };
      }).sort((a, b) => b.bandwidth - a.bandwidth);
      return new Response(masterPlaylist(variants), { headers: M3U8 });
    }, { params: P, detail: hidden })
    .get('/:tenant/:channel/:rendition/index.m3u8', ({ params }) => {
      const ch = channel(params.tenant, params.channel);
      const last = index.lastSegment(ch, params.rendition);
      if (!last) throw notFound('live stream');
      const end = last.start_ms + last.duration_ms;
      const segs = index.segmentsInRange(ch, params.rendition, end - ch.dvr_window_s * 1000, end + 1);
      return new Response(mediaPlaylist(segs, { targetS: ch.segment_s, ended: ch.desired !== 'started' }), { headers: M3U8 });
    }, { params: t.Object({ tenant: t.String(), channel: t.String(), rendition: t.String() }), detail: hidden })
    .get('/:tenant/:channel/:rendition/init/:file', ({ params }) => {
      const ch = channel(params.tenant, params.channel);
      const m = /^(\d+)\.mp4$/.exec(params.file);
      const p = m && initPath(ctx.config.dataDir, ch.tenant_id, ch.id, params.rendition, Number(m[1]));
      if (!p || !existsSync(p)) throw notFound('init segment');
      return new Response(Bun.file(p), { headers: { ...MEDIA, 'content-type': 'video/mp4' } });
    }, { params: PR, detail: hidden })
    .get('/:tenant/:channel/:rendition/seg/:file', ({ params }) => {
      const ch = channel(params.tenant, params.channel);
      const m = /^(\d+)\.m4s$/.exec(params.file);
      const s = m && index.segment(ch, params.rendition, Number(m[1]));
      if (!s) throw notFound('segment');
      return new Response(Bun.file(segmentAbsPath(ctx.config.dataDir, s.path)), { headers: { ...MEDIA, 'content-type': 'video/iso.segment' } });
    }, { params: PR, detail: hidden });
}
