import type { Db } from '../../kernel/db/sqlite';
import type { Cue } from '../../text/cue-text';
import { channelCuesInWindow, channelTracksOverlapping } from './channel-store';
import { trackName } from './delivery';
import { masterWithSubs, vttSegment, type SubsRendition } from './hls-subs';

/**
 * Subtitle renditions of recorded ranges (catch-up, start-over): one rendition per language of the channel's published,
 * ready recording tracks overlapping the range (several programmes' tracks of one language join into one rendition).
 * A rendition is the "variant" `subs-<language>-<first_ms>` of the range (`first_ms`: the wall-clock start of the range
 * playlist's first segment, whose media time the range's segments are rebased to 0); its playlist mirrors the first
 * variant's segments and names `vtt/<start_ms>-<duration_ms>.vtt` for each, whose cues are the tracks' cues in that
 * wall-clock window, timed from `first_ms` (`X-TIMESTAMP-MAP=MPEGTS:0`: the range's media time 0).
 */

/** A subtitle rendition name of a range: language and the playlist's first segment start. */
export const RANGE_SUBS = /^subs-([a-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,2})-([0-9]{10,14})$/;
/** A WebVTT segment file of a range rendition: the media segment's wall-clock start and duration (ms). */
export const RANGE_VTT = /^([0-9]{10,14})-([0-9]{1,7})\.vtt$/;

/** The languages with published, ready recording tracks over [from, to) of a channel, each with its kind and name. */
export function rangeSubtitleLanguages(db: Db, tenantId: string, channelId: string, from: number, to: number): { language: string; kind: string; name: string }[] {
  const seen = new Map<string, { language: string; kind: string; name: string }>();
  for (const t of channelTracksOverlapping(db, tenantId, channelId, from, to, { publishedOnly: true })) {
    if (!seen.has(t.language)) seen.set(t.language, { language: t.language, kind: t.kind, name: trackName(t) });
  }
  return [...seen.values()];
}

/** Pure: a range master playlist with its subtitle renditions (`q`: the `?c=<tenant>` query every URI carries). */
export function rangeMasterWithSubs(master: string, langs: { language: string; kind: string; name: string }[], firstMs: number, q: string): string {
  const subs: SubsRendition[] = langs.map((l) => ({ uri: `subs-${l.language}-${firstMs}/index.m3u8${q}`, language: l.language, name: l.name, kind: l.kind, isDefault: false }));
  return masterWithSubs(master, subs);
}

/**
 * Pure: the rendition's playlist from the range's first variant playlist: the same header, EXTINF, discontinuities,
 * program date times and end; no init map; each segment `seg/<start>.m4s?...` becomes `vtt/<start>-<duration>.vtt?...`.
 */
export function rangeSubsPlaylist(variant: string): string {
  const out: string[] = [];
  let dur = -1;
  for (const l of variant.replace(/\n$/, '').split('\n')) {
    if (l.startsWith('#EXT-X-MAP')) continue;
    if (l.startsWith('#EXTINF:')) dur = Math.round(parseFloat(l.slice(8)) * 1000);
    const m = /^seg\/([0-9]{10,14})\.m4s(\?.*)?$/.exec(l);
    out.push(m ? `vtt/${m[1]}-${Math.max(0, dur)}.vtt${m[2] ?? ''}` : l);
  }
  return out.join('\n') + '\n';
}

/** One WebVTT segment of a range rendition: the cues of `language` overlapping [startMs, startMs + durMs), timed from `firstMs`. */
export function rangeVttSegment(db: Db, tenantId: string, channelId: string, language: string, firstMs: number, startMs: number, durMs: number): string {
  const cues: Cue[] = channelCuesInWindow(db, tenantId, channelId, startMs, startMs + durMs, { publishedOnly: true, language })
    .map((c) => ({ startMs: Math.max(0, c.startMs - firstMs), endMs: c.endMs - firstMs, text: c.text }));
  return vttSegment(cues, startMs - firstMs, startMs - firstMs + durMs, 0, language);
}
