/** A failure that retrying cannot fix (bad media, missing source): the job fails at once, no retry. */
export class PermanentJobError extends Error {
  constructor(message: string) { super(message); this.name = 'PermanentJobError'; }
}

/** Thrown inside a handler when its job was cancelled (its signal aborted); the job ends `cancelled`. */
export class JobCancelledError extends Error {
  constructor(message = 'cancelled') { super(message); this.name = 'JobCancelledError'; }
}

/** True when `e` marks a failure that must not be retried. */
export function isPermanent(e: unknown): boolean {
  return e instanceof PermanentJobError || (e as { permanent?: unknown })?.permanent === true;
}
