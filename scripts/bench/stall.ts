/**
 * Event-loop stall monitor for benchmarks (perf_hooks.monitorEventLoopDelay). In-process benches call
 * `stallMonitor()` and print `.line()`; benches that run the appliance as a child process start it with
 * `VS_STALL_FILE=<path>` (the serve command then writes its own and each delivery worker's histogram there,
 * see src/kernel/stall.ts) and print `stallFileLine(path)`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Stall figures in ms. */
export interface Stalls { p50: number; p99: number; max: number; count: number }

/** Formats stall figures as the one line every bench prints. */
export function stallText(label: string, s: Stalls): string {
  return `stall monitor (${label}): event-loop delay p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms (target max < 50 ms)`;
}

/** Starts a monitor of this process's event loop; `read()` gives the figures so far, `line()` the printed line. */
export function stallMonitor(resolutionMs = 10) {
  const h = monitorEventLoopDelay({ resolution: resolutionMs });
  h.enable();
  const read = (): Stalls => ({ p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6, count: h.count });
  return {
    read,
    /** Clears the histogram (start of a measured phase). */
    reset(): void { h.reset(); },
    line(label = 'this process'): string { return stallText(label, read()); },
    stop(): Stalls { const s = read(); h.disable(); return s; },
  };
}

/** Reads the stall files an appliance started with VS_STALL_FILE=`path` wrote (main and workers); one line each. */
export function stallFileLines(path: string): string[] {
  const dir = dirname(path), base = basename(path);
  if (!existsSync(dir)) return [`stall monitor: no data (${path})`];
  const out: string[] = [];
  for (const f of readdirSync(dir).filter((n) => (n === base || n.startsWith(`${base}.`)) && !n.includes('.tmp-')).sort()) {
    try {
      const s = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as Stalls & { who: string };
      out.push(stallText(`appliance ${s.who}`, s));
    } catch { /* being rewritten: skip */ }
  }
  return out.length ? out : [`stall monitor: no data (${path})`];
}
