/**
 * Delivery of a recorded range of a channel (catch-up, start-over, Flussonic archives, segment-precision clips):
 * master playlist, media playlists, init and media segments straight from the recording files. Segments are
 * served only when they belong to the range, so a token for one range never opens another.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { AppContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { slotKey } from '../../kernel/slots';
import { codecsOf, masterPlaylist } from '../../live/playlist';
import { fetchSegments, initFile, recordedRenditions, segmentFile, segmentsInRange, segmentTimesInRange, servableRecording, type SegTimes } from '../channels/service';
import type { ChannelRow, SegmentRow } from '../channels/store';
import { serveBytes, serveFile, serveText } from '../media-delivery/serve-file';
import { rangeFirstSegment, rangeSegmentBytes } from './range-rebase';
import { remoteMedia } from '../../kernel/media-store';
import { selectRange, selectTimes } from './coverage';
import { rangePlaylist } from './playlist';

/** A recorded range to deliver. `to: null` grows to the live edge. */
export interface RangeSource { ch: ChannelRow; tenantSlug: string; from: number; to: number | null; renditions?: string[] }

const M3U8 = (maxAge: number) => ({ 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': `public, max-age=${maxAge}`, 'access-control-allow-origin': '*' });
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A playlist answer: with the request, HEAD gets the exact GET headers and If-None-Match a 304 (serveText). */
function m3u8(req: Request | undefined, body: string, maxAge: number): Response {
  return req ? serveText(req, body, 'application/vnd.apple.mpegurl', `public, max-age=${maxAge}`) : new Response(body, { headers: M3U8(maxAge) });
}
const FILE_MS = /^(\d{10,14})\.(mp4|m4s)$/;

/** The recorded renditions a range plays (all, or the range's own subset), in the master playlist's order. */
export function renditionsOf(ctx: AppContext, src: RangeSource): string[] {
  const all = recordedRenditions(ctx, src.ch.id);
  return src.renditions ? all.filter((r) => src.renditions!.includes(r)) : all;
}

/** The segments a source plays for one rendition (nearest boundaries; growing sources up to the live edge). */
export function rangeSegments(ctx: AppContext, src: RangeSource, rendition: string, now: number): SegmentRow[] {
  const to = src.to ?? now + 60_000;
  return selectRange(segmentsInRange(ctx, src.ch.id, rendition, src.from, to), src.from, to);
}

/** Timings of the segments a source plays for one rendition (as `rangeSegments`, without row objects). */
export function rangeTimes(ctx: AppContext, src: RangeSource, rendition: string, now: number): SegTimes {
  const to = src.to ?? now + 60_000;
  return selectTimes(segmentTimesInRange(ctx, src.ch.id, rendition, src.from, to), src.from, to);
}

/** True while more segments can still arrive for the range (open end, or end not yet recorded on a running channel). */
function growing(src: RangeSource, t: SegTimes, now: number): boolean {
  if (src.ch.desired !== 'started') return false;
  if (src.to === null) return true;
  const i = t.n - 1;
  return src.to > now - 5_000 && (i < 0 || t.start[i] + t.dur[i] < src.to - 1_000);
}

/** Master playlist: one variant per recorded rendition, with bandwidth measured from the range. */
export function masterResponse(ctx: AppContext, src: RangeSource, q: string, req?: Request): Response {
  const now = ctx.clock.now();
  const variants = [];
  for (const r of renditionsOf(ctx, src)) {
    const t = rangeTimes(ctx, src, r, now);
    if (!t.n) continue;
    // Bandwidth from the last 15 selected segments (only their rows are read).
    const k = Math.max(0, t.n - 15);
    const segs = segmentsInRange(ctx, src.ch.id, r, t.start[k], t.start[t.n - 1] + 1).filter((s) => s.start_ms >= t.start[k]);
    if (!segs.length) continue;
    const sample = segs;
    const bits = sample.reduce((a, s) => a + s.bytes * 8, 0), ms = sample.reduce((a, s) => a + s.duration_ms, 0);
    const init = initFile(ctx, src.ch, r, segs[segs.length - 1].init_ms);
    const info = JSON.parse(src.ch.feed_info || '{}') as { resolution?: string };
    variants.push({ uri: `${r}/index.m3u8${q}`, bandwidth: ms ? (bits * 1000) / ms * 1.2 : 1_000_000, resolution: info.resolution ?? null, codecs: existsSync(init) ? codecsOf(readFileSync(init)) : null });
  }
  if (!variants.length) throw notFound('recording for this range');
  return m3u8(req, masterPlaylist(variants), src.to === null ? 2 : 60);
}

/** Closed (VOD) playlists by range, kept as long as their Cache-Control allows (60 s); bounded. One per app (ctx.slots). */
const VOD_CACHE = slotKey<Map<string, { at: number; body: string }>>('catchup.vod-playlists');
const VOD_TTL_MS = 60_000, VOD_CACHE_MAX = 200;

/** Media playlist of one rendition: VOD with ENDLIST once the range is complete, EVENT while it grows. */
export function mediaResponse(ctx: AppContext, src: RangeSource, rendition: string, q: string, req?: Request): Response {
  const now = ctx.clock.now();
  const vodCache = ctx.slots.get(VOD_CACHE, () => new Map());
  const key = `${src.ch.id}|${rendition}|${src.from}|${src.to}|${src.renditions?.join(',') ?? ''}|${q}`;
  const hit = vodCache.get(key);
  if (hit && now - hit.at < VOD_TTL_MS) return m3u8(req, hit.body, 60);
  if (!renditionsOf(ctx, src).includes(rendition)) throw notFound('rendition');
  const segs = rangeTimes(ctx, src, rendition, now);
  if (!segs.n) throw notFound('recording for this range');
  const grow = growing(src, segs, now);
  const body = rangePlaylist(segs, { targetS: src.ch.segment_s, type: grow ? 'EVENT' : 'VOD', ended: !grow, q });
  if (!grow) {
    if (vodCache.size >= VOD_CACHE_MAX) vodCache.delete(vodCache.keys().next().value!);
    vodCache.set(key, { at: now, body });
  }
  return m3u8(req, body, grow ? 1 : 60);
}

/** An init or media segment of the range, from the recording file or its copy from the bucket (ranges, ETag, long cache). */
export async function fileResponse(ctx: AppContext, req: Request, src: RangeSource, rendition: string, kind: 'init' | 'seg', file: string): Promise<Response> {
  const m = FILE_MS.exec(file);
  if (!m || (kind === 'init') !== (m[2] === 'mp4')) throw notFound('file');
  const ms = Number(m[1]);
  if (!renditionsOf(ctx, src).includes(rendition)) throw notFound('rendition');
  const to = src.to ?? ctx.clock.now() + 60_000;
  let path: string | null = null, seg: SegmentRow | undefined;
  if (kind === 'seg') {
    seg = segmentsInRange(ctx, src.ch.id, rendition, ms, ms + 1).find((s) => s.start_ms === ms);
    if (seg && seg.start_ms < to && seg.start_ms + seg.duration_ms > src.from) {
      // Its hour may be in the bucket: this segment, the range's first (its timing rebases this one) and their inits.
      if (remoteMedia(ctx)) {
        const first = rangeFirstSegment(ctx, src, rendition, to);
        await fetchSegments(ctx, src.ch, rendition, [seg, first], first ? [seg.init_ms, first.init_ms] : [seg.init_ms]);
      }
      path = segmentFile(ctx, seg);
    }
  } else {
    const t = segmentTimesInRange(ctx, src.ch.id, rendition, src.from, to);
    if (t.init.includes(ms)) { if (remoteMedia(ctx)) await fetchSegments(ctx, src.ch, rendition, [], [ms]); path = initFile(ctx, src.ch, rendition, ms); }
  }
  const safe = path && servableRecording(ctx, path);
  // Media segments start the range at media time 0 (range-rebase.ts); served from memory then.
  const rebased = safe && seg ? rangeSegmentBytes(ctx, src, rendition, seg, to, safe) : null;
  const res = rebased ? serveBytes(req, rebased, 'video/iso.segment', IMMUTABLE) : safe ? serveFile(req, safe, IMMUTABLE) : null;
  if (!res) throw notFound('segment (outside the range or removed by retention)');
  return res;
}

/** Parses `<start_ms>`/`<end_ms|live>` of a catch-up path. */
export function parseRange(s: string, e: string): { from: number; to: number | null } {
  const from = Number(s), to = e === 'live' ? null : Number(e);
  if (!/^\d{10,14}$/.test(s) || (to !== null && !/^\d{10,14}$/.test(e))) throw notFound('catch-up range');
  if (to !== null && to <= from) throw new AppError('not_found', 'catch-up range ends before it starts');
  return { from, to };
}
