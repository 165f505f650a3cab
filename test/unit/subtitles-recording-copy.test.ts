import { expect, test } from 'bun:test';
import { assetTimeOf, cuesOnRuns } from '../../src/features/subtitles/recording-copy';

// Two recorded runs joined into one asset: 1000-5000 and (after a 3 s hole) 8000-10000 wall-clock ms.
const runs = [{ startMs: 1000, durationMs: 4000 }, { startMs: 8000, durationMs: 2000 }];

test('wall-clock times map onto the joined runs; a hole moves to the next run; past the end is outside', () => {
  expect(assetTimeOf(runs, 1000)).toBe(0);
  expect(assetTimeOf(runs, 4500)).toBe(3500);
  expect(assetTimeOf(runs, 6000)).toBe(4000); // in the hole: the second run's start
  expect(assetTimeOf(runs, 9000)).toBe(5000);
  expect(assetTimeOf(runs, 500)).toBe(0); // before the first run
  expect(assetTimeOf(runs, 10_001)).toBeNull();
});

test('cues move with the runs; a cue across the hole is shortened to what was recorded; one outside is dropped', () => {
  const cues = cuesOnRuns(runs, [
    { startMs: 2000, endMs: 3000, text: 'first' },
    { startMs: 4500, endMs: 8500, text: 'across the hole' },
    { startMs: 6000, endMs: 7000, text: 'only in the hole' },
    { startMs: 9500, endMs: 12_000, text: 'past the end' },
    { startMs: 11_000, endMs: 12_000, text: 'after everything' },
  ]);
  expect(cues).toEqual([
    { startMs: 1000, endMs: 2000, text: 'first' },
    { startMs: 3500, endMs: 4500, text: 'across the hole' },
    { startMs: 5500, endMs: 6000, text: 'past the end' },
  ]);
});
