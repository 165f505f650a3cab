import { ffmpegHead, ownInput } from './input';

/** Pure: poster frame at `atS` from our own rendition, as JPEG and WebP in one run (`upscale`: to that exact size, lanczos + unsharp). */
export function posterArgs(ffmpeg: string, input: string, atS: number, outDir: string, width: number, upscale?: { w: number; h: number }): string[] {
  // Upscaling (a frame smaller than the largest site image): lanczos, then a light unsharp mask against its softness.
  const scale = upscale ? `scale=${upscale.w}:${upscale.h}:flags=lanczos,unsharp=5:5:0.8:5:5:0.0` : `scale=${width}:-2`;
  return [
    ffmpeg, ...ffmpegHead(), ...ownInput(input, atS),
    // One decoded frame, scaled once, written twice.
    '-filter_complex', `[0:v]${scale},split=2[j][w]`,
    // -q:v 3: good JPEG quality; -update 1: single image, not a numbered sequence.
    '-map', '[j]', '-frames:v', '1', '-q:v', '3', '-update', '1', `${outDir}/poster.jpg`,
    // libwebp lossy at quality 80.
    '-map', '[w]', '-frames:v', '1', '-c:v', 'libwebp', '-quality', '80', '-update', '1', `${outDir}/poster.webp`,
  ];
}

/** Pure: one sprite sheet (cols x rows tiles of `w`x`h`), a tile every `intervalS` seconds. */
export function spriteArgs(ffmpeg: string, input: string, outFile: string, o: { intervalS: number; w: number; h: number; cols: number; rows: number }): string[] {
  return [
    ffmpeg, ...ffmpegHead(), ...ownInput(input),
    // fps=1/interval picks the tiles; tile= lays them out (the last sheet is flushed at end of input).
    '-vf', `fps=1/${o.intervalS},scale=${o.w}:${o.h},tile=${o.cols}x${o.rows}`,
    '-frames:v', '1', '-q:v', '5', '-update', '1', outFile,
  ];
}

/** Pure: remux our video and audio fMP4 into a progressive MP4 download with the index up front. */
export function downloadArgs(ffmpeg: string, video: string, audio: string | null, outFile: string): string[] {
  return [
    ffmpeg, ...ffmpegHead(), ...ownInput(video), ...(audio ? ownInput(audio) : []),
    '-map', '0:v:0', ...(audio ? ['-map', '1:a:0'] : []),
    // Stream copy: no re-encode; +faststart moves the moov atom first so playback starts before the download ends.
    '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', outFile,
  ];
}
