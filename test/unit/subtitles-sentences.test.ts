import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { buildCues, DEFAULT_CUE_RULES, type TimedWord } from '../../src/text/cue-builder';
import type { Cue } from '../../src/text/cue-text';
import { mergeSentences, splitSentences } from '../../src/text/sentences';

// Issue 43, translations: cues merged into whole sentences across cue boundaries, translated sentences laid back onto
// the source times under the cue rules (2 x 42, reading speed where the time allows), never losing a word.

const vis = (s: string) => [...s.replace(/[\p{M}\p{Cf}]/gu, '')].length;
const words = (cues: Cue[]) => cues.flatMap((c) => c.text.split(/\s+/).filter(Boolean));

const HE: Cue[] = [
  { startMs: 0, endMs: 2500, text: 'ראש הממשלה נפגש היום' },
  { startMs: 2600, endMs: 5000, text: 'עם נשיא המדינה בירושלים.' },
  { startMs: 5200, endMs: 8000, text: 'הם דנו במצב. אחר כך' },
  { startMs: 8100, endMs: 10000, text: 'יצאו למסיבת עיתונאים.' },
];

describe('mergeSentences', () => {
  test('joins a sentence across cues and splits a cue holding two sentences', () => {
    const s = mergeSentences(HE);
    expect(s.map((x) => x.text)).toEqual(['ראש הממשלה נפגש היום עם נשיא המדינה בירושלים.', 'הם דנו במצב.', 'אחר כך יצאו למסיבת עיתונאים.']);
    expect(s.map((x) => x.parts.map((p) => p.cue))).toEqual([[0, 1], [2], [2, 3]]);
  });

  test('text without punctuation is closed at long pauses and never grows past a bound', () => {
    const cues: Cue[] = Array.from({ length: 30 }, (_, i) => ({ startMs: i * 3000, endMs: i * 3000 + 2800, text: 'he was not an ill disposed young man' }));
    cues.push({ startMs: 200_000, endMs: 202_000, text: 'after a pause' });
    const s = mergeSentences(cues);
    expect(s.length).toBeGreaterThan(3);
    for (const x of s) expect(vis(x.text)).toBeLessThanOrEqual(240 + 40);
    expect(s[s.length - 1]!.text).toBe('after a pause');
  });

  test('a dialogue line starts a new sentence', () => {
    const s = mergeSentences([{ startMs: 0, endMs: 2000, text: '-מה שלומך\n-טוב' }]);
    expect(s.map((x) => x.text)).toEqual(['-מה שלומך', '-טוב']);
  });
});

describe('splitSentences', () => {
  test('a longer translation is laid on the source times within the rules, words moved to a neighbour', () => {
    const s = mergeSentences(HE);
    const en = [
      'The prime minister met today with the president of the state in Jerusalem, at his official residence.',
      'They discussed the situation.',
      'Afterwards they went out to a press conference.',
    ];
    const out = splitSentences(HE, s, en);
    expect(words(out.cues)).toEqual(en.join(' ').split(' '));
    for (const c of out.cues) {
      for (const l of c.text.split('\n')) expect(vis(l)).toBeLessThanOrEqual(42);
      expect(c.text.split('\n').length).toBeLessThanOrEqual(2);
    }
    for (let i = 1; i < out.cues.length; i++) expect(out.cues[i]!.startMs - out.cues[i - 1]!.endMs).toBeGreaterThanOrEqual(80);
    // The first cue starts where the source starts; the last one never before the last source cue.
    expect(out.cues[0]!.startMs).toBe(0);
    expect(out.cues[out.cues.length - 1]!.startMs).toBeGreaterThanOrEqual(5200);
  });

  test('a wrong count of translated sentences is refused', () => {
    expect(() => splitSentences(HE, mergeSentences(HE), ['one'])).toThrow(/expected 3 translated sentences, got 1/);
  });

  test('property: for random cue streams and random translations, no word is lost or reordered and the hard rules hold', () => {
    const word = fc.stringMatching(/^[a-zא-ת]{1,14}[.,?]?$/);
    fc.assert(fc.property(
      fc.array(fc.record({ gap: fc.integer({ min: 0, max: 2500 }), dur: fc.integer({ min: 80, max: 900 }), text: word }), { minLength: 1, maxLength: 80 }),
      fc.integer({ min: 1, max: 40 }).map((x) => x / 10),
      fc.array(word, { minLength: 1, maxLength: 400 }),
      (stream, factor, pool) => {
        let t = 0;
        const tw: TimedWord[] = stream.map((w) => { const s = t + w.gap; t = s + w.dur; return { startMs: s, endMs: t, text: w.text }; });
        const src = buildCues(tw);
        const sents = mergeSentences(src);
        // A "translation" of each sentence: its word count times factor, words from the pool.
        let k = 0;
        const tr = sents.map((s) => Array.from({ length: Math.max(1, Math.round(s.text.split(' ').length * factor)) }, () => pool[k++ % pool.length]!).join(' '));
        const out = splitSentences(src, sents, tr);
        expect(words(out.cues)).toEqual(tr.join(' ').split(' '));
        for (let i = 0; i < out.cues.length; i++) {
          const c = out.cues[i]!;
          expect(c.text.split('\n').length).toBeLessThanOrEqual(DEFAULT_CUE_RULES.maxLines);
          for (const l of c.text.split('\n')) expect(vis(l)).toBeLessThanOrEqual(DEFAULT_CUE_RULES.maxLineChars);
          expect(c.endMs).toBeGreaterThan(c.startMs);
          if (i) expect(c.startMs - out.cues[i - 1]!.endMs).toBeGreaterThanOrEqual(DEFAULT_CUE_RULES.minGapMs - 1);
        }
      },
    ), { numRuns: 150 });
  });

  test('hostile engine output is neutralised: markup, bidi overrides and controls never reach the stored cues', () => {
    const src: Cue[] = [{ startMs: 0, endMs: 3000, text: 'The minister arrived.' }];
    const out = splitSentences(src, mergeSentences(src), ['<script>alert(1)</script>השר \u202eהגיע\u0000 <b>היום</b>.']);
    expect(out.cues.map((c) => c.text)).toEqual(['alert(1)השר הגיע היום.']);
  });

  test('Hebrew stays in logical order: no bidi marks are added to stored text', () => {
    const src: Cue[] = [{ startMs: 0, endMs: 3000, text: 'The minister arrived.' }];
    const out = splitSentences(src, mergeSentences(src), ['\u200fהשר הגיע.']);
    expect(out.cues.map((c) => c.text)).toEqual(['השר הגיע.']);
  });
});
