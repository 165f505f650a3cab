import type { nameParsers } from './hours';
import type { hourLister } from './hour-list';

/**
 * Body of an hour-listing worker thread (startup reconciliation, see hour-pool.ts). It is serialised with
 * `Function.prototype.toString` and started from a blob URL together with `nameParsers` and `hourLister` (so
 * `bun build --compile` needs no extra entry point): it must stay self-contained, with no imports and no references
 * to anything outside itself; the listing and the summary rule come in as arguments, the same code the main thread runs.
 *
 * Message in: `{id, paths, target, inits}`: hour directories to list (names only) and summarise. Answer `{id, out}`:
 * a Float64Array of 4 numbers per path, `n, first, last, inner` (n = 0: no segment named; n = -1: not listable), so
 * only the small summaries cross threads, never the names. Any failure answers `{id, error}`.
 */
export function hourWorkerMain(parsers: typeof nameParsers, lister: typeof hourLister): void {
  type Msg = { id: number; paths: string[]; target: number; inits: number[] };
  const scope = globalThis as unknown as { onmessage: (e: MessageEvent<Msg>) => void; postMessage: (m: unknown, transfer?: Transferable[]) => void };
  const { listHour } = lister(parsers);
  scope.onmessage = (e) => {
    const { id, paths, target, inits } = e.data;
    try {
      const out = new Float64Array(paths.length * 4);
      for (let i = 0; i < paths.length; i++) listHour(paths[i], target, inits, out, i * 4);
      scope.postMessage({ id, out }, [out.buffer]);
    } catch (err) {
      scope.postMessage({ id, error: String(err) });
    }
  };
}
