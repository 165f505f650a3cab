import { ffmpegHead } from './input';

/**
 * Pure: the audio speech engines take (16 kHz mono 16-bit WAV), from a run of our own recorded CMAF files read as
 * one fragmented MP4: the init segment followed by consecutive media segments that share it, joined by ffmpeg's
 * `concat:` protocol (byte concatenation, nothing copied). Keep a run short enough for one argument (about 200 paths).
 */
export function recordingSpeechAudioArgs(ffmpeg: string, files: string[], outWav: string): string[] {
  return [
    ffmpeg, ...ffmpegHead(),
    // Our own recording files only: local files joined byte for byte; no other protocol.
    '-protocol_whitelist', 'file,concat',
    // The joined bytes are one fragmented MP4 (init + moof/mdat pairs).
    '-f', 'mp4',
    '-i', `concat:${files.join('|')}`,
    // The first audio stream only; no video, subtitles or data streams are decoded.
    '-map', '0:a:0', '-vn', '-sn', '-dn',
    // Mono 16 kHz 16-bit PCM WAV, as for uploads (speech-audio.ts).
    '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-f', 'wav',
    outWav,
  ];
}
