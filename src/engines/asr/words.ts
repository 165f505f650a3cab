import type { AsrSegment, AsrWord } from './types';

/** Character weight of a word for spreading time: letters and digits, not combining marks (niqqud). */
function weight(text: string): number {
  return Math.max(1, text.replace(/\p{M}/gu, '').length);
}

/**
 * Words for a segment the engine gave no word timings for: its text split at whitespace, the segment's time spread
 * over them by character count. Marked `wordsEstimated` on the segment by the caller.
 */
export function estimateWords(startMs: number, endMs: number, text: string): AsrWord[] {
  const parts = text.split(/\s+/).filter(Boolean);
  const total = parts.reduce((n, p) => n + weight(p), 0);
  const span = Math.max(0, endMs - startMs);
  const out: AsrWord[] = [];
  let at = 0;
  for (const p of parts) {
    const s = startMs + Math.round((span * at) / total);
    at += weight(p);
    out.push({ startMs: s, endMs: startMs + Math.round((span * at) / total), text: p });
  }
  return out;
}

/**
 * Puts a segment list in order and in shape: words trimmed and non-empty, times whole milliseconds with end >= start,
 * segment times covering their words, segments sorted by start; empty segments dropped.
 */
export function tidySegments(segments: AsrSegment[]): AsrSegment[] {
  const out: AsrSegment[] = [];
  for (const s of segments) {
    const words = s.words
      .map((w) => ({ startMs: Math.max(0, Math.round(w.startMs)), endMs: Math.max(0, Math.round(w.endMs)), text: w.text.trim() }))
      .filter((w) => w.text)
      .map((w) => ({ ...w, endMs: Math.max(w.startMs, w.endMs) }));
    const text = s.text.trim().replace(/\s+/g, ' ');
    if (!words.length && !text) continue;
    const startMs = Math.max(0, Math.round(Math.min(s.startMs, ...words.map((w) => w.startMs))));
    const endMs = Math.max(startMs, Math.round(Math.max(s.endMs, ...words.map((w) => w.endMs))));
    if (!words.length) out.push({ startMs, endMs, text, words: estimateWords(startMs, endMs, text), wordsEstimated: true });
    else out.push({ startMs, endMs, text: text || words.map((w) => w.text).join(' '), words, ...(s.wordsEstimated ? { wordsEstimated: true } : {}) });
  }
  return out.sort((a, b) => a.startMs - b.startMs);
}
