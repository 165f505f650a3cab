/** CPU cost per request for benchmarks: a busy shared box disturbs CPU time far less than throughput or latency. */
import { readdirSync, readFileSync } from 'node:fs';
import { cpuSeconds, wrk, type WrkResult } from './lib';

/** CPU seconds (user+system) of a process and all its descendants (delivery workers, nginx workers). */
export function treeCpu(pid: number): number {
  let kids: number[] = [];
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) kids = kids.concat(readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch { /* gone */ }
  return cpuSeconds(pid) + kids.reduce((a, k) => a + treeCpu(k), 0);
}

/** One wrk run plus the server's CPU microseconds per answered request (its process tree, or several summed). */
export async function measured(url: string, pid: number | number[], o: Parameters<typeof wrk>[1]): Promise<WrkResult & { cpuUs: number }> {
  const cpu = () => [pid].flat().reduce((t, p) => t + treeCpu(p), 0);
  const c0 = cpu();
  const r = await wrk(url, o);
  return { ...r, cpuUs: ((cpu() - c0) * 1e6) / Math.max(1, r.rps * o.seconds) };
}
