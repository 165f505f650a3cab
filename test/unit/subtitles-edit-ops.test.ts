import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { AppError } from '../../src/kernel/errors';
import {
  EDIT_RULES, applyChange, deleteCue, editCue, editText, insertCue, mergeCues, rewriteCues, shiftCues, splitCue, undoChange, type Change, type ECue,
} from '../../src/features/subtitles/cues-ops';
import { replaceWords } from '../../src/text/glossary';

// Issue 43: edits with revisions never lose text. Random tracks, random sequences of edits (refusals allowed: they
// change nothing), then every revision undone newest first gives back the original track, cue for cue; split and
// merge keep every character, shift every text; no accepted edit leaves a touched cue breaking the line or duration rules.

const WORDS = ['שלום', 'ירושלים', 'וּבַבַּיִת', 'החדשות', 'news', 'the', 'minister', 'ראש', 'הממשלה', 'צה"ל', '2026', 'תל־אביב', 'מה?', 'כן.'];

/** A track that keeps the rules: cues 1-6.5 s long, 100-1500 ms apart, 1-6 words. */
const track = fc.array(fc.tuple(fc.integer({ min: 100, max: 1500 }), fc.integer({ min: 1000, max: 6500 }), fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 })), { minLength: 1, maxLength: 12 })
  .map((xs) => {
    let t = 0;
    return xs.map(([gap, dur, words], i): ECue => {
      const start = t + gap;
      t = start + dur;
      return { id: i + 1, startMs: start, endMs: t, text: editText(words.join(' ')) };
    });
  });

type Op =
  | { k: 'edit'; i: number; text?: string[]; ds?: number; de?: number }
  | { k: 'insert'; at: number; dur: number; text: string[] }
  | { k: 'delete'; i: number } | { k: 'split'; i: number; frac: number; mid: boolean } | { k: 'merge'; i: number; prev: boolean }
  | { k: 'shift'; scope: 'all' | 'following' | 'range'; i: number; by: number; span: number }
  | { k: 'replace'; find: string; by: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant('edit' as const), i: fc.nat(), text: fc.option(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }), { nil: undefined }), ds: fc.option(fc.integer({ min: -800, max: 800 }), { nil: undefined }), de: fc.option(fc.integer({ min: -800, max: 800 }), { nil: undefined }) }),
  fc.record({ k: fc.constant('insert' as const), at: fc.integer({ min: 0, max: 40_000 }), dur: fc.integer({ min: 500, max: 8000 }), text: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }) }),
  fc.record({ k: fc.constant('delete' as const), i: fc.nat() }),
  fc.record({ k: fc.constant('split' as const), i: fc.nat(), frac: fc.double({ min: 0, max: 1, noNaN: true }), mid: fc.boolean() }),
  fc.record({ k: fc.constant('merge' as const), i: fc.nat(), prev: fc.boolean() }),
  fc.record({ k: fc.constant('shift' as const), scope: fc.constantFrom('all' as const, 'following' as const, 'range' as const), i: fc.nat(), by: fc.integer({ min: -3000, max: 3000 }), span: fc.integer({ min: 1, max: 20_000 }) }),
  fc.record({ k: fc.constant('replace' as const), find: fc.constantFrom(...WORDS), by: fc.constantFrom('X', 'ירושלים הבירה', 'שלום שלום', '') }),
);

/** Runs one random op on the cues; null when it is refused (an AppError) or changes nothing. */
function run(cues: ECue[], o: Op, newId: () => number): Change | null {
  const pick = (i: number) => cues[i % cues.length]!;
  try {
    switch (o.k) {
      case 'edit': { if (!cues.length) return null; const c = pick(o.i); return editCue(cues, c.id, { text: o.text?.join(' '), startMs: o.ds === undefined ? undefined : Math.max(0, c.startMs + o.ds), endMs: o.de === undefined ? undefined : c.endMs + o.de }); }
      case 'insert': return insertCue(cues, { startMs: o.at, endMs: o.at + o.dur, text: o.text.join(' ') }, newId);
      case 'delete': return cues.length ? deleteCue(cues, pick(o.i).id) : null;
      case 'split': { if (!cues.length) return null; const c = pick(o.i); return splitCue(cues, c.id, { offset: Math.max(1, Math.floor(c.text.length * o.frac)), atMs: o.mid ? Math.round((c.startMs + c.endMs - 80) / 2) : undefined }, newId); }
      case 'merge': return cues.length ? mergeCues(cues, pick(o.i).id, o.prev ? 'previous' : 'next') : null;
      case 'shift': {
        if (!cues.length) return null;
        const c = pick(o.i);
        return shiftCues(cues, { byMs: o.by || 1, scope: o.scope, fromId: c.id, fromMs: c.startMs, toMs: c.startMs + o.span });
      }
      case 'replace': return rewriteCues(cues, 'replace', (t) => replaceWords(t, [{ find: o.find, replace: o.by }]));
    }
  } catch (e) {
    if (e instanceof AppError && [404, 409, 422].includes(e.status)) return null;
    throw e;
  }
}

