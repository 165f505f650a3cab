/**
 * Cues to whole sentences and back (issue 43, translations): a sentence often runs over two or three cues, and a
 * translation engine given cue fragments translates fragments. `mergeSentences` joins the cues' text into sentences
 * and remembers how much of each cue every sentence holds; `splitSentences` lays translated sentences back onto the
 * source cues' times under the cue rules (lines, reading speed), moving words to a neighbouring cue when a translation
 * is longer, and never dropping a word.
 */
import { cleanCueText, readingChars, visibleLength, type Cue } from './cue-text';
import { DEFAULT_CUE_RULES, type CueRules } from './cue-builder';
import { breakLines } from './line-break';

/** A sentence of the source track: its text and, per cue it spans, how many visible characters it has there. */
export interface Sentence { text: string; parts: { cue: number; chars: number }[] }

/** Ends a sentence (Latin, Hebrew and Arabic punctuation, closing quotes after it). */
const SENTENCE_END = /[.!?…؟]["'”’»)\]]*$/;
/** A sentence without end punctuation (engines without punctuation) is closed at a cue end after this many characters. */
const MAX_SENTENCE_CHARS = 240;

/** Merges cues (time order) into sentences across cue boundaries; every word of every cue lands in one sentence. */
export function mergeSentences(cues: Cue[]): Sentence[] {
  const out: Sentence[] = [];
  let words: string[] = [], parts: { cue: number; chars: number }[] = [];
  const close = () => {
    if (words.length) out.push({ text: words.join(' '), parts: parts.filter((p) => p.chars > 0) });
    words = []; parts = [];
  };
  cues.forEach((c, i) => {
    const lines = cleanCueText(c.text).split('\n').filter(Boolean);
    for (const line of lines) {
      // A dialogue line ("-Yes." / "- כן.") starts a new speaker, hence a new sentence.
      if (/^[-–—]/.test(line) && words.length) close();
      for (const w of line.split(' ').filter(Boolean)) {
        const last = parts[parts.length - 1];
        if (last && last.cue === i) last.chars += visibleLength(w) + 1; else parts.push({ cue: i, chars: visibleLength(w) + 1 });
        words.push(w);
        if (SENTENCE_END.test(w)) close();
      }
    }
    const next = cues[i + 1];
    // A long pause, or a run-on sentence, ends at the cue end.
    if (next && (next.startMs - c.endMs >= 2000 || visibleLength(words.join(' ')) >= MAX_SENTENCE_CHARS)) close();
  });
  close();
  return out;
}

/** Result of `splitSentences`: the cues and how many of them still read faster than the limit. */
export interface SplitResult { cues: Cue[]; overReadingSpeed: number; moved: number }

/** Splits `words` into `weights.length` consecutive runs sized in proportion to `weights` (at word boundaries). */
function proportional(words: string[], weights: number[]): string[][] {
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const chars = words.map((w) => visibleLength(w) + 1);
  const all = chars.reduce((a, b) => a + b, 0);
  const runs: string[][] = weights.map(() => []);
  let acc = 0, k = 0, wsum = 0;
  for (let i = 0; i < words.length; i++) {
    // The word goes to the run whose share of the text its middle falls into.
    const mid = (acc + chars[i]! / 2) / all;
    while (k < weights.length - 1 && mid > (wsum + weights[k]!) / total) { wsum += weights[k]!; k++; }
    runs[k]!.push(words[i]!);
    acc += chars[i]!;
  }
  return runs;
}

/**
 * Lays translated sentences (`translated[i]` for `sentences[i]`) back onto `source` cue times. Each sentence's words
 * are shared among the cues it spans in proportion to the source characters there; a cue whose words do not fit
 * `maxLines` x `maxLineChars`, or read faster than `maxCharsPerSecond` in the time it may have, gives its edge words to
 * a neighbour that has room; a cue that still does not fit its lines is cut in time into pieces that do. A cue may stay
 * on screen past its source end until `minGapMs` before the next cue (at most `maxDurationMs`). Cues left without
 * words are dropped; no word is ever dropped. Translated text is cleaned and kept in logical order.
 */
export function splitSentences(source: Cue[], sentences: Sentence[], translated: string[], rules: Partial<CueRules> = {}): SplitResult {
  const r: CueRules = { ...DEFAULT_CUE_RULES, ...rules };
  if (translated.length !== sentences.length) throw new Error(`expected ${sentences.length} translated sentences, got ${translated.length}`);
  const perCue: string[][] = source.map(() => []);
  sentences.forEach((s, i) => {
    const words = cleanCueText(translated[i]!).replace(/\n/g, ' ').split(' ').filter(Boolean);
    const runs = proportional(words, s.parts.map((p) => p.chars));
    s.parts.forEach((p, k) => perCue[p.cue]!.push(...runs[k]!));
  });
  // The longest each cue may stay on screen (until just before the next source cue, at most maxDurationMs).
  const room = source.map((c, i) => {
    const next = source[i + 1];
    const limit = Math.min(c.startMs + r.maxDurationMs, next ? next.startMs - r.minGapMs : Infinity);
    return Math.max(c.endMs, limit) - c.startMs;
  });
  const fitsLines = (w: string[]) => !w.length || !!breakLines(w, r.maxLineChars, r.maxLines);
  const fitsSpeed = (w: string[], i: number) => readingChars(w.join(' ')) * 1000 <= r.maxCharsPerSecond * room[i]!;
  const ok = (w: string[], i: number) => fitsLines(w) && fitsSpeed(w, i);
  let moved = 0;
  // Rebalance: an overfull cue hands its last word forward or its first word back while the neighbour stays within
  // the rules; bounded passes (each move strictly reduces overflow, so this ends quickly in practice).
  for (let pass = 0; pass < 50; pass++) {
    let changed = false;
    for (let i = 0; i < perCue.length; i++) {
      const w = perCue[i]!;
      while (w.length > 1 && !ok(w, i)) {
        const next = perCue[i + 1], prev = perCue[i - 1];
        if (next && ok([w[w.length - 1]!, ...next], i + 1)) { next.unshift(w.pop()!); }
        else if (prev && ok([...prev, w[0]!], i - 1)) { prev.push(w.shift()!); }
        else break;
        moved++; changed = true;
      }
    }
    if (!changed) break;
  }
  const cues: Cue[] = [];
  let over = 0;
  perCue.forEach((w, i) => {
    if (!w.length) return;
    const c = source[i]!;
    const pieces = fitsLines(w) ? [w] : cutToLines(w, r);
    const span = Math.max(c.endMs, c.startMs + Math.min(room[i]!, Math.max(r.minDurationMs, Math.ceil((readingChars(w.join(' ')) * 1000) / r.maxCharsPerSecond)))) - c.startMs;
    const each = pieces.length > 1 ? (span - (pieces.length - 1) * r.minGapMs) / pieces.length : span;
    pieces.forEach((p, k) => {
      const text = breakLines(p, r.maxLineChars, r.maxLines)!.join('\n');
      const start = Math.round(c.startMs + k * (each + r.minGapMs));
      const end = Math.max(start + 1, Math.round(start + each));
      if (readingChars(text) * 1000 > r.maxCharsPerSecond * (end - start) + 1e-6) over++;
      cues.push({ startMs: start, endMs: end, text });
    });
  });
  return { cues, overReadingSpeed: over, moved };
}

/** Cuts words into consecutive pieces that each fit the cue's lines (a word longer than a line is cut too). */
function cutToLines(words: string[], r: CueRules): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  for (const w0 of words) {
    const parts: string[] = [];
    let w = w0;
    while (visibleLength(w) > r.maxLineChars) { const cps = [...w]; parts.push(cps.slice(0, r.maxLineChars).join('')); w = cps.slice(r.maxLineChars).join(''); }
    parts.push(w);
    for (const p of parts) {
      if (cur.length && !breakLines([...cur, p], r.maxLineChars, r.maxLines)) { out.push(cur); cur = []; }
      cur.push(p);
    }
  }
  if (cur.length) out.push(cur);
  return out;
}
