/** Pure helpers of the clip cutter: local date-time text, timeline positions and snapping. */

const two = (n: number) => String(n).padStart(2, '0');
/**
 * Epoch ms as the cutter's typed time, `YYYY-MM-DD HH:MM:SS` in local time: the same 24-hour form in every language
 * (a native date-time input would show the browser's own format, e.g. US `11/28/2026 11:20 PM` in a Hebrew studio).
 */
export const localInput = (t: number) => { const d = new Date(t); return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`; };

/** The instant of a typed cutter time (`YYYY-MM-DD HH:MM[:SS]`, a `T` also accepted), or NaN while it is incomplete. */
export function parseLocalInput(v: string): number {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?\s*$/.exec(v);
  if (!m) return NaN;
  const [y, mo, d, h, mi, se] = m.slice(1).map((x) => Number(x ?? 0));
  const t = new Date(y, mo - 1, d, h, mi, se).getTime();
  return new Date(t).getMonth() === mo - 1 ? t : NaN;
}

/** A time window of the timeline (epoch ms). */
export interface Win { from: number; to: number }
/** In and out points (epoch ms). */
export interface Cut { in: number; out: number }
/** How handles snap: to frames of the recording, or to programme boundaries (frames elsewhere). */
export type SnapMode = 'frame' | 'programme';

/** Position of `t` in the window, 0-100 (clamped). */
export const pct = (w: Win, t: number) => Math.min(100, Math.max(0, ((t - w.from) / (w.to - w.from)) * 100));

/** A time on the frame grid (`fps`, counted from the window start). */
export function snapFrame(t: number, w: Win, fps: number): number {
  const f = 1000 / fps;
  return Math.min(w.to, Math.max(w.from, w.from + Math.round((t - w.from) / f) * f));
}

/** The grid value nearest to `t` (grid sorted ascending, not empty). */
export function nearest(grid: number[], t: number): number {
  let best = grid[0];
  for (const g of grid) if (Math.abs(g - t) < Math.abs(best - t)) best = g;
  return best;
}

/**
 * Snaps `t`: to the nearest programme boundary within 4% of the window in programme mode; else to the nearest
 * segment boundary when `segments` is given (segment precision: the server cuts there), else to the nearest frame.
 */
export function snap(t: number, w: Win, fps: number, mode: SnapMode, bounds: number[], segments?: number[] | null): number {
  if (mode === 'programme') {
    const reach = (w.to - w.from) * 0.04;
    let best: number | null = null;
    for (const b of [...bounds, w.from, w.to]) if (b >= w.from && b <= w.to && Math.abs(b - t) <= reach && (best === null || Math.abs(b - t) < Math.abs(best - t))) best = b;
    if (best !== null) return best;
  }
  if (segments?.length) return nearest(segments, t);
  return Math.round(snapFrame(t, w, fps));
}

/** A window around a range with `pad` share on each side. */
export const around = (from: number, to: number, pad = 0.08): Win => { const p = Math.max(1000, (to - from) * pad); return { from: Math.round(from - p), to: Math.round(to + p) }; };

/** Whole-second-or-better clock text of epoch ms with tenths (for frame-precise handles). */
export function clockText(t: number, timeFmt: (t: number) => string): string {
  const tenths = Math.floor((t % 1000) / 100);
  return `${timeFmt(t)}.${tenths}`;
}
