import { expect, test } from 'bun:test';
import { restartDelay } from '../../src/kernel/restart-backoff';

test('restart delay: 1 s doubling to 60 s while a process dies within a minute, reset after a longer run', () => {
  let crashes = 0;
  const delays: number[] = [];
  for (let i = 0; i < 8; i++) { const r = restartDelay(crashes, 500); crashes = r.crashes; delays.push(r.delayMs); }
  expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  expect(restartDelay(crashes, 60_001)).toEqual({ crashes: 0, delayMs: 1000 });
});
