/** Running state of an `ffmpeg -progress` reader. */
export interface ProgressState {
  outTimeS: number; speed: number | null; ended: boolean;
  /** Frames of the first video stream of the first output (`frame=`); 0 until reported. */
  frame?: number;
}

/** Pure: folds one `key=value` line of `-progress pipe:1` output into the state. */
export function foldProgress(st: ProgressState, line: string): ProgressState {
  const i = line.indexOf('=');
  if (i < 0) return st;
  const k = line.slice(0, i).trim(), v = line.slice(i + 1).trim();
  if ((k === 'out_time_us' || k === 'out_time_ms') && /^\d+$/.test(v)) return { ...st, outTimeS: Number(v) / 1e6 };
  if (k === 'frame' && /^\d+$/.test(v)) return { ...st, frame: Number(v) };
  if (k === 'speed') { const s = parseFloat(v); return { ...st, speed: Number.isFinite(s) && s > 0 ? s : st.speed }; }
  if (k === 'progress' && v === 'end') return { ...st, ended: true };
  return st;
}

/** Pure: percent done and ETA seconds from the state, the media duration and wall time elapsed. */
export function progressOf(st: ProgressState, durationS: number, elapsedS: number): { pct: number; etaS: number | null } {
  const pct = durationS > 0 ? Math.min(100, (st.outTimeS / durationS) * 100) : 0;
  const rate = st.outTimeS > 0 && elapsedS > 0 ? st.outTimeS / elapsedS : st.speed;
  const etaS = rate && rate > 0 ? Math.max(0, (durationS - st.outTimeS) / rate) : null;
  return { pct, etaS };
}

/**
 * Pure: the state with its media time taken from the frame count at `fps` when frames were reported. `out_time` is
 * the furthest of all outputs, so a still output (a sprite sheet stamped at the end) would make it jump ahead.
 */
export function byFrames(st: ProgressState, fps: number): ProgressState {
  return st.frame && fps > 0 ? { ...st, outTimeS: st.frame / fps } : st;
}
