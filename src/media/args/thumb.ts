import { ffmpegHead, ownInput } from './input';

/** Pure: one small JPEG frame of one of our own recorded CMAF segments (init and media joined), `offsetS` into it. */
export function thumbArgs(ffmpeg: string, input: string, outFile: string, offsetS: number, width = 160): string[] {
  return [
    ffmpeg, ...ffmpegHead(),
    // Input seek to the frame (0 = the segment's first keyframe, the cheapest decode); our own fMP4 only.
    ...ownInput(input, offsetS > 0 ? offsetS : undefined),
    // No audio decoding; scale to a filmstrip tile (height follows, kept even for the JPEG encoder).
    '-an', '-vf', `scale=${width}:-2`,
    // One frame; -q:v 6: small files, still readable at tile size; -update 1: a single image, not a numbered sequence.
    '-frames:v', '1', '-q:v', '6', '-update', '1', outFile,
  ];
}
