import { expect, test } from 'bun:test';
import { initIndex, segmentNameMs, segmentStarts, summarizeNames } from '../../src/live/hours';

/** The sorted reference: breaks are gaps over 3 targets or an init change between consecutive starts. */
function reference(names: string[], target: number, inits: number[]) {
  const s = segmentStarts(names);
  if (!s.length) return null;
  let inner = 0;
  for (let k = 1; k < s.length; k++) if (s[k] - s[k - 1] > 3 * target || (inits.length > 1 && initIndex(inits, s[k]) !== initIndex(inits, s[k - 1]))) inner++;
  return { n: s.length, first: s[0], last: s[s.length - 1], inner };
}

test('segment names parse without regex; temp and other names are skipped', () => {
  expect(segmentNameMs('1735689600000.m4s')).toBe(1735689600000);
  for (const n of ['1735689600000.m4s.tmp', 'x.m4s', '.m4s', '17356896000a0.m4s', 'init', '1735689600000.mp4']) expect(segmentNameMs(n)).toBe(-1);
});

test('one-pass hour summary (buckets) matches the sorted count of breaks', () => {
  const h = Date.UTC(2025, 0, 1, 7);
  let seed = 7;
  const rnd = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  for (let round = 0; round < 200; round++) {
    const names: string[] = [];
    for (let t = h + Math.floor(rnd() * 4000); t < h + 3_600_000; t += 1900 + Math.floor(rnd() * 250) + (rnd() < 0.02 ? Math.floor(rnd() * 20_000) : 0)) names.push(`${t}.m4s`);
    for (let i = names.length - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); [names[i], names[j]] = [names[j], names[i]]; }
    names.push('junk.tmp', `${h + 5}.m4s.tmp`);
    const inits = round % 3 === 0 ? [h - 10_000, h + 1_800_001] : [h - 10_000];
    expect(summarizeNames(names, 2000, inits)).toEqual(reference(names, 2000, inits));
  }
  expect(summarizeNames(['a.tmp'], 2000, [])).toBeNull();
});
