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
import { breaksInRange, dateRangeLines } from '../../live/fast-markers';
import { LIVE_SUBS, LIVE_VTT } from '../../live/subtitle-playlist';
import { liveMasterWithSubs, liveSubsPlaylistText, liveSubtitleLanguages, liveVttSegment } from '../subtitles/live-delivery';
import type { Gate, GateTenant } from '../playback/gate';
import { serveFile, serveText } from '../media-delivery/serve-file';
import { ChannelStore, type ChannelRow } from './store';

const M3U8_TYPE = 'application/vnd.apple.mpegurl';
const LIVE_PLAYLIST = 'public, max-age=1';
const IMMUTABLE = 'public, max-age=86400, immutable';
/** A live WebVTT segment is made from the cues on request (a cue edit shows at the next fetch). */
const LIVE_VTT_CACHE = 'public, max-age=2';

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
  /** The live subtitle rendition's playlist: the first recorded rendition's window, listed as far as it is recognised. */
  const liveSubs = (ch: ChannelRow, language: string, request: Request) => {
    const lead = index.renditions(ch.id)[0];
    const last = lead ? index.lastSegment(ch, lead) : null;
    if (!lead || !last) throw notFound('live stream');
    const end = last.start_ms + last.duration_ms;
    const segs = index.segmentsInRange(ch, lead, end - ch.dvr_window_s * 1000, end + 1);
    const body = liveSubsPlaylistText(ctx.db, ch.tenant_id, ch.id, language, segs, { targetS: ch.segment_s, ended: ch.desired !== 'started' });
    if (body === null) throw notFound('subtitles');
    return serveText(request, body, M3U8_TYPE, LIVE_PLAYLIST);
  };
  /** The master playlist of a channel (relative URIs: the same bytes for every viewer). */
  const masterOf = (ch: ChannelRow): string => {
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
    // Live subtitles (issue 43): one subtitle rendition per language recognised live.
    return liveMasterWithSubs(masterPlaylist(variants), liveSubtitleLanguages(ctx.db, ch.tenant_id, ch.id));
  };
  /** A rendition's media playlist (or a live subtitle rendition's) as an answer to `request`. */
  const variantOf = (ch: ChannelRow, rendition: string, request: Request): Response => {
    const sub = LIVE_SUBS.exec(rendition);
    if (sub) return liveSubs(ch, sub[1]!, request);
    const last = index.lastSegment(ch, rendition);
    if (!last) throw notFound('live stream');
    const end = last.start_ms + last.duration_ms;
    const segs = index.segmentsInRange(ch, rendition, end - ch.dvr_window_s * 1000, end + 1);
    // Ad breaks a FAST schedule aired (fast-markers.ts) as EXT-X-DATERANGE; none for an ingest channel.
    const tags = segs.length ? breaksInRange(ctx.db, ch.id, segs[0].start_ms, end + 1).flatMap(dateRangeLines) : [];
    return serveText(request, mediaPlaylist(segs, { targetS: ch.segment_s, ended: ch.desired !== 'started', tags }), M3U8_TYPE, LIVE_PLAYLIST);
  };
  // Through a caching front the gate's decision names the edge's copy (edge-playlists.ts), keyed by tenant id, channel
  // and rendition; the front fills it from here, without the gate, on its private socket only.
  gate.playlists.fill('live', (parts, request) => {
    const [tenantId, slug, a, b] = parts;
    const ch = tenantId && slug ? store.bySlug(tenantId, slug) : null;
    if (!ch) throw notFound('channel');
    if (a === 'master.m3u8' && b === undefined) return serveText(request, masterOf(ch), M3U8_TYPE, LIVE_PLAYLIST);
    if (a && b === 'index.m3u8' && parts.length === 4) return variantOf(ch, a, request);
    throw notFound('playlist');
  });
  const app = new Elysia();
  gate.route(app, 'liveMaster', ({ tenant, params, request }) => {
    const ch = channel(tenant, params.channel);
    const toEdge = gate.playlists.redirect(request, 'live', [tenant.id, ch.slug, 'master.m3u8'], LIVE_PLAYLIST);
    if (!toEdge) return serveText(request, masterOf(ch), M3U8_TYPE, LIVE_PLAYLIST);
    // Nothing recorded yet: the gate's own 404 (the edge keeps no copy of a refusal).
    if (!index.renditions(ch.id).length) throw notFound('live stream');
    return toEdge;
  });
  gate.route(app, 'liveVariant', ({ tenant, params, request }) => {
    const ch = channel(tenant, params.channel);
    const toEdge = gate.playlists.redirect(request, 'live', [tenant.id, ch.slug, params.rendition, 'index.m3u8'], LIVE_PLAYLIST);
    if (!toEdge) return variantOf(ch, params.rendition, request);
    // An unknown rendition: the gate's own 404, never a stored refusal (variantOf checks the same when answering here).
    if (!LIVE_SUBS.test(params.rendition) && !index.lastSegment(ch, params.rendition)) throw notFound('live stream');
    return toEdge;
  });
  gate.route(app, 'liveVtt', ({ tenant, params, request }) => {
    const ch = channel(tenant, params.channel);
    const sub = LIVE_SUBS.exec(params.rendition), f = LIVE_VTT.exec(params.file);
    const body = sub && f && liveVttSegment(ctx.db, ch.tenant_id, ch.id, sub[1]!, ch.created_at, Number(f[1]), Number(f[2]));
    if (!body) throw notFound('subtitles');
    return serveText(request, body, 'text/vtt; charset=utf-8', LIVE_VTT_CACHE);
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
