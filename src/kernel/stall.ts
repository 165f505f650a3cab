import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Writes this process's event-loop delay histogram (p50/p99/max in ms) to `path` every `everyMs` while it runs, for
 * benchmarks (`VS_STALL_FILE`). Returns the stop function. Off unless a path is given.
 */
export function reportStalls(path: string | undefined, who: string, everyMs = 500): () => void {
  if (!path) return () => {};
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const write = () => {
    const s = { who, p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6, count: h.count };
    try { writeFileSync(`${path}.tmp-${process.pid}`, JSON.stringify(s)); renameSync(`${path}.tmp-${process.pid}`, path); } catch { /* bench dir gone */ }
  };
  const t = setInterval(write, everyMs);
  t.unref();
  return () => { clearInterval(t); write(); h.disable(); };
}
