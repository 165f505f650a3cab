import type { nameParsers } from './hours';

/**
 * Body of an hour-listing worker thread (startup reconciliation, see hour-pool.ts). It is serialised with
 * `Function.prototype.toString` and started from a blob URL together with `nameParsers` (so `bun build --compile`
 * needs no extra entry point): it must stay self-contained, with no imports and no references to anything outside
 * itself; the summary rule comes in as `parsers`, the same code the main thread runs.
 *
 * Message in: `{id, paths, target, inits}`: hour directories to list (names only) and summarise. Answer `{id, out}`:
 * a Float64Array of 4 numbers per path, `n, first, last, inner` (n = 0: no segment named; n = -1: not listable), so
 * only the small summaries cross threads, never the name arrays. Any failure answers `{id, error}`.
 */
export function hourWorkerMain(parsers: typeof nameParsers): void {
  type Msg = { id: number; paths: string[]; target: number; inits: number[] };
  const scope = globalThis as unknown as { onmessage: (e: MessageEvent<Msg>) => void; postMessage: (m: unknown, transfer?: Transferable[]) => void };
  const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  const { summarizeNames } = parsers();
  scope.onmessage = (e) => {
    const { id, paths, target, inits } = e.data;
    try {
      const out = new Float64Array(paths.length * 4);
      for (let i = 0; i < paths.length; i++) {
        let names: string[];
        try { names = fs.readdirSync(paths[i]); } catch { out[i * 4] = -1; continue; }
        const s = summarizeNames(names, target, inits);
        if (!s) continue;
        out[i * 4] = s.n; out[i * 4 + 1] = s.first; out[i * 4 + 2] = s.last; out[i * 4 + 3] = s.inner;
      }
      scope.postMessage({ id, out }, [out.buffer]);
    } catch (err) {
      scope.postMessage({ id, error: String(err) });
    }
  };
}
