import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { cleanCueText, type Cue } from '../../src/text/cue-text';
import { DEFAULT_CUE_RULES, buildCues, framesMs, type CueRules, type TimedWord } from '../../src/text/cue-builder';
import { breakLines } from '../../src/text/line-break';

// Issue 43: cues are built by us from word timings: <= 2 lines x 42 characters, 1-7 s, <= 17 characters/s where
// the next cue leaves room, >= 2 frames apart, breaks at punctuation and phrase boundaries.

/** Visible characters, counted here independently of the module: code points less marks and format characters. */
const vis = (s: string) => [...s.replace(/[\p{M}\p{Cf}]/gu, '')].length;
const R: CueRules = { ...DEFAULT_CUE_RULES };

/** Rules that hold for any input whatsoever. */
function checkHardRules(cues: Cue[], words: TimedWord[], r: CueRules) {
  const key = (w: TimedWord) => Math.max(0, Math.round(Number.isFinite(w.startMs) ? w.startMs : 0));
  const minStart = Math.min(...words.map(key));
  for (let k = 0; k < cues.length; k++) {
    const c = cues[k]!;
    const lines = c.text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(r.maxLines);
    for (const l of lines) {
      expect(vis(l)).toBeLessThanOrEqual(r.maxLineChars);
      expect(l).toBe(l.trim());
      expect(l.length).toBeGreaterThan(0);
    }
    expect(c.endMs).toBeGreaterThan(c.startMs);
    expect(c.endMs - c.startMs).toBeLessThanOrEqual(r.maxDurationMs);
    expect(c.startMs).toBeGreaterThanOrEqual(minStart);
    if (k > 0) expect(c.startMs - cues[k - 1]!.endMs).toBeGreaterThanOrEqual(r.minGapMs);
  }
  // Nothing lost, nothing added, order kept (as the words sort by start).
  const sorted = words.map((w, i) => ({ w, i })).sort((a, b) => key(a.w) - key(b.w) || a.i - b.i);
  const squash = (s: string) => s.replace(/\s+/g, '');
  expect(squash(cues.map((c) => c.text).join(''))).toBe(squash(sorted.map((x) => cleanCueText(x.w.text)).join('')));
}

const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzאבגדהוזחטיכלמנסעפצקרשתךםןףץ');
const plainWord = fc.tuple(fc.array(letters, { minLength: 1, maxLength: 12 }), fc.constantFrom('', '', '', '', ',', '.', '?', '!'))
  .map(([l, p]) => l.join('') + p);

/** Speech-like streams: words 150-900 ms long, 50-800 ms apart (starts at least 200 ms apart), sometimes long pauses. */
const natural = fc.array(fc.tuple(plainWord, fc.integer({ min: 150, max: 900 }), fc.integer({ min: 50, max: 800 }), fc.boolean()), { minLength: 1, maxLength: 120 })
  .map((xs) => {
    let t = 0;
    return xs.map(([text, dur, gap, pause]) => {
      const w = { startMs: t, endMs: t + dur, text };
      t += dur + gap + (pause && gap > 700 ? 2000 : 0);
      return w;
    });
  });

/** Anything: overlapping, unsorted, zero-length, same-instant words, words longer than a line, markup, bidi, controls. */
const hostile = fc.array(fc.record({
  startMs: fc.oneof(fc.integer({ min: 0, max: 60_000 }), fc.constant(1000), fc.double({ min: -1e6, max: 1e9, noNaN: false })),
  endMs: fc.oneof(fc.integer({ min: -10, max: 70_000 }), fc.constant(1000)),
  text: fc.oneof(plainWord, fc.string({ unit: 'binary', maxLength: 60 }), fc.constantFrom('<script>alert(1)</script>', 'a\u202eb', 'x'.repeat(130), 'שָׁלוֹם...', '  ', '\u0000')),
}), { maxLength: 80 });

describe('cue builder (fast-check)', () => {
  test('speech-like streams: every rule holds, reading speed and minimum duration where the next cue leaves room', () => {
    fc.assert(fc.property(natural, fc.constantFrom(17, 13), fc.constantFrom(25, 30, 50), (words, cps, fps) => {
      const r = { ...R, maxCharsPerSecond: cps, minGapMs: framesMs(2, fps) };
      const cues = buildCues(words, r);
      checkHardRules(cues, words, r);
      const starts = new Set(words.map((w) => w.startMs));
      for (let k = 0; k < cues.length; k++) {
        const c = cues[k]!, next = cues[k + 1];
        const dur = c.endMs - c.startMs;
        expect(starts.has(c.startMs)).toBe(true); // shown from its first word, never early nor late
        // Shown long enough to read, or as long as the next cue (or the 7 s limit) allows.
        const atLimit = (next !== undefined && c.endMs === next.startMs - r.minGapMs) || dur === r.maxDurationMs;
        const speed = (vis(c.text.replace(/\n/g, ' ')) * 1000) / dur;
        expect(speed <= cps || atLimit).toBe(true);
        expect(dur >= r.minDurationMs || atLimit).toBe(true);
      }
    }), { numRuns: 300 });
  });

  test('hostile streams: lines, durations, gaps and text still hold', () => {
    fc.assert(fc.property(hostile, (words) => {
      const cues = buildCues(words);
      if (words.every((w) => !cleanCueText(w.text))) expect(cues).toEqual([]);
      else checkHardRules(cues, words, R);
    }), { numRuns: 300 });
  });

  test('a full cue ends at a phrase boundary, and lines break after punctuation', () => {
    // About 2.5 words a second (150 words a minute): every cue also meets 17 characters a second.
    const text = 'the minister said today after a long meeting in the capital city, that talks with the opposition leaders would go on next week';
    const words = text.split(' ').map((t, i) => ({ startMs: i * 400, endMs: i * 400 + 330, text: t }));
    const cues = buildCues(words);
    expect(cues.map((c) => c.text)).toEqual(['the minister said today after\na long meeting in the capital city,', 'that talks with the opposition\nleaders would go on next week']);
    for (const c of cues) expect((vis(c.text) * 1000) / (c.endMs - c.startMs)).toBeLessThanOrEqual(17);
    expect(breakLines('the minister said today, after a long meeting in the capital'.split(' '), 42, 2))
      .toEqual(['the minister said today,', 'after a long meeting in the capital']);
    expect(breakLines('שלום וברוכים הבאים, מהדורת החדשות של הערב מתחילה'.split(' '), 42, 2))
      .toEqual(['שלום וברוכים הבאים,', 'מהדורת החדשות של הערב מתחילה']);
    expect(breakLines(['x'.repeat(43)], 42, 2)).toBeNull();
  });

  test('a sentence end followed by a pause ends the cue; a 7 s monologue without pauses is split', () => {
    const w = (t: string, s: number) => ({ startMs: s, endMs: s + 300, text: t });
    expect(buildCues([w('Hello.', 0), w('Good', 1000), w('evening', 1400)]).map((c) => c.text)).toEqual(['Hello.', 'Good evening']);
    const long = Array.from({ length: 40 }, (_, i) => w('word', i * 320));
    const cues = buildCues(long);
    expect(cues.length).toBeGreaterThan(1);
    for (const c of cues) expect(c.endMs - c.startMs).toBeLessThanOrEqual(7000);
  });
});
