import { expect, test } from 'bun:test';
import { timeSlicer } from '../../src/kernel/stats';

test('timeSlicer: not due before its slice has run, due once it has, and the next slice starts from then', () => {
  const s = timeSlicer(20);
  expect(s.due()).toBe(false);
  const t = performance.now();
  while (performance.now() - t < 25) { /* busy: one slice of work */ }
  expect(s.due()).toBe(true);
  // Due starts a new slice: asked again at once, it is not due.
  expect(s.due()).toBe(false);
});
