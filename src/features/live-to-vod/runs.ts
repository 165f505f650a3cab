/** Groups segments into runs that share one init segment (a new run at every init change), keeping order. */
export function runsOf<T extends { init_ms: number }>(segs: T[]): { initMs: number; segs: T[] }[] {
  const runs: { initMs: number; segs: T[] }[] = [];
  for (const s of segs) {
    const cur = runs[runs.length - 1];
    if (cur && cur.initMs === s.init_ms) cur.segs.push(s);
    else runs.push({ initMs: s.init_ms, segs: [s] });
  }
  return runs;
}
