import type { Cue } from '../../text/cue-text';
import { serializeWebVtt } from '../../text/webvtt';

/**
 * HLS subtitle renditions (RFC 8216 §4.3.4.1, Apple's HLS authoring rules), pure: the master playlist gains one
 * `#EXT-X-MEDIA:TYPE=SUBTITLES` per published track in group "subs", referenced by every `EXT-X-STREAM-INF`; a track's
 * media playlist lists one WebVTT segment per media segment of the main variant (same EXTINF durations, target
 * duration and discontinuities), each segment carrying `X-TIMESTAMP-MAP` and every cue that overlaps it.
 */

/** One subtitle rendition as the master playlist names it. */
export interface SubsRendition { uri: string; language: string; name: string; kind: string; isDefault: boolean }

/** The HLS group id of the subtitle renditions. */
export const SUBS_GROUP = 'subs';

const q = (s: string) => s.replace(/["\r\n]/g, "'");

/** Rendition names made unique inside the group (Apple: NAME must be unique per group), "Hebrew", "Hebrew (2)". */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n} (${k})`;
  });
}

/**
 * Pure: the master playlist with the subtitle renditions: the EXT-X-MEDIA lines before the first variant, and
 * `SUBTITLES="subs"` on every variant. Captions carry Apple's accessibility CHARACTERISTICS. No renditions: unchanged.
 */
export function masterWithSubs(master: string, subs: SubsRendition[]): string {
  if (!subs.length) return master;
  const names = uniqueNames(subs.map((s) => s.name));
  const media = subs.map((s, i) => {
    const dflt = s.isDefault ? 'YES' : 'NO';
    const ch = s.kind === 'captions' ? ',CHARACTERISTICS="public.accessibility.transcribes-spoken-dialog,public.accessibility.describes-music-and-sound"' : '';
    return `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="${SUBS_GROUP}",LANGUAGE="${q(s.language)}",NAME="${q(names[i])}",DEFAULT=${dflt},AUTOSELECT=YES,FORCED=NO${ch},URI="${q(s.uri)}"`;
  });
  const out: string[] = [];
  let placed = false;
  for (const l of master.replace(/\n$/, '').split('\n')) {
    if (l.startsWith('#EXT-X-MEDIA:TYPE=SUBTITLES')) continue;
    if (l.startsWith('#EXT-X-STREAM-INF:')) {
      if (!placed) { out.push(...media); placed = true; }
      const attrs = l.slice('#EXT-X-STREAM-INF:'.length).replace(/,SUBTITLES="[^"]*"/, '');
      out.push(`#EXT-X-STREAM-INF:${attrs},SUBTITLES="${SUBS_GROUP}"`);
      continue;
    }
    out.push(l);
  }
  return out.join('\n') + '\n';
}

/** One media segment of the main variant: where it starts on the playlist's timeline and how long it lasts (ms). */
export interface MediaSegment { startMs: number; durMs: number; discontinuity: boolean }

/** Pure: the segments of a media playlist (EXTINF durations from the first segment at 0; discontinuities kept). */
export function mediaSegments(playlist: string): { targetS: number; segments: MediaSegment[]; ended: boolean; type: string | null } {
  const segments: MediaSegment[] = [];
  let at = 0, disc = false, targetS = 0, dur = -1;
  const type = /#EXT-X-PLAYLIST-TYPE:(\w+)/.exec(playlist)?.[1] ?? null;
  for (const l of playlist.split('\n')) {
    if (l.startsWith('#EXT-X-TARGETDURATION:')) targetS = Number(l.slice(22));
    else if (l.startsWith('#EXT-X-DISCONTINUITY') && !l.startsWith('#EXT-X-DISCONTINUITY-SEQUENCE')) disc = true;
    else if (l.startsWith('#EXTINF:')) dur = Math.round(parseFloat(l.slice(8)) * 1000);
    else if (l && !l.startsWith('#') && dur >= 0) {
      segments.push({ startMs: at, durMs: dur, discontinuity: disc });
      at += dur; dur = -1; disc = false;
    }
  }
  return { targetS, segments, ended: playlist.includes('#EXT-X-ENDLIST'), type };
}

/**
 * Pure: a subtitle media playlist aligned to the main variant's segments: segment n is `segUri(n)` (0-based) with
 * the same duration. VOD when the main playlist is ended.
 */
export function subsPlaylist(main: ReturnType<typeof mediaSegments>, segUri: (n: number) => string): string {
  const target = Math.max(1, main.targetS, ...main.segments.map((s) => Math.ceil(s.durMs / 1000)));
  let out = `#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:${target}\n#EXT-X-MEDIA-SEQUENCE:0\n`;
  if (main.type) out += `#EXT-X-PLAYLIST-TYPE:${main.type}\n`;
  main.segments.forEach((s, n) => {
    if (s.discontinuity && n > 0) out += '#EXT-X-DISCONTINUITY\n';
    out += `#EXTINF:${(s.durMs / 1000).toFixed(3)},\n${segUri(n)}\n`;
  });
  if (main.ended) out += '#EXT-X-ENDLIST\n';
  return out;
}

/** `X-TIMESTAMP-MAP` value: the media's 90 kHz time (33-bit, as MPEG-TS counts) at the cues' time 0. */
export function timestampMap(mpegts90k: number): string {
  const v = ((Math.round(mpegts90k) % 2 ** 33) + 2 ** 33) % 2 ** 33;
  return `X-TIMESTAMP-MAP=MPEGTS:${v},LOCAL:00:00:00.000`;
}

/**
 * Pure: one WebVTT segment covering [fromMs, toMs) of the cues' timeline: every cue overlapping it, whole, with its
 * own times (players drop the repeats of a cue that spans segments), after the header's `X-TIMESTAMP-MAP` that puts
 * the cues' time 0 at the media time `mpegts90k`. Text escaped and RTL lines marked as every WebVTT export.
 */
export function vttSegment(cues: Cue[], fromMs: number, toMs: number, mpegts90k: number, language: string | null): string {
  const inside = cues.filter((c) => c.endMs > fromMs && c.startMs < toMs);
  const body = serializeWebVtt(inside, { language });
  return body.replace(/^WEBVTT\n/, `WEBVTT\n${timestampMap(mpegts90k)}\n`);
}
