import { expect, test } from 'bun:test';
import { keyAction, type KeyLike } from '../../assets-ui/studio/pages/subtitles-keys';
import { besideText, cueAt, cps, glossaryHints, tc } from '../../assets-ui/studio/pages/subtitles-model';

// The cue editor's pure parts (issue 43): the keyboard map by physical key, timecodes, the cue at a time, reading
// speed, the side-by-side text and the glossary suggestions.
const k = (code: string, o: Partial<KeyLike> = {}): KeyLike => ({ code, key: '', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...o });

test('keys: by physical key outside text fields; only Alt ones inside a cue text', () => {
  expect(keyAction(k('Space'), false)).toBe('toggle');
  expect(keyAction(k('Space'), true)).toBeNull(); // typing a space in a cue
  expect(keyAction(k('ArrowLeft', { ctrlKey: true }), false)).toBe('back');
  expect(keyAction(k('ArrowLeft', { ctrlKey: true }), true)).toBeNull(); // word navigation in the text stays
  expect(keyAction(k('KeyS', { key: 'ד' }), false)).toBe('split'); // the S key on a Hebrew layout
  expect(keyAction(k('KeyS', { ctrlKey: true }), false)).toBeNull(); // Ctrl+S is not a split
  expect(keyAction(k('BracketLeft'), false)).toBe('set_start');
  expect(keyAction(k('BracketRight'), false)).toBe('set_end');
  expect(keyAction(k('ArrowDown', { altKey: true }), true)).toBe('next');
  expect(keyAction(k('KeyK', { altKey: true }), true)).toBe('toggle');
  expect(keyAction(k('KeyZ', { metaKey: true }), false)).toBe('undo');
  expect(keyAction(k('KeyZ', { ctrlKey: true }), true)).toBeNull(); // the field's own undo
});

test('timecodes, cue at a time, reading speed, side by side, glossary hints', () => {
  expect(tc(0)).toBe('00:00.000');
  expect(tc(61_234)).toBe('01:01.234');
  expect(tc(3_723_004)).toBe('1:02:03.004');
  const cues = [{ id: 1, start_ms: 0, end_ms: 1000, text: 'a' }, { id: 2, start_ms: 1500, end_ms: 3000, text: 'שָׁלוֹם\nעולם' }];
  expect(cueAt(cues, 999)?.id).toBe(1);
  expect(cueAt(cues, 1000)).toBeNull();
  expect(cueAt(cues, 2999)?.id).toBe(2);
  expect(cps(cues[1]!)).toBe(6); // 9 visible characters (niqqud not counted, the break read as a space) in 1.5 s
  expect(besideText(cues[1]!, [{ id: 9, start_ms: 900, end_ms: 1600, text: 'x' }, { id: 8, start_ms: 3000, end_ms: 4000, text: 'y' }])).toBe('x');
  const hints = glossaryHints(cues, [{ id: 'g', term: 'עולמי', variants: ['עולם', 'עולמי'], language: 'he' }]);
  expect(hints.map((h) => [h.variant, h.cues])).toEqual([['עולם', 1]]);
});
