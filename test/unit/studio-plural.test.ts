/** Plural forms in studio strings (Intl.PluralRules): English one/other, Hebrew one/two/other, through the translator. */
import { describe, expect, test } from 'bun:test';
import { expandPlurals } from '../../assets-ui/studio/plural';
import { translator } from '../../assets-ui/studio/i18n';

describe('plural forms', () => {
  test('the form follows the number in each language', () => {
    const he = '{n, plural, one {שינוי אחד ממתין} two {שני שינויים ממתינים} other {# שינויים ממתינים}} לבדיקה.';
    expect([1, 2, 3, 0].map((n) => expandPlurals(he, 'he', { n }))).toEqual(['שינוי אחד ממתין לבדיקה.', 'שני שינויים ממתינים לבדיקה.', '3 שינויים ממתינים לבדיקה.', '0 שינויים ממתינים לבדיקה.']);
    const en = '{n, plural, one {# change} other {# changes}}';
    expect([1, 2, 0].map((n) => expandPlurals(en, 'en', { n }))).toEqual(['1 change', '2 changes', '0 changes']);
    // =N wins over the category; several blocks; a missing number leaves the text alone.
    expect(expandPlurals('{a, plural, =0 {none} other {# new}}, {b, plural, one {# gone} other {# gone}}', 'en', { a: 0, b: 1 })).toBe('none, 1 gone');
    expect(expandPlurals('{n, plural, one {x} other {y}}', 'en', {})).toBe('{n, plural, one {x} other {y}}');
  });

  test('the studio translator applies them (no "1 שינויים", no "1 staged changes")', () => {
    expect(translator('he')('draft_waiting', { n: 1 })).toBe('שינוי אחד ממתין לבדיקה.');
    expect(translator('he')('draft_waiting', { n: 2 })).toBe('שני שינויים ממתינים לבדיקה.');
    expect(translator('he')('draft_waiting', { n: 7 })).toBe('7 שינויים ממתינים לבדיקה.');
    expect(translator('en')('draft_waiting', { n: 1 })).toBe('1 staged change waits for review.');
    expect(translator('en')('draft_waiting', { n: 4 })).toBe('4 staged changes wait for review.');
    expect(translator('he')('g_published', { v: 3, n: 1 })).toBe('פורסם כגרסה 3 (שינוי אחד).');
    expect(translator('en')('g_locked', { n: 1 })).toBe('The next hour is locked');
    expect(translator('he')('g_copied', { days: 2, n: 5 })).toBe('הועתק אל יומיים, תוכניות בכל יום: 5.');
  });
});
