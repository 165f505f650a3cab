/**
 * What the studio benchmark's long tasks are: the page records long tasks and long animation frames (LoAF: script
 * time by invoker, then style and layout time of the frame), and these helpers summarise them in one line.
 */

/** A long animation frame as the page records it (times in ms). */
export interface Loaf { start: number; dur: number; blocking: number; script: number; layout: number; scripts: { who: string; ms: number }[] }

/** Init script: `window.__long` (long tasks) and `window.__loaf` (long animation frames over 50 ms), both from page start. */
export const OBSERVE = () => {
  const w = window as unknown as { __long: { start: number; dur: number }[]; __loaf: Loaf[] };
  w.__long = [];
  w.__loaf = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__long.push({ start: e.startTime, dur: e.duration }); }).observe({ type: 'longtask', buffered: true });
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries() as unknown as { startTime: number; duration: number; blockingDuration: number; styleAndLayoutStart: number; scripts: { duration: number; invoker: string; sourceFunctionName: string; sourceURL: string; invokerType: string }[] }[]) {
        if (e.duration <= 50) continue;
        const scripts = e.scripts.map((x) => ({ who: `${x.invokerType}:${x.invoker || x.sourceFunctionName}@${(x.sourceURL.split('/').pop() ?? '').slice(0, 24)}`, ms: x.duration }));
        w.__loaf.push({
          start: e.startTime, dur: e.duration, blocking: e.blockingDuration, script: scripts.reduce((a, x) => a + x.ms, 0),
          layout: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0, scripts,
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch { /* no LoAF in this browser */ }
};

/** One line: how many frames over 50 ms, and for the longest few their script / style+layout split and top scripts. */
export function describeLoafs(xs: Loaf[], top = 3): string {
  if (!xs.length) return 'no frame over 50 ms';
  const worst = [...xs].sort((a, b) => b.dur - a.dur).slice(0, top);
  return `${xs.length} frames over 50 ms; longest: ` + worst.map((f) => {
    const s = [...f.scripts].sort((a, b) => b.ms - a.ms).slice(0, 2).map((x) => `${x.who} ${x.ms.toFixed(0)}`).join(', ');
    return `${f.dur.toFixed(0)} ms (script ${f.script.toFixed(0)}, style+layout ${f.layout.toFixed(0)}, other ${Math.max(0, f.dur - f.script - f.layout).toFixed(0)}${s ? `; ${s}` : ''})`;
  }).join(' | ');
}

/** Chromium trace categories for `summariseTrace` (tasks, their timeline children, GC). */
export const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute'];

type TraceEvent = { name: string; ph: string; pid: number; tid: number; ts: number; dur?: number; tdur?: number; args?: { name?: string } };

/**
 * Long tasks of the page's main thread in a Chromium trace: wall time against the thread's own CPU time (a task far
 * longer on the wall than on the CPU waited for a core: the machine's load, not the page's work), and where their
 * CPU went (script, style and layout, paint, garbage collection).
 */
export function summariseTrace(json: string, overMs = 50): string {
  const events = (JSON.parse(json) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const onMain = events.filter((e) => e.ph === 'X' && mains.has(`${e.pid}:${e.tid}`));
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > overMs * 1000);
  if (!tasks.length) return `trace: no main-thread task over ${overMs} ms`;
  const kind = (n: string) => (/^(FunctionCall|EvaluateScript|v8\.|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|V8\.)/.test(n) ? 'script'
    : /^(UpdateLayoutTree|Layout|RecalculateStyles|PrePaint|HitTest)/.test(n) ? 'layout' : /^(Paint|Layerize|Commit|UpdateLayer)/.test(n) ? 'paint'
      : /GC|Scavenge|MarkCompact/.test(n) ? 'gc' : '');
  let cpuOver = 0;
  const parts = tasks.map((t) => {
    const end = t.ts + t.dur!;
    const sums: Record<string, number> = {};
    // Top-level children only (an event inside another of the same kind is counted once).
    const kids = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= end && kind(e.name));
    let reach: Record<string, number> = {};
    for (const e of kids.sort((a, b) => a.ts - b.ts)) {
      const k = kind(e.name);
      if (e.ts < (reach[k] ?? 0)) continue;
      reach[k] = e.ts + (e.dur ?? 0);
      sums[k] = (sums[k] ?? 0) + (e.dur ?? 0) / 1000;
    }
    reach = {};
    const cpu = (t.tdur ?? t.dur!) / 1000;
    if (cpu > overMs) cpuOver++;
    const split = Object.entries(sums).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(' ');
    return `${(t.dur! / 1000).toFixed(0)}/${cpu.toFixed(0)}${split ? ` (${split})` : ''}`;
  });
  return `trace: ${tasks.length} main-thread tasks over ${overMs} ms on the wall, ${cpuOver} over ${overMs} ms of CPU; wall/cpu ms: ${parts.slice(0, 8).join(', ')}`;
}
