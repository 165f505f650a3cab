/** The state machine of one check (Grafana-style): normal → pending (holds, for_s not yet passed) → firing → normal. */

/** A check's evaluation state. */
export type CheckState = 'normal' | 'pending' | 'firing';

/** What one evaluation found: `holds` null when the condition cannot be measured now (state kept); `frame`: files of the last good frame. */
export interface Verdict { holds: boolean | null; value: number | null; summary: string; detail: Record<string, unknown>; frame?: { segment: string; init: string } }

/** The next state and what to do: `fire` starts an alert, `resolve` ends the current one. */
export interface Step { state: CheckState; since: number; fire: boolean; resolve: boolean }

/** One transition from `prev` (entered at `since`) given whether the condition holds at `now`, with the pending period `forMs`. */
export function step(prev: CheckState, since: number, holds: boolean | null, now: number, forMs: number): Step {
  if (holds === null) return { state: prev, since, fire: false, resolve: false };
  if (holds) {
    if (prev === 'firing') return { state: 'firing', since, fire: false, resolve: false };
    const start = prev === 'pending' ? since : now;
    if (now - start >= forMs) return { state: 'firing', since: start, fire: true, resolve: false };
    return { state: 'pending', since: start, fire: false, resolve: false };
  }
  if (prev === 'firing') return { state: 'normal', since: now, fire: false, resolve: true };
  return { state: 'normal', since: prev === 'normal' ? since : now, fire: false, resolve: false };
}
