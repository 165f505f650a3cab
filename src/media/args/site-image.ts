import { ffmpegHead } from './input';

/**
 * Pure: one still image (our own poster JPEG) cropped to fill `w`x`h` exactly (scaled up to cover, centred crop),
 * written as WebP (libwebp, quality 80) or as a baseline RGB JPEG (podcast artwork: Apple refuses WebP).
 */
export function siteImageArgs(ffmpeg: string, input: string, output: string, w: number, h: number, format: 'webp' | 'jpeg'): string[] {
  return [
    ffmpeg, ...ffmpegHead(),
    // Our own poster file only: a JPEG read through the image demuxer for a single file (no sequence patterns).
    '-protocol_whitelist', 'file', '-f', 'image2', '-pattern_type', 'none', '-i', input,
    '-vf', `scale=${w}:${h}:force_original_aspect_ratio=increase,crop=${w}:${h},format=${format === 'webp' ? 'yuv420p' : 'yuvj444p'}`,
    '-frames:v', '1', '-update', '1',
    ...(format === 'webp' ? ['-c:v', 'libwebp', '-quality', '80', '-f', 'webp'] : ['-c:v', 'mjpeg', '-q:v', '3', '-f', 'image2']),
    output,
  ];
}
