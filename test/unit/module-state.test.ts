import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// Issue 14 item 5: no module-level mutable state in features (caches, registries and counters live in objects
// built at start and carried in the AppContext, e.g. ctx.slots). A module-level `let`/`var`, or a module-level
// empty Map/Set/WeakMap/array that code fills later, is state shared by every app in the process (tests run
// several). Known debt is listed by file so it can only shrink; a new file with such state fails here.
const ROOT = join(import.meta.dir, '../../src/features');
// Left, each on purpose or for later: process-wide resources (one md5 worker pool and one fsync flusher per file for
// the whole process), an S3 client cache keyed by its config object and the webhook endpoint-change counter (shared: another app's change only costs an extra cache reload).
const KNOWN_DEBT = new Set([
  'assets/s3-source.ts', 'uploads/md5-pool.ts', 'uploads/flusher.ts', 'webhooks/store.ts',
]);
const MUTABLE = /^(?:export\s+)?(?:(?:let|var)\s+\w+|const\s+\w+\s*(?::[^=]+)?=\s*(?:new\s+(?:Map|Set|WeakMap|WeakSet)\s*(?:<[^\n]*?>)?\(\s*\)|\[\s*\]))/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : n.endsWith('.ts') && !n.endsWith('.d.ts') ? [p] : [];
  });
}

/** Module-level lines declaring mutable state (column 0 only: inside functions and classes is fine). */
function stateLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => MUTABLE.test(l));
}

describe('module-level state in src/features', () => {
  const found = files(ROOT).map((p) => ({ file: relative(ROOT, p), lines: stateLines(p) })).filter((f) => f.lines.length);

  test('the scan finds the known debt (sanity: the pattern still matches)', () => {
    expect(found.length).toBeGreaterThan(0);
  });

  test('no new module-level mutable state outside the listed debt', () => {
    expect(found.filter((f) => !KNOWN_DEBT.has(f.file)).map((f) => `${f.file}: ${f.lines.join(' | ')}`)).toEqual([]);
  });

  test('the removed singletons stay removed (ladders cache, catch-up playlist cache, fetch limits, upload locks, stats runtime, playback state, geo, running dispatcher, hook raw bodies)', () => {
    for (const f of ['transcode/ladders.ts', 'catchup/source.ts', 'assets/jobs.ts', 'uploads/service.ts', 'stats/runtime.ts', 'playback/service.ts', 'playback/geo.ts', 'webhooks/dispatcher.ts', 'hooks/routes.ts', 'playback/targets.ts']) expect(stateLines(join(ROOT, f))).toEqual([]);
  });
});
