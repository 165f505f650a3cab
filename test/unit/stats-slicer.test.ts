import { expect, test } from 'bun:test';
import { timeSlicer } from '../../src/kernel/stats';

const busy = (ms: number) => { const t = performance.now(); while (performance.now() - t < ms) { /* one stretch of work */ } };

test('timeSlicer: due once its slice of work has run; the next slice starts after the turn, not before it', async () => {
  const s = timeSlicer(20);
  expect(s.due()).toBe(false);
  busy(25);
  expect(s.due()).toBe(true);
  // Other work during the turn (a timer's 25 ms here) is not counted against the next slice.
  setTimeout(() => busy(25), 0);
  await new Promise((r) => setTimeout(r, 1));
  await s.next();
  expect(s.due()).toBe(false);
  busy(25);
  expect(s.due()).toBe(true);
});
