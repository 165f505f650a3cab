import { cleanCueText, readingChars, visibleLength, type Cue } from './cue-text';
import { breakLines } from './line-break';

/** A recognised word with its time (ms). */
export interface TimedWord { startMs: number; endMs: number; text: string }

/** Cue rules (defaults: Netflix/Pixelogic for Hebrew; see ANCHORS "Subtitles and speech"). */
export interface CueRules {
  maxLineChars: number;
  maxLines: number;
  minDurationMs: number;
  maxDurationMs: number;
  /** Reading speed limit (visible characters per second, spaces included): 17 adults, 13 children. */
  maxCharsPerSecond: number;
  /** Smallest gap between cues (2 frames: 80 ms at 25 fps). */
  minGapMs: number;
  /** A pause at least this long always ends a cue (default 1 s: a new thought, and the reader gets a blank screen). */
  pauseBreakMs: number;
}

/** The default rules. */
export const DEFAULT_CUE_RULES: Readonly<CueRules> = Object.freeze({
  maxLineChars: 42, maxLines: 2, minDurationMs: 1000, maxDurationMs: 7000, maxCharsPerSecond: 17, minGapMs: 80, pauseBreakMs: 1000,
});

/** The gap of `frames` frames at `fps` in whole ms, rounded up. */
export const framesMs = (frames: number, fps: number) => Math.ceil((frames * 1000) / fps);

/** Times beyond this (about 11.5 days) are taken as this: arithmetic on larger numbers loses the millisecond. */
const MAX_MS = 1e9;
const clampMs = (v: number, fallback: number) => Math.min(MAX_MS, Math.max(0, Math.round(Number.isFinite(v) ? v : fallback)));

/** Words in start order, cleaned, split at inner blanks, longer-than-a-line words cut into line-sized pieces. */
export function prepareWords(words: TimedWord[], maxLineChars: number): TimedWord[] {
  const out: TimedWord[] = [];
  // In start order first (stable), so the pieces of a long word stay together and later words follow them.
  const ordered = words.map((w, i) => ({ w, i, s: clampMs(w.startMs, 0) })).sort((a, b) => a.s - b.s || a.i - b.i).map((x) => x.w);
  for (const w of ordered) {
    const text = cleanCueText(w.text).replace(/\n/g, ' ');
    const s = clampMs(w.startMs, 0);
    const e = Math.max(s, clampMs(w.endMs, s));
    const pieces: string[] = [];
    for (const part of text.split(' ').filter(Boolean)) {
      let cur = '';
      for (const ch of part.match(/\P{M}\p{M}*|\p{M}+/gu) ?? []) {
        if (visibleLength(cur + ch) > maxLineChars) { pieces.push(cur); cur = ''; }
        cur += ch;
      }
      if (cur) pieces.push(cur);
    }
    const total = pieces.reduce((n, p) => n + Math.max(1, visibleLength(p)), 0);
    let at = 0;
    for (const p of pieces) {
      const ps = s + Math.round(((e - s) * at) / total);
      at += Math.max(1, visibleLength(p));
      out.push({ startMs: ps, endMs: s + Math.round(((e - s) * at) / total), text: p });
    }
  }
  return out;
}

const SENTENCE_END = /[.!?…]["'”’)]*$/;
const PHRASE_END = /[,;:–—]["'”’)]*$/;

/**
 * Builds cues from word timings (never from an engine's segments): each cue at most `maxLines` lines of
 * `maxLineChars`, shown from its first word for `minDurationMs`-`maxDurationMs` and long enough for `maxCharsPerSecond`
 * where the next cue leaves room (otherwise until `minGapMs` before the next), `minGapMs` apart. Cues end at pauses
 * and sentence ends and, when full, at the last punctuation in their second half. Every word appears once, in order.
 */
export function buildCues(input: TimedWord[], rules: Partial<CueRules> = {}): Cue[] {
  const r: CueRules = { ...DEFAULT_CUE_RULES, ...rules };
  const words = prepareWords(input, r.maxLineChars);
  const n = words.length;
  const fits = (from: number, to: number) => breakLines(words.slice(from, to).map((w) => w.text), r.maxLineChars, r.maxLines);
  const groups: [number, number][] = [];
  for (let i = 0; i < n;) {
    let j = i + 1;
    let full = false;
    for (; j < n; j++) {
      const prev = words[j - 1]!, w = words[j]!;
      if (w.startMs - prev.endMs >= r.pauseBreakMs) break;
      if (SENTENCE_END.test(prev.text) && (w.startMs - prev.endMs >= 250 || visibleLength(words.slice(i, j).map((x) => x.text).join(' ')) >= 16)) break;
      // Reading speed is not a reason to stop: a longer cue reads no faster (its time grows with its words), and it
      // is met by showing the cue until the next one (below).
      if (!fits(i, j + 1) || w.endMs - words[i]!.startMs > r.maxDurationMs) { full = true; break; }
    }
    if (full && j - i > 2) {
      // A full cue ends at its last punctuation in the second half, if any, rather than wherever the line ran out.
      for (let k = j - 1; k > i + Math.floor((j - i) / 2); k--) {
        if (PHRASE_END.test(words[k - 1]!.text) || SENTENCE_END.test(words[k - 1]!.text)) { j = k; break; }
      }
    }
    groups.push([i, j]);
    i = j;
  }
  const cues: Cue[] = [];
  let prevEnd = -Infinity;
  for (let g = 0; g < groups.length; g++) {
    const [from, to] = groups[g]!;
    const text = fits(from, to)!.join('\n');
    const start = Math.max(words[from]!.startMs, prevEnd + r.minGapMs);
    const nextStart = g + 1 < groups.length ? words[groups[g + 1]![0]]!.startMs : Infinity;
    const wanted = Math.max(words[to - 1]!.endMs, start + r.minDurationMs, start + Math.ceil((readingChars(text) * 1000) / r.maxCharsPerSecond));
    const limit = Math.min(start + r.maxDurationMs, nextStart - r.minGapMs);
    const end = Math.max(start + 1, Math.min(wanted, limit));
    cues.push({ startMs: start, endMs: end, text });
    prevEnd = end;
  }
  return cues;
}
