/**
 * CPU time of this process's threads, by thread (Linux `/proc/self/task/<tid>/stat`, clock ticks of 10 ms), so a
 * bench can say where its CPU went: the main thread (the event loop) apart from worker, DuckDB and HTTP threads.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ticks (user + system) per thread id, with the thread's name. */
export type ThreadTicks = Map<string, { name: string; ticks: number }>;

/** Reads every thread's CPU ticks now (empty where /proc is not there). */
export function threadTicks(): ThreadTicks {
  const m: ThreadTicks = new Map();
  let tids: string[] = [];
  try { tids = readdirSync('/proc/self/task'); } catch { return m; }
  for (const t of tids) {
    try {
      const s = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      m.set(t, { name: s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')), ticks: Number(f[11]) + Number(f[12]) });
    } catch { /* thread ended */ }
  }
  return m;
}

/** Pure: CPU ms per thread name between two readings, largest first (`main` is the process's main thread). */
export function threadTicksText(before: ThreadTicks, after: ThreadTicks, pid = process.pid): string {
  const by = new Map<string, number>();
  for (const [t, v] of after) {
    const d = v.ticks - (before.get(t)?.ticks ?? 0);
    const k = t === String(pid) ? 'main' : v.name;
    if (d > 0) by.set(k, (by.get(k) ?? 0) + d * 10);
  }
  return [...by].sort((a, b) => b[1] - a[1]).map(([k, ms]) => `${k} ${ms} ms`).join(', ') || 'no data';
}
