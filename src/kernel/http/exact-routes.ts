/**
 * Exact routes for the paths fast lanes answer most. On a TCP listener every request passes Bun's router, which
 * matches the raw target against `rawTargetPatterns` (`/:s0/:s1/...`) and builds a params object of percent-decoded
 * segments for `rawSegmentsClean` to judge: about 1.5 µs of user CPU per request (a bare Bun.serve answering a 304
 * from one fetch handler: 8.7 µs median, the same behind the 65 patterns: 10.3 µs, behind the patterns plus an exact
 * route for the path: 8.7 µs; 16 interleaved 2 s wrk rounds each). A raw target that equals an exact route's path
 * byte for byte is clean by construction (the path was judged when it was chosen: plain segments, no dot segment, no
 * percent-encoding, nothing Bun's route syntax reads), so it needs no params and no judging; every other check
 * `serveApp` makes still runs. `ExactPaths` counts lane answers per canonical path and, once a period, names the
 * paths worth an exact route; `serveApp` then reloads its router with them (a reload costs about 2 ms for ~100
 * routes, so it happens at most once a period and only when the chosen set changed).
 */

/**
 * A path Bun's router can hold as an exact (static) route matching only itself: one or more segments of unreserved
 * characters, none starting with a dot (no dot segments, nothing hidden), no ':' or '*' (route syntax), no '%'.
 */
const EXACT_SAFE = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

/** How many distinct paths are counted in one period (lane answers of others are not counted until the next). */
const COUNTED_MAX = 4096;

/** True when `path` can be an exact route (see EXACT_SAFE). */
export function exactSafe(path: string): boolean {
  return path.length <= 1024 && EXACT_SAFE.test(path);
}

/** Lane answers per path over one period, and the paths chosen for exact routes. */
export class ExactPaths {
  /** Lane answers per path this period; -1 marks a path that can never be an exact route (judged once). */
  private counts = new Map<string, number>();
  private chosen: string[] = [];

  /** `max` paths at most; a path needs `minAnswers` lane answers in a period to be (or stay) chosen. */
  constructor(private readonly max: number, private readonly minAnswers: number) {}

  /** Counts one fast-lane answer for the canonical `path`. */
  count(path: string): void {
    const c = this.counts.get(path);
    if (c !== undefined) { if (c >= 0) this.counts.set(path, c + 1); return; }
    if (this.counts.size < COUNTED_MAX) this.counts.set(path, exactSafe(path) ? 1 : -1);
  }

  /**
   * Ends a period: the paths to route exactly from now on, or null when they are the ones chosen already. Paths
   * chosen before stay while they keep `minAnswers` (no swapping among equals every period); the free places go to
   * the most answered others.
   */
  next(): string[] | null {
    const counts = this.counts;
    this.counts = new Map();
    const busy = (p: string) => (counts.get(p) ?? 0) >= this.minAnswers;
    const kept = this.chosen.filter(busy);
    const keptSet = new Set(kept);
    const others = [...counts].filter(([p, n]) => n >= this.minAnswers && !keptSet.has(p)).sort((a, b) => b[1] - a[1]);
    const out = [...kept, ...others.slice(0, Math.max(0, this.max - kept.length)).map(([p]) => p)];
    if (out.length === this.chosen.length && out.every((p) => keptSet.has(p))) return null;
    this.chosen = out;
    return out;
  }

  /** The paths routed exactly now. */
  current(): readonly string[] {
    return this.chosen;
  }
}
