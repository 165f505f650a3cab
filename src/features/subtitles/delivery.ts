import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../kernel/db/sqlite';
import { initTracks } from '../../live/mp4';
import { leadTime } from '../../live/rebase';
import { serializeWebVtt } from '../../text/webvtt';
import { dbMemo } from '../media-delivery/db-memo';
import { serveBytes } from '../media-delivery/serve-file';
import { mpdWithSubs, nextAdaptationId } from './dash-subs';
import { SubtitleDeliveryStore, type DeliveredTrack } from './delivery-store';
import { masterWithSubs, mediaSegments, subsPlaylist, vttSegment, type SubsRendition } from './hls-subs';

/**
 * Subtitles in VOD delivery (docs/subtitles.md, "Delivery and players"): the published, ready tracks of an asset are
 * added to its master playlist and MPD as they are served, and their files are made from the cues on request, under
 * the same gate and token as the media (they are files of the same `/m/.../v<N>/` directory):
 * `subs_<track>.m3u8` (HLS rendition aligned to the first variant's segments), `subs_<track>_<n>.vtt` (its segments,
 * with `X-TIMESTAMP-MAP`), `subs_<track>.vtt` (the whole sidecar file, for DASH and the playback block). Answers are
 * cacheable for 5 minutes with an ETag of their content (a cue edit changes it); nothing is written to disk.
 */

const TYPES = { m3u8: 'application/vnd.apple.mpegurl', vtt: 'text/vtt; charset=utf-8', mpd: 'application/dash+xml' } as const;
const CACHE = 'public, max-age=300';
const SUBS_FILE = /^subs_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:_(\d{1,6}))?\.(m3u8|vtt)$/;

/** True for the file names subtitle delivery may answer (everything else skips it: no cost on segments). */
export const mayCarrySubs = (file: string) => file === 'master.m3u8' || file === 'manifest.mpd' || file.startsWith('subs_');

/** The sidecar WebVTT file name of a track inside an output directory. */
export const sidecarName = (trackId: string) => `subs_${trackId}.vtt`;

/** A track's display name: its label, else the language's own name for itself ("עברית", "English"), else the tag. */
export function trackName(t: Pick<DeliveredTrack, 'label' | 'language'>): string {
  if (t.label) return t.label;
  try { return new Intl.DisplayNames([t.language], { type: 'language' }).of(t.language) ?? t.language; } catch { return t.language; }
}

/** HLS renditions of tracks, each at `uri(track)`; none is the default (captions stay off until chosen). */
export function renditionsOf(tracks: DeliveredTrack[], uri: (t: DeliveredTrack) => string): SubsRendition[] {
  return tracks.map((t) => ({ uri: uri(t), language: t.language, name: trackName(t), kind: t.kind, isDefault: false }));
}

/** The 90 kHz media time of the first segment of a media playlist in `dir` (its lead track's tfdt); 0 when unreadable. */
export function firstMediaTime90k(dir: string, playlist: string): number {
  try {
    const init = /#EXT-X-MAP:URI="([^"?]+)/.exec(playlist)?.[1];
    const seg = playlist.split('\n').find((l) => l && !l.startsWith('#'));
    if (!init || !seg) return 0;
    const t = leadTime(readFileSync(join(dir, seg.split('?')[0])), initTracks(readFileSync(join(dir, init))));
    return t ? Math.round((Number(t.time) / t.timescale) * 90_000) : 0;
  } catch { return 0; }
}

/** What a VOD subtitle answer needs from the guarded request. */
export interface VodSubsRequest { request: Request; tenantId: string; assetId: string; dbGeneration: number; dir: string; file: string }

/** Subtitle answers for VOD delivery; `answer` returns null for files that are not about subtitles. */
export function subtitleDelivery(db: Db) {
  const store = new SubtitleDeliveryStore(db);
  const tracks = dbMemo<DeliveredTrack[]>(2_000);
  const cues = dbMemo<ReturnType<SubtitleDeliveryStore['cues']>>(200);
  const mains = new Map<string, { text: string; segs: ReturnType<typeof mediaSegments>; mpegts: number }>();
  const published = (r: VodSubsRequest) => tracks.get(r.dbGeneration, `${r.tenantId}/${r.assetId}`, () => store.assetTracks(r.tenantId, r.assetId));
  /** The first variant's media playlist of an output dir (a ready version's files never change: kept). */
  const main = (dir: string) => {
    const hit = mains.get(dir);
    if (hit) return hit;
    const master = readFileSync(join(dir, 'master.m3u8'), 'utf8');
    const uri = master.split('\n').find((l, i, a) => a[i - 1]?.startsWith('#EXT-X-STREAM-INF:') && l && !l.startsWith('#'));
    if (!uri) return null;
    const text = readFileSync(join(dir, uri.split('?')[0]), 'utf8');
    const v = { text, segs: mediaSegments(text), mpegts: firstMediaTime90k(dir, text) };
    if (mains.size > 2_000) mains.clear();
    mains.set(dir, v);
    return v;
  };
  const text = (r: VodSubsRequest, body: string, type: string) => serveBytes(r.request, body, type, CACHE);

  return {
    /**
     * The answer for `file` when it is a subtitle file or a manifest with tracks to add; null when the file is served
     * as it is on disk (no published track, or not a subtitle name). A subtitle name of a track that is not published
     * and ready here answers 404 (null from `missing`).
     */
    answer(r: VodSubsRequest): Response | null | 'missing' {
      if (r.file === 'master.m3u8' || r.file === 'manifest.mpd') {
        const list = published(r);
        if (!list.length) return null;
        let body: string;
        try { body = readFileSync(join(r.dir, r.file), 'utf8'); } catch { return null; }
        if (r.file === 'master.m3u8') return text(r, masterWithSubs(body, renditionsOf(list, (t) => `subs_${t.id}.m3u8`)), TYPES.m3u8);
        const dash = list.map((t) => ({ id: t.id, language: t.language, label: trackName(t), kind: t.kind, url: sidecarName(t.id) }));
        return text(r, mpdWithSubs(body, dash, nextAdaptationId(body)), TYPES.mpd);
      }
      const m = SUBS_FILE.exec(r.file);
      if (!m) return null;
      const t = published(r).find((x) => x.id === m[1]);
      if (!t) return 'missing';
      const [, id, seg, ext] = m;
      const all = () => cues.get(r.dbGeneration, id, () => store.cues(id));
      if (ext === 'vtt' && seg === undefined) return text(r, serializeWebVtt(all(), { language: t.language }), TYPES.vtt);
      const mv = main(r.dir);
      if (!mv) return 'missing';
      if (ext === 'm3u8') return seg === undefined ? text(r, subsPlaylist(mv.segs, (n) => `subs_${id}_${n}.vtt`), TYPES.m3u8) : 'missing';
      const n = Number(seg), s = mv.segs.segments[n];
      if (!s) return 'missing';
      // The cues' time 0 is the media's first presentation (the first segment's decode time), the same in every segment.
      return text(r, vttSegment(all(), s.startMs, s.startMs + s.durMs, mv.mpegts, t.language), TYPES.vtt);
    },
  };
}
