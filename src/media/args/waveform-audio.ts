import { ffmpegHead, sourceInput } from './input';

/** Sample rate of the audio the waveform peaks are computed from (speech detail; 16 KB a second of raw samples). */
export const WAVEFORM_RATE = 8000;

/**
 * Pure: the audio a waveform is drawn from, from an uploaded source: the first audio stream mixed down to one
 * channel at WAVEFORM_RATE as raw signed 16-bit little-endian samples (no header) in `outRaw` (issue 43).
 */
export function waveformAudioArgs(ffmpeg: string, source: string, outRaw: string): string[] {
  return [
    ffmpeg, ...ffmpegHead(),
    // Local file only, real containers only, bounded probing (see sourceInput).
    ...sourceInput(source),
    // The first audio stream only; no video, subtitles or data streams are decoded.
    '-map', '0:a:0', '-vn', '-sn', '-dn',
    // One channel (mixed down), 8 kHz: enough to see speech and pauses, small to read back.
    '-ac', '1', '-ar', String(WAVEFORM_RATE),
    // Raw samples: the peaks are computed by reading the file in blocks, nothing to parse.
    '-c:a', 'pcm_s16le', '-f', 's16le',
    outRaw,
  ];
}
