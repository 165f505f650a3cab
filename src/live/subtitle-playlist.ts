import type { SegmentRow } from './model';
import { mediaPlaylist } from './playlist';

/**
 * The live subtitle rendition's playlists (issue 43), pure. A channel's media time runs with wall-clock time since the
 * channel's creation (rebase.ts), so a WebVTT segment of the live rendition maps its cues straight onto it: cue times
 * are media times (ms since `originMs`), and `X-TIMESTAMP-MAP` pairs the segment's start as a local cue time with the
 * same instant on the 90 kHz MPEG-TS clock (33 bits, as players count it), which players align with the fMP4 decode
 * times they read from the video.
 */

/** The rendition name of a live subtitle language (a "variant" of the live channel). */
export const LIVE_SUBS = /^subs-([a-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,2})$/;
/** A live WebVTT segment file: the media segment's wall-clock start and duration (ms). */
export const LIVE_VTT = /^([0-9]{10,14})-([0-9]{1,7})\.vtt$/;

/**
 * The subtitle rendition's live playlist: the video variant's segments (same media and discontinuity sequence, program
 * date times, durations) up to `untilMs`, the end of the audio recognised so far, so a player never fetches a
 * WebVTT segment before its cues exist (it refreshes the playlist and finds it later); no init map;
 * `vtt/<start>-<duration>.vtt` per segment; ended when the channel stopped and everything is recognised.
 */
export function liveSubsPlaylist(segs: SegmentRow[], o: { targetS: number; ended: boolean; untilMs: number }): string {
  const done = segs.filter((s) => s.start_ms + s.duration_ms <= o.untilMs);
  const body = mediaPlaylist(done, { targetS: o.targetS, ended: o.ended && done.length === segs.length });
  return body.split('\n').filter((l) => !l.startsWith('#EXT-X-MAP')).map((l) => {
    const m = /^seg\/([0-9]{10,14})\.m4s$/.exec(l);
    if (!m) return l;
    const s = done.find((x) => x.start_ms === Number(m[1]))!;
    return `vtt/${s.start_ms}-${s.duration_ms}.vtt`;
  }).join('\n');
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A WebVTT timestamp of `ms` (hours as many digits as needed). */
export function vttTime(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  return `${pad(Math.floor(t / 3_600_000))}:${pad(Math.floor(t / 60_000) % 60)}:${pad(Math.floor(t / 1000) % 60)}.${pad(t % 1000, 3)}`;
}

/** `X-TIMESTAMP-MAP` of a live WebVTT segment starting at media time `mediaMs`: that local time is that MPEG-TS time. */
export function liveTimestampMap(mediaMs: number): string {
  const ts = ((Math.round(mediaMs * 90) % 2 ** 33) + 2 ** 33) % 2 ** 33;
  return `X-TIMESTAMP-MAP=MPEGTS:${ts},LOCAL:${vttTime(mediaMs)}`;
}

/** Media time (ms since the channel's origin) of a wall-clock instant. */
export const mediaTime = (wallMs: number, originMs: number) => Math.max(0, wallMs - originMs);
