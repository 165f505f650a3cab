/** Injectable clock: production uses wall time; tests can swap in a manual clock. */
export interface Clock { now(): number }

/** Wall-clock time in epoch milliseconds. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; for retry-schedule and expiry tests. */
export class ManualClock implements Clock {
  constructor(private t = Date.now()) {}
  now(): number { return this.t; }
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void { this.t += ms; }
  /** Sets the clock to `t` epoch milliseconds. */
  set(t: number): void { this.t = t; }
}

/** RFC 3339 UTC text for epoch milliseconds. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
