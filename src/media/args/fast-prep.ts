/**
 * ffmpeg argument builders of FAST preparation (issue 48): an asset's CMAF video rendition and its audio rendition
 * muxed into one fMP4 HLS rendition by stream copy (no re-encode; live channels carry muxed audio and video), or an
 * asset conformed to a channel rendition it lacks (a re-encode, only then). Both write `init.mp4`, `sNNNNN.m4s` and
 * `index.m3u8` into `outDir`, cut at `segmentS`. Pure.
 */
import { join } from 'node:path';

/** The common head: quiet, no stdin, local files only. */
const head = (ffmpeg: string) => [ffmpeg, '-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];

/** The fMP4 HLS tail shared by both builders. */
function hlsOut(outDir: string, segmentS: number): string[] {
  return [
    '-f', 'hls', '-hls_time', String(segmentS), '-hls_segment_type', 'fmp4', '-hls_playlist_type', 'vod',
    '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(outDir, 's%05d.m4s'), join(outDir, 'index.m3u8'),
  ];
}

/**
 * Stream copy of a video HLS playlist and (when given) an audio HLS playlist into one muxed rendition. The muxer takes
 * packets in decode order and cuts at a video keyframe's decode time, which B-frames put `audioLeadS` (the video's
 * decode delay) before its presentation time: the audio is read that much early so each segment's audio runs to its
 * video's end (the caller moves the audio's decode times back by the same amount afterwards).
 */
export function fastCopyArgs(o: { ffmpeg: string; video: string; audio: string | null; outDir: string; segmentS: number; audioLeadS?: number }): string[] {
  const wl = ['-protocol_whitelist', 'file'];
  const lead = o.audioLeadS ? ['-itsoffset', (-o.audioLeadS).toFixed(6)] : [];
  return [
    ...head(o.ffmpeg), ...wl, '-i', o.video, ...(o.audio ? [...lead, ...wl, '-i', o.audio] : []),
    '-map', '0:v:0', ...(o.audio ? ['-map', '1:a:0'] : []), '-c', 'copy', ...hlsOut(o.outDir, o.segmentS),
  ];
}

/**
 * A re-encode of `input` to one channel rendition (width x height, video_k kbit/s, H.264 with keyframes every
 * `keyS` seconds, AAC stereo 48 kHz); a source without audio gets silence, so every airing has the same tracks.
 */
export function fastConformArgs(o: { ffmpeg: string; input: string; hasAudio: boolean; outDir: string; segmentS: number; keyS: number; width: number; height: number; videoK: number; audioK: number; fps: number }): string[] {
  return [
    ...head(o.ffmpeg), '-protocol_whitelist', 'file', '-i', o.input,
    ...(o.hasAudio ? [] : ['-f', 'lavfi', '-i', 'anullsrc=channel_layout=stereo:sample_rate=48000']),
    '-map', '0:v:0', '-map', o.hasAudio ? '0:a:0' : '1:a:0', ...(o.hasAudio ? [] : ['-shortest']),
    '-vf', `scale=${o.width}:${o.height}:flags=bicubic,setsar=1,fps=${o.fps}`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
    '-b:v', `${o.videoK}k`, '-maxrate', `${Math.round(o.videoK * 1.2)}k`, '-bufsize', `${o.videoK * 2}k`,
    '-force_key_frames', `expr:gte(t,n_forced*${o.keyS})`, '-sc_threshold', '0',
    '-c:a', 'aac', '-b:a', `${o.audioK}k`, '-ac', '2', '-ar', '48000',
    ...hlsOut(o.outDir, o.segmentS),
  ];
}

/** ffprobe of the first video packet's presentation and decode time (`pts,dts` in seconds): the decode delay. */
export function fastVideoDelayArgs(ffprobe: string, video: string): string[] {
  return [ffprobe, '-v', 'error', '-protocol_whitelist', 'file', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,dts_time', '-read_intervals', '%+#1', '-of', 'csv=p=0', video];
}
