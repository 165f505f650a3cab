import { Elysia } from 'elysia';
import { existsSync, readFileSync } from 'node:fs';
import type { AppContext } from '../../kernel/context';
import { notFound } from '../../kernel/errors';
import { containedAbs } from '../../kernel/fs/contain';
import { fdCache } from '../../kernel/fs/fd-cache';
import { IDLE_TIMEOUT_S } from '../../kernel/http/server';
import { codecsOf, masterPlaylist, mediaPlaylist, resolutionOf } from '../../live/playlist';
import { initPath, recRoot, segmentAbsPath } from '../../live/paths';
import { SegmentIndex } from '../../live/segment-index';
import type { Gate, GateTenant } from '../playback/gate';
import { serveFile, serveText } from '../media-delivery/serve-file';
import { ChannelStore } from './store';

const M3U8_TYPE = 'application/vnd.apple.mpegurl';
const LIVE_PLAYLIST = 'public, max-age=1';
const IMMUTABLE = 'public, max-age=86400, immutable';

/**
 * Unprotected live delivery behind the gate: /live/<tenant>/<channel>/master.m3u8, variants, init and media
 * segments (from the index). Files are served only from inside the recording root.
 */
export function liveRoutes(ctx: AppContext, gate: Gate) {
  const store = new ChannelStore(ctx.db);
  const index = new SegmentIndex(ctx.db, ctx.config.dataDir);
  const root = recRoot(ctx.config.dataDir);
  const fds = fdCache({ idleTimeoutS: IDLE_TIMEOUT_S });
  const channel = (tenant: GateTenant, slug: string) => {
    const ch = store.byTenantSlug(tenant.slug, slug);
    if (!ch) throw notFound('channel');
    return ch;
  };
  const app = new Elysia();
  gate.route(app, 'liveMaster', ({ tenant, params, request }) => {
    const ch = channel(tenant, params.channel);
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
    return serveText(request, masterPlaylist(variants), M3U8_TYPE, LIVE_PLAYLIST);
  });
  gate.route(app, 'liveVariant', ({ tenant, params, request }) => {
    const ch = channel(tenant, params.channel);
    const last = index.lastSegment(ch, params.rendition);
    if (!last) throw notFound('live stream');
    const end = last.start_ms + last.duration_ms;
    const segs = index.segmentsInRange(ch, params.rendition, end - ch.dvr_window_s * 1000, end + 1);
    return serveText(request, mediaPlaylist(segs, { targetS: ch.segment_s, ended: ch.desired !== 'started' }), M3U8_TYPE, LIVE_PLAYLIST);
  });
  gate.route(app, 'liveInit', ({ tenant, params, request }) => {
    const ch = channel(tenant, params.channel);
    const p = containedAbs(root, initPath(ctx.config.dataDir, ch.tenant_id, ch.id, params.rendition, Number(params.file.slice(0, -4))));
    const res = p && serveFile(request, p, IMMUTABLE, { 'content-type': 'video/mp4' });
    if (!res) throw notFound('init segment');
    return res;
  });
  gate.route(app, 'liveSeg', ({ tenant, params, request }) => {
    const ch = channel(tenant, params.channel);
    const s = index.segment(ch, params.rendition, Number(params.file.slice(0, -4)));
    const p = s && containedAbs(root, segmentAbsPath(ctx.config.dataDir, s.path));
    const res = p && serveFile(request, p, IMMUTABLE, { 'content-type': 'video/iso.segment' }, { fds });
    if (!res) throw notFound('segment');
    return res;
  });
  return app;
}
