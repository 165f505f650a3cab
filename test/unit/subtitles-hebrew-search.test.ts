import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { indexTerms, matchScore, prefixVariants, searchForm, searchTokens } from '../../src/text/hebrew-search';

// Issue 43, search inside what was said: niqqud removed, final letters folded, prefixes ו ה ב כ ל מ ש as
// alternatives, geresh/gershayim ignored, exact words ranked first.

describe('Hebrew search normaliser', () => {
  test('niqqud and cantillation removed, finals folded, geresh/gershayim and quotes inside words ignored, maqaf splits', () => {
    expect(searchForm('שָׁלוֹם')).toBe('שלומ');
    expect(searchForm('בְּרֵאשִׁ֖ית')).toBe('בראשית');
    expect(searchTokens('צה"ל וצה״ל')).toEqual(['צהל', 'וצהל']);
    expect(searchTokens("ג'ירפה ג׳ירפה")).toEqual(['גירפה', 'גירפה']);
    expect(searchTokens('בית־ספר, Café!')).toEqual(['בית', 'ספר', 'cafe']);
    expect(searchForm('ארץ')).toBe(searchForm('ארצ'));
  });

  test('prefix letters stripped as alternatives, 1-3 of them, leaving at least 2 letters', () => {
    expect(prefixVariants('ובירושלים')).toEqual(['ובירושלים', 'בירושלים', 'ירושלים']);
    expect(prefixVariants('ומהבית')).toEqual(['ומהבית', 'מהבית', 'הבית', 'בית']);
    expect(prefixVariants('של')).toEqual(['של']);
    expect(prefixVariants('תל')).toEqual(['תל']);
    expect(indexTerms('וּבִירוּשָׁלַיִם')).toContain('ירושלימ');
  });

  test('matching and ranking: exact words score above prefix matches; every query word must be found', () => {
    const line = 'רֹאשׁ הַמֶּמְשָׁלָה נִפְגַּשׁ הַיּוֹם בִּירוּשָׁלַיִם';
    expect(matchScore('ירושלים', line)).toBe(1); // found through the stripped ב
    expect(matchScore('בירושלים', line)).toBe(2); // exact
    expect(matchScore('ובירושלים', line)).toBe(1); // the query's own prefix stripped
    expect(matchScore('ממשלה ירושלים', line)).toBe(2);
    expect(matchScore('תל אביב', line)).toBe(0);
    expect(matchScore('ראש הממשלה', line)).toBeGreaterThan(matchScore('ראש ממשלה', line));
  });

  test('any text with niqqud and final letters matches its plain spelling (fast-check)', () => {
    const heb = fc.constantFrom(...'אבגדהוזחטיכלמנסעפצקרשת');
    const point = fc.constantFrom('', '', '\u05b0', '\u05b4', '\u05b7', '\u05b8', '\u05bc', '\u05c1', '\u0591');
    fc.assert(fc.property(fc.array(fc.tuple(heb, point), { minLength: 2, maxLength: 10 }), (letters) => {
      const plain = letters.map(([l]) => l).join('');
      const FIN: Record<string, string> = { 'כ': 'ך', 'מ': 'ם', 'נ': 'ן', 'פ': 'ף', 'צ': 'ץ' };
      const written = letters.map(([l, p], i) => (i === letters.length - 1 ? (FIN[l] ?? l) : l) + p).join('');
      expect(searchForm(written)).toBe(searchForm(plain));
      expect(matchScore(plain, `חדשות ${written} היום`)).toBe(2);
    }), { numRuns: 300 });
  });
});
