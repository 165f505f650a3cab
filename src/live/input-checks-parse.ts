/** Pure: reads the input-check filters' stderr lines into the state of each check (black, freeze, silence, loudness). */

/** The state of one input's checks. */
export interface InputCheckState {
  black: { active: boolean; since_s: number | null };
  freeze: { active: boolean; since_s: number | null };
  silence: { active: boolean; since_s: number | null };
  /** EBU R128: momentary, short-term and integrated loudness (LUFS) at media time `t`. */
  loudness: { t: number; momentary: number; short_term: number; integrated: number } | null;
}

/** A fresh state (nothing seen). */
export function emptyInputState(): InputCheckState {
  return { black: { active: false, since_s: null }, freeze: { active: false, since_s: null }, silence: { active: false, since_s: null }, loudness: null };
}

/**
 * Feeds one stderr line. Black: blackframe reports each black frame (`pblack:` with `t:`); a run of them for
 * `blackMinS` makes black active, a gap of more than 0.5 s ends it. Freeze and silence: their start/end lines.
 */
export function feedInputLine(s: InputCheckState, line: string, blackMinS: number, run: { start: number | null; last: number | null }): void {
  let m: RegExpExecArray | null;
  if ((m = /pblack:\d+.*?\bt:([\d.]+)/.exec(line))) {
    const t = Number(m[1]);
    if (run.last === null || t - run.last > 0.5) { run.start = t; s.black = { active: false, since_s: null }; }
    run.last = t;
    if (run.start !== null && t - run.start >= blackMinS) s.black = { active: true, since_s: run.start };
  } else if ((m = /freezedetect\.freeze_start: ([\d.]+)/.exec(line))) s.freeze = { active: true, since_s: Number(m[1]) };
  else if (/freezedetect\.freeze_end/.test(line)) s.freeze = { active: false, since_s: null };
  else if ((m = /silence_start: (-?[\d.]+)/.exec(line))) s.silence = { active: true, since_s: Math.max(0, Number(m[1])) };
  else if (/silence_end:/.test(line)) s.silence = { active: false, since_s: null };
  else if ((m = /\bt: ([\d.]+)\s+TARGET:-?\d+ LUFS\s+M:\s*(-?[\d.]+)\s+S:\s*(-?[\d.]+)\s+I:\s*(-?[\d.]+) LUFS/.exec(line))) {
    s.loudness = { t: Number(m[1]), momentary: Number(m[2]), short_term: Number(m[3]), integrated: Number(m[4]) };
  }
}

/** Ends a black run whose frames stopped arriving (media time `t` moved on past the last black frame). */
export function settleBlack(s: InputCheckState, t: number, run: { start: number | null; last: number | null }): void {
  if (run.last !== null && t - run.last > 0.5) { run.start = null; run.last = null; s.black = { active: false, since_s: null }; }
}
