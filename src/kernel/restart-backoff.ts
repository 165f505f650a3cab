/**
 * Restart delay of a supervised helper process (delivery workers, the delivery front) that just died: 1 s, doubling
 * to 60 s while it keeps dying within a minute of its start; a process that ran longer starts the count again.
 * Returns the new crash count (keep it for the next death) and the delay.
 */
export function restartDelay(previousCrashes: number, ranMs: number): { crashes: number; delayMs: number } {
  const crashes = ranMs > 60_000 ? 0 : previousCrashes + 1;
  return { crashes, delayMs: Math.min(60_000, 1000 * 2 ** Math.max(0, crashes - 1)) };
}
