import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { findWords, glossaryPrompt, glossaryRules, replaceSubstring, replaceWords } from '../../src/text/glossary';

// Issue 43: glossary corrections and the editor's find and replace are whole-word and Hebrew-aware: niqqud, final
// letters and geresh/gershayim do not matter, prefix letters ו ה ב כ ל מ ש before the word stay, a phrase matches across
// a blank, maqaf or hyphen on one line, and nothing inside a longer word ever changes.

const fix = (text: string, terms: { term: string; variants: string[] }[]) => replaceWords(text, glossaryRules(terms));

describe('whole-word matching', () => {
  test('prefix letters are kept, the word after them is matched', () => {
    const t = 'ובירושלים ירדו גשמים';
    expect(findWords(t, 'ירושלים')).toEqual([{ start: 2, end: 9 }]);
    expect(fix(t, [{ term: 'ירושלים', variants: ['ירושלם'] }]).count).toBe(0);
    expect(fix('נאם היום בתל אביב ומתל אביב', [{ term: 'תל־אביב', variants: ['תל אביב'] }])).toMatchObject({ text: 'נאם היום בתל־אביב ומתל־אביב', count: 2 });
  });

  test('niqqud, final letters and gershayim are ignored when matching; niqqud of kept prefix letters stays', () => {
    expect(findWords('יְרוּשָׁלַיִם', 'ירושלים')).toHaveLength(1);
    expect(findWords('דיווח של צה״ל היום', 'צה"ל')).toHaveLength(1);
    expect(findWords('צהל', "צה'ל")).toHaveLength(1);
    expect(fix('וּבִירוּשָׁלַיִם', [{ term: 'ירושלים', variants: [] }]).text).toBe('וּבִירושלים');
  });

  test('never inside a longer word; a phrase only across a blank, maqaf or hyphen on one line', () => {
    expect(findWords('שלומית הלכה', 'שלום')).toEqual([]);
    expect(findWords('the category', 'cat')).toEqual([]);
    expect(findWords('ראש־הממשלה', 'ראש הממשלה')).toHaveLength(1);
    expect(findWords('ראש-הממשלה', 'ראש הממשלה')).toHaveLength(1);
    expect(findWords('ראש\nהממשלה', 'ראש הממשלה')).toEqual([]);
    expect(findWords('ראש, הממשלה', 'ראש הממשלה')).toEqual([]);
  });

  test('letter case: a term is written as the glossary says; match_case keeps other cases', () => {
    expect(fix('watching kan 11 and KAN 11', [{ term: 'Kan 11', variants: ['can eleven'] }])).toMatchObject({ text: 'watching Kan 11 and Kan 11', count: 2 });
    expect(fix('on Kan 11 tonight', [{ term: 'Kan 11', variants: [] }]).count).toBe(0);
    expect(replaceWords('Apple apple', [{ find: 'apple', replace: 'pear', matchCase: true }]).text).toBe('Apple pear');
  });

  test('overlapping rules: the longer occurrence wins; counts per rule tag', () => {
    const r = fix('נתן יהו ונתן', [{ term: 'נתניהו', variants: ['נתן יהו'] }, { term: 'נתן', variants: [] }]);
    expect(r.text).toBe('נתניהו ונתן');
    expect([r.count, [...r.byTag]]).toEqual([1, [[0, 1]]]);
  });

  test('plain substring replacement for find and replace without whole words', () => {
    expect(replaceSubstring('ביתן ובית', 'בית', 'X')).toEqual({ text: 'Xן וX', count: 2 });
    expect(replaceSubstring('a.b a+b', 'a+b', 'c')).toEqual({ text: 'a.b c', count: 1 });
  });

  test('the engine prompt: whole terms, comma separated, bounded', () => {
    expect(glossaryPrompt(['נתניהו', 'תל־אביב'])).toBe('נתניהו, תל־אביב');
    expect(glossaryPrompt(['א'.repeat(500), 'ב'.repeat(500)], 800)).toBe('א'.repeat(500));
  });

  test('property: replacing a word with itself changes nothing; a word that is absent is never found', () => {
    const word = fc.constantFrom('שלום', 'ירושלים', 'news', 'צה"ל', 'ראש', 'הממשלה', 'ובית', 'בית', '2026');
    const sep = fc.constantFrom(' ', ', ', '\n', '־', ' - ', '. ');
    const text = fc.array(fc.tuple(word, sep), { maxLength: 12 }).map((xs) => xs.map(([w, s]) => w + s).join(''));
    fc.assert(fc.property(text, word, (t, w) => {
      const r = replaceWords(t, [{ find: w, replace: w }]);
      expect(r.text).toBe(t);
      expect(r.count).toBe(0);
      expect(findWords(t, 'מילהשאיננה')).toEqual([]);
      // Every occurrence found is the word itself (after any prefix letters) and stands alone.
      for (const m of findWords(t, w)) {
        const before = t[m.start - 1] ?? ' ', after = t[m.end] ?? ' ';
        expect(/[\p{L}\p{N}]/u.test(after)).toBe(false);
        expect(/[\p{L}\p{N}]/u.test(before) ? 'ובהכלמש'.includes(before) : true).toBe(true);
      }
    }), { numRuns: 300 });
  });
});
