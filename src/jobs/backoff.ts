/** Delay before retry number `attempt` (1-based): 5 s doubling per attempt, capped at 10 min, with ±20% jitter. */
export function backoffMs(attempt: number, rand: () => number = Math.random): number {
  const base = Math.min(5_000 * 2 ** Math.max(0, attempt - 1), 600_000);
  return Math.round(base * (0.8 + 0.4 * rand()));
}