const chars = (cues: ECue[]) => cues.map((c) => c.text).join('').replace(/\s+/g, '');
const texts = (cues: ECue[]) => cues.map((c) => c.text).sort();

describe('cue edits with revisions', () => {
  test('random edit sequences: undoing every revision newest first gives the original track back', () => {
    fc.assert(fc.property(track, fc.array(op, { minLength: 1, maxLength: 25 }), (original, ops) => {
      let cues = original;
      let next = original.length + 1;
      const newId = () => next++;
      const revisions: Change[] = [];
      for (const o of ops) {
        const ch = run(cues, o, newId);
        if (!ch) continue;
        const after = applyChange(cues, ch);
        // Split and merge keep every character in order (blanks aside); shift keeps every text; ids stay unique.
        if (ch.op === 'split' || ch.op === 'merge') expect(chars(after)).toBe(chars(cues));
        if (ch.op === 'shift') expect(texts(after)).toEqual(texts(cues));
        expect(new Set(after.map((c) => c.id)).size).toBe(after.length);
        // What an edit touched keeps the line rules.
        for (const c of ch.after) {
          const lines = c.text.split('\n');
          expect(lines.length).toBeLessThanOrEqual(EDIT_RULES.maxLines);
          expect(c.endMs).toBeGreaterThan(c.startMs);
          expect(c.startMs).toBeGreaterThanOrEqual(0);
        }
        revisions.push(ch);
        cues = after;
      }
      for (const r of [...revisions].reverse()) cues = applyChange(cues, undoChange(cues, r));
      expect(cues).toEqual(original);
    }), { numRuns: 300 });
  });

  test('undo refuses a revision whose cues changed later; redo (undoing the undo) is allowed', () => {
    const t: ECue[] = [{ id: 1, startMs: 1000, endMs: 3000, text: 'שלום לכם' }, { id: 2, startMs: 4000, endMs: 6000, text: 'ערב טוב' }];
    const e1 = editCue(t, 1, { text: 'שלום' })!;
    const t1 = applyChange(t, e1);
    const e2 = editCue(t1, 1, { endMs: 3500 })!;
    const t2 = applyChange(t1, e2);
    expect(() => undoChange(t2, e1)).toThrow('cue 1 changed after this revision');
    const u = undoChange(t2, e2);
    const t3 = applyChange(t2, u);
    expect(t3).toEqual(t1);
    expect(applyChange(t3, undoChange(t3, u))).toEqual(t2);
  });

  test('the rules of an edit: 409 next to a neighbour, 422 too long or too short, tight imported cues stay editable', () => {
    const t: ECue[] = [{ id: 1, startMs: 1000, endMs: 3000, text: 'א' }, { id: 2, startMs: 3020, endMs: 5000, text: 'ב' }];
    const status = (f: () => unknown) => { try { f(); return 0; } catch (e) { return (e as AppError).status; } };
    // 20 ms apart already (an imported file): editing the text of either is fine, moving them closer is not.
    expect(status(() => editCue(t, 2, { text: 'בית' }))).toBe(0);
    expect(status(() => editCue(t, 2, { startMs: 3010 }))).toBe(409);
    expect(status(() => editCue(t, 2, { startMs: 3100 }))).toBe(0);
    expect(status(() => editCue(t, 1, { endMs: 1500 }))).toBe(422);
    expect(status(() => editCue(t, 1, { startMs: 0, endMs: 2950 }))).toBe(0);
    expect(status(() => insertCue(t, { startMs: 6000, endMs: 14000, text: 'x' }, () => 3))).toBe(422);
    expect(status(() => insertCue(t, { startMs: 5050, endMs: 7000, text: 'x' }, () => 3))).toBe(409);
    expect(status(() => editCue(t, 1, { text: 'מילה '.repeat(20) }))).toBe(422);
    expect(editCue(t, 1, { text: 'שורה אחת ארוכה שעוברת את ארבעים ושניים התווים של שורה' })!.after[0]!.text.split('\n')).toHaveLength(2);
  });
});
