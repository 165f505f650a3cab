import type { MediaInfo } from '../probe-parse';
import { ffmpegHead, sourceInput } from './input';

/** File names of the quick-play preview (one variant, the source's own H.264/AAC streams, CMAF segments). */
export const PREVIEW = { master: 'master.m3u8', media: 'preview.m3u8', init: 'preview_init.mp4', segment: 'preview_%05d.m4s' } as const;

/** H.264 profiles every browser's MSE and native HLS decode. */
const PLAYABLE_PROFILES = new Set(['Baseline', 'Constrained Baseline', 'Main', 'High']);

/**
 * Pure: why a source cannot be remuxed for quick play as it is, or null when it can: 8-bit 4:2:0 H.264 in a
 * browser profile, no rotation (players ignore the display matrix of fMP4 segments inconsistently), SDR, and AAC or
 * no audio. Everything else waits for the ladder's first rendition.
 */
export function remuxBlocker(info: MediaInfo): string | null {
  const v = info.video;
  if (!v) return 'no video';
  if (v.codec !== 'h264') return `video codec ${v.codec}`;
  if (!v.profile || !PLAYABLE_PROFILES.has(v.profile)) return `H.264 profile ${v.profile ?? 'unknown'}`;
  if (v.bitDepth !== 8 || !/^yuvj?420p$/.test(v.pixFmt)) return `pixel format ${v.pixFmt}`;
  if (v.rotation !== 0) return 'rotated picture';
  if (v.hdr) return 'HDR';
  if (info.audio && info.audio.codec !== 'aac') return `audio codec ${info.audio.codec}`;
  return null;
}

/**
 * Pure: the quick-play remux: the source's first video stream and its first audio stream when it has one, copied
 * (no decode, no encode) into CMAF (fMP4) segments with a VOD media playlist and a one-variant master, in well under
 * a second for a minute of 1080p. It needs no probe first (it runs beside the probe; remuxBlocker decides afterwards
 * whether its output is used). Segments cut on the source's own keyframes (`segmentS` is a target).
 */
export function previewRemuxArgs(ffmpeg: string, o: { source: string; outDir: string; segmentS: number }): string[] {
  return [
    ffmpeg, ...ffmpegHead(), ...sourceInput(o.source),
    // First video stream; first audio stream when there is one (`?`: optional); nothing else.
    '-map', '0:v:0', '-map', '0:a:0?',
    // Stream copy: the point of the preview is that nothing is decoded or encoded.
    '-c', 'copy',
    // No metadata, data or subtitle streams (tags of customer files are not published).
    '-map_metadata', '-1', '-dn', '-sn',
    // HLS with fMP4 (CMAF) segments; a VOD playlist with ENDLIST (written once the remux ends).
    '-f', 'hls', '-hls_segment_type', 'fmp4', '-hls_time', String(o.segmentS), '-hls_playlist_type', 'vod',
    // Every segment starts on a keyframe (the muxer cuts only there): players may start or switch at any segment.
    '-hls_flags', 'independent_segments',
    // Init segment and segments under fixed names next to the playlists (relative URIs in the playlists).
    '-hls_fmp4_init_filename', PREVIEW.init, '-hls_segment_filename', `${o.outDir}/${PREVIEW.segment}`,
    // A master playlist with BANDWIDTH and RESOLUTION, so players size the variant up front.
    '-master_pl_name', PREVIEW.master,
    `${o.outDir}/${PREVIEW.media}`,
  ];
}

/**
 * Pure: the quick first rendition of a source that cannot be remuxed (another codec, 10-bit, HDR, rotated...): one
 * small H.264/AAC rendition encoded as fast as x264 goes, in short CMAF segments under the same names as the remux,
 * as an EVENT playlist that grows while it encodes, so the first segment is playable within about a second.
 */
export function previewEncodeArgs(ffmpeg: string, o: { source: string; outDir: string; width: number; height: number; fps: number; segmentS: number }): string[] {
  const g = String(Math.max(1, Math.round(o.fps * o.segmentS)));
  return [
    ffmpeg, ...ffmpegHead(), ...sourceInput(o.source),
    '-map', '0:v:0', '-map', '0:a:0?',
    // Small picture, 8-bit 4:2:0 (what every browser decodes), frame rate capped like the ladder's.
    '-vf', `fps=${+o.fps.toFixed(3)},scale=${o.width}:${o.height}:flags=fast_bilinear,setsar=1,format=yuv420p`,
    // ultrafast: speed over size (a stop-gap until the ladder replaces it); a keyframe at every segment start, no scene cuts.
    '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'baseline', '-g', g, '-keyint_min', g, '-sc_threshold', '0',
    '-b:v', '900k', '-maxrate', '1200k', '-bufsize', '1800k',
    // AAC-LC stereo 48 kHz from whatever the source carries.
    '-c:a', 'aac', '-b:a', '96k', '-ac', '2', '-ar', '48000',
    '-map_metadata', '-1', '-dn', '-sn',
    // Progress lines on stdout feed the stall watchdog; no human stats.
    '-progress', 'pipe:1', '-nostats',
    // EVENT playlist: segments are listed as they are written; ENDLIST at the end.
    '-f', 'hls', '-hls_segment_type', 'fmp4', '-hls_time', String(o.segmentS), '-hls_playlist_type', 'event',
    '-hls_flags', 'independent_segments',
    '-hls_fmp4_init_filename', PREVIEW.init, '-hls_segment_filename', `${o.outDir}/${PREVIEW.segment}`,
    '-master_pl_name', PREVIEW.master,
    `${o.outDir}/${PREVIEW.media}`,
  ];
}
