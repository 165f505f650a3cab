import { existsSync } from 'node:fs';
import { runTool } from '../../media/process';
import { AsrError, baseLanguage, type AsrEngine, type AsrSegment, type AsrWord, type TranscribeRequest } from './types';
import { tidySegments } from './words';

/** Settings of the built-in engine: Debian's `pocketsphinx_continuous` with the `pocketsphinx-en-us` model. */
export interface PocketsphinxOptions {
  /** The CLI (default: found on PATH). */
  bin?: string | null;
  /** Model directory holding `en-us/`, `en-us.lm.bin`, `cmudict-en-us.dict` (default: Debian's). */
  modelDir?: string;
  /** Hard deadline of one run (ms; default 30 min). */
  timeoutMs?: number;
  /** CPU niceness of the recogniser (default 10: below live ingest and delivery). */
  nice?: number;
}

const DEBIAN_MODEL = '/usr/share/pocketsphinx/model/en-us';
const WORD_LINE = /^(\S+) (\d+\.\d+) (\d+\.\d+) (-?\d+(?:\.\d+)?)$/;
/** Decoder markers that are not words: sentence start/end, silence, noise classes, fillers like `++UH++`. */
const NOT_A_WORD = /^(<s>|<\/s>|<sil>|\[[A-Z_]+\]|\+\+.*\+\+|\+[A-Z_]+\+)$/;

/**
 * Parses `pocketsphinx_continuous -time yes` output: per utterance a hypothesis line, then one line per token
 * `word start end confidence` (seconds, absolute in the file). Markers are dropped and alternate pronunciations
 * (`was(2)`) lose their suffix; each utterance becomes one segment.
 */
export function parsePocketsphinxOutput(out: string): AsrSegment[] {
  const segments: AsrSegment[] = [];
  let words: AsrWord[] = [];
  const flush = () => {
    if (words.length) segments.push({ startMs: words[0]!.startMs, endMs: words[words.length - 1]!.endMs, text: words.map((w) => w.text).join(' '), words });
    words = [];
  };
  for (const raw of out.split('\n')) {
    const m = WORD_LINE.exec(raw.trim());
    if (!m) continue;
    const token = m[1]!;
    if (token === '<s>') { flush(); continue; }
    if (token === '</s>') { flush(); continue; }
    if (NOT_A_WORD.test(token)) continue;
    const text = token.replace(/\(\d+\)$/, '');
    words.push({ startMs: Math.round(Number(m[2]) * 1000), endMs: Math.round(Number(m[3]) * 1000), text });
  }
  flush();
  return tidySegments(segments);
}

/** The built-in English engine; `supports` is false when the CLI or the model is missing. */
export function pocketsphinxEngine(o: PocketsphinxOptions = {}): AsrEngine {
  const bin = o.bin === undefined ? Bun.which('pocketsphinx_continuous') : o.bin;
  const model = o.modelDir ?? DEBIAN_MODEL;
  const available = !!bin && existsSync(`${model}/en-us/mdef`) && existsSync(`${model}/en-us.lm.bin`);
  return {
    name: 'pocketsphinx',
    compute: 'cpu',
    supports: (language) => available && baseLanguage(language) === 'en',
    async transcribe(req: TranscribeRequest): Promise<AsrSegment[]> {
      if (!available) throw new AsrError('no_engine', 'pocketsphinx is not installed (Debian packages pocketsphinx, pocketsphinx-en-us)', true);
      if (baseLanguage(req.language) !== 'en') throw new AsrError('no_engine', `pocketsphinx recognises English only, not "${req.language}"`, true);
      if (!existsSync(req.wavPath)) throw new AsrError('bad_audio', `no audio file at ${req.wavPath}`, true);
      // The glossary prompt has no place here: this decoder takes a fixed language model and dictionary.
      const lines: string[] = [];
      const run = runTool([
        bin!,
        '-infile', req.wavPath, // 16 kHz mono WAV (the header is skipped)
        '-hmm', `${model}/en-us`, // acoustic model
        '-lm', `${model}/en-us.lm.bin`, // language model
        '-dict', `${model}/cmudict-en-us.dict`, // pronunciation dictionary
        '-time', 'yes', // one line per word with start/end seconds
        '-logfn', '/dev/null', // decoder log off (it would fill stderr)
        // Below live ingest and delivery: niced, SCHED_BATCH, lowest best-effort disk priority.
      ], { timeoutMs: o.timeoutMs ?? 30 * 60_000, nice: o.nice ?? 10, batch: true, ioNice: 7, signal: req.signal, onStdoutLine: (l) => lines.push(l) });
      const r = await run.done;
      if (r.aborted) throw new AsrError('aborted', 'recognition was cancelled', false);
      if (r.timedOut) throw new AsrError('engine_failed', 'pocketsphinx ran past its deadline', false);
      if (r.code !== 0) throw new AsrError('engine_failed', `pocketsphinx exited with ${r.code ?? r.signal}: ${r.stderrTail.slice(-3).join(' | ')}`, false);
      return parsePocketsphinxOutput(lines.join('\n'));
    },
  };
}
