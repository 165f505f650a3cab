/** Delays before retries 1-6 (10 s, 1 min, 5 min, 30 min, 2 h, 12 h); the 7th failed attempt makes a delivery dead. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 1_800_000, 7_200_000, 43_200_000] as const;
/** Attempts per delivery round (the first try plus six retries). */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** How long a receiver has to answer 2xx. */
export const ACK_TIMEOUT_MS = 10_000;

/**
 * After a failed attempt: `failures` counts failed attempts in this round including this one. Returns the next due
 * time, or null when the delivery is dead.
 */
export function nextAttemptAt(failures: number, now: number): number | null {
  if (failures >= MAX_ATTEMPTS) return null;
  return now + RETRY_DELAYS_MS[Math.max(0, failures - 1)];
}
