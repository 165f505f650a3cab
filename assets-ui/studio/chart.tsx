/** A uPlot time-series chart, loaded on first use (uPlot is its own chunk); resizes with its box and follows the direction. */
import { useEffect, useRef } from 'preact/hooks';
import type uPlot from 'uplot';

/** One line: its label, colour and which y axis (0 left, 1 right). */
export interface Line { label: string; color: string; axis?: 0 | 1; fmt?: (v: number) => string }

/**
 * Time-axis labels in the studio's language, precise to the ticks' own step (days, minutes or seconds), so no two
 * ticks read the same; a label that would repeat its neighbour's is left blank.
 */
export function timeLabels(vals: number[], locale: string): string[] {
  const step = vals.length > 1 ? Math.min(...vals.slice(1).map((v, i) => v - vals[i])) : 3600;
  const o: Intl.DateTimeFormatOptions = step >= 86400 ? { day: 'numeric', month: 'short' } : step >= 60 ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } : { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
  const tf = new Intl.DateTimeFormat(locale, o);
  // Ticks within a day on an axis that spans days: the date goes under the first tick of each day.
  const df = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' });
  const days = step < 86400 && vals.length > 1 && df.format(new Date(vals[0] * 1000)) !== df.format(new Date(vals[vals.length - 1] * 1000));
  let prev = '', prevDay = '';
  return vals.map((v) => {
    const d = new Date(v * 1000);
    let s = tf.format(d);
    const day = df.format(d);
    if (days && day !== prevDay) s = `${s}\n${day}`;
    prevDay = day;
    const out = s === prev ? '' : s;
    prev = s;
    return out;
  });
}

/** Times in seconds and one value array per line. */
export function Chart({ times, lines, values, height = 220, label, timeLabel, locale }: { times: number[]; lines: Line[]; values: (number | null)[][]; height?: number; label: string; timeLabel: string; locale: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = useRef<uPlot.AlignedData>([times, ...values] as uPlot.AlignedData);
  data.current = [times, ...values] as uPlot.AlignedData;
  useEffect(() => {
    let gone = false;
    let ro: ResizeObserver | null = null;
    void import('uplot').then(({ default: U }) => {
      if (gone || !box.current) return;
      const el = box.current;
      const css = getComputedStyle(el);
      const ink = css.getPropertyValue('--muted').trim() || '#667';
      const grid = css.getPropertyValue('--line').trim() || '#ddd';
      const axis = (side: number, scale: string, fmt?: (v: number) => string): uPlot.Axis => ({
        scale, side, stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid },
        ...(fmt ? { values: (_u: uPlot, vals: number[]) => vals.map((v) => fmt(v)) } : {}),
      });
      const full = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' });
      const hasRight = lines.some((l) => l.axis === 1);
      const opts: uPlot.Options = {
        width: el.clientWidth || 600, height,
        series: [{ label: timeLabel, value: (_u: uPlot, v: number | null) => (v === null ? '—' : full.format(new Date(v * 1000))) }, ...lines.map((l) => ({ label: l.label, stroke: l.color, width: 2, scale: l.axis === 1 ? 'r' : 'y', fill: l.color + '22', ...(l.fmt ? { value: (_u: uPlot, v: number | null) => (v === null ? '—' : l.fmt!(v)) } : {}) }))],
        axes: [{ stroke: ink, space: 70, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, values: (_u: uPlot, vals: number[]) => timeLabels(vals, locale) }, axis(3, 'y', lines[0]?.fmt), ...(hasRight ? [axis(1, 'r', lines.find((l) => l.axis === 1)?.fmt)] : [])],
        scales: { x: { time: true } },
        legend: { live: true },
        cursor: { drag: { x: false, y: false } },
      };
      plot.current = new U(opts, data.current, el);
      ro = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height }));
      ro.observe(el);
    });
    return () => { gone = true; ro?.disconnect(); plot.current?.destroy(); plot.current = null; };
  }, [lines.map((l) => l.label).join(), height, locale, times.length > 1 ? Math.sign(Math.floor((times[times.length - 1] - times[0]) / 3600)) + Math.sign(Math.floor((times[times.length - 1] - times[0]) / 172800)) : 0]);
  useEffect(() => { plot.current?.setData(data.current); }, [times, values]);
  // The chart canvas is drawn left-to-right in both directions (time runs that way); the box keeps dir=ltr.
  return <figure class="chart" aria-label={label}><div ref={box} dir="ltr" class="chart-box" style={{ minHeight: `${height}px` }} /></figure>;
}
