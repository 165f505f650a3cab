import { ffmpegHead, sourceInput } from './input';

/**
 * Pure: the audio that speech engines take, from an uploaded source (any container we accept): the first audio
 * stream as 16 kHz mono 16-bit PCM WAV (issue 43).
 */
export function speechAudioArgs(ffmpeg: string, source: string, outWav: string): string[] {
  return [
    ffmpeg, ...ffmpegHead(),
    // Local file only, real containers only, bounded probing (see sourceInput).
    ...sourceInput(source),
    // The first audio stream only; no video, subtitles or data streams are decoded.
    '-map', '0:a:0', '-vn', '-sn', '-dn',
    // Mono: channels mixed down (speech engines take one channel).
    '-ac', '1',
    // 16 kHz: the rate Whisper and pocketsphinx models are trained on (resampled with ffmpeg's default swr).
    '-ar', '16000',
    // 16-bit little-endian PCM in a WAV container: the format both engines read without further decoding.
    '-c:a', 'pcm_s16le', '-f', 'wav',
    outWav,
  ];
}
