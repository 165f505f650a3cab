/**
 * The speech-recognition engine boundary: 16 kHz mono WAV in, timed segments with word timings out. Engines are
 * given their settings as options and run outside our process (a CLI or an HTTP service); see docs/subtitles.md.
 */

/** One recognised word (or word-like token) with its time in the audio, in milliseconds. */
export interface AsrWord { startMs: number; endMs: number; text: string }

/** One recognised stretch of speech. `words` is never empty when `text` is not; `wordsEstimated` when the engine gave
 * no word timings and they were spread over the segment by character count. */
export interface AsrSegment { startMs: number; endMs: number; text: string; words: AsrWord[]; wordsEstimated?: boolean }

/** What one transcription needs. */
export interface TranscribeRequest {
  /** Path of a 16 kHz mono PCM WAV file. */
  wavPath: string;
  /** BCP 47 language of the speech (`he`, `en`, `en-US`). */
  language: string;
  /** Glossary words (names, places, programme names) passed as the engine's prompt where it takes one. */
  prompt?: string;
  signal?: AbortSignal;
}

/** A speech engine. */
export interface AsrEngine {
  /** Stable engine name recorded with each track (`openai`, `pocketsphinx`). */
  readonly name: string;
  /**
   * Where recognition runs, recorded on each job: `cpu` (a CLI here, niced below live work), `gpu` (here, on the
   * box's GPU), `remote` (a service elsewhere; whether it uses a GPU is its own business).
   */
  readonly compute: 'cpu' | 'gpu' | 'remote';
  /** Whether this engine recognises `language` (BCP 47). */
  supports(language: string): boolean;
  /** Recognises the speech in the file; throws AsrError. */
  transcribe(req: TranscribeRequest): Promise<AsrSegment[]>;
}

/** Why a transcription failed. */
export type AsrErrorCode = 'no_engine' | 'bad_audio' | 'engine_failed' | 'engine_unreachable' | 'bad_response' | 'aborted';

/** A recognition failure with a stable code and a readable reason; `permanent` when retrying cannot help. */
export class AsrError extends Error {
  constructor(readonly code: AsrErrorCode, message: string, readonly permanent: boolean) {
    super(message);
    this.name = 'AsrError';
  }
}

/** The primary subtag of a BCP 47 tag, lower-cased (`en-US` -> `en`). */
export function baseLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}
