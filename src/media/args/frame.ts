import { ffmpegHead, ownInput } from './input';

/** Pure: the last video frame of one of our own recorded CMAF segments (init and media joined in one file) as a JPEG. */
export function lastFrameArgs(ffmpeg: string, input: string, outFile: string, width = 480): string[] {
  return [
    ffmpeg, ...ffmpegHead(), ...ownInput(input),
    // No audio decoding; scale first (cheap frames), then reverse so the segment's last frame comes out first.
    '-an', '-vf', `scale=${width}:-2,reverse`,
    // One frame; -q:v 4: good JPEG quality; -update 1: a single image, not a numbered sequence.
    '-frames:v', '1', '-q:v', '4', '-update', '1', outFile,
  ];
}
