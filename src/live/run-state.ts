import { readFileSync } from 'node:fs';
import { initTracks } from './mp4';
import { leadTime, shiftTo, type Shift } from './rebase';
import type { Landed, Rebase } from './recorder';

/** The lead rendition's decision for one segment number: taken or not, its start, and the run's shift then. */
export interface LeadDecision { take: boolean; startMs: number; shift: Shift | null }

/**
 * Per input run: where the next lead segment starts, the run's init name, the lead's decision per segment number,
 * follower segments waiting for it, the shift that puts this run's media time on the channel's timeline (wall
 * clock), each init's tracks (read once), the renditions this run encodes and records (null: all of them), and
 * the lead segments this input packaged while another input was on air (`held`, newest last: a hot backup's last
 * seconds, spliced into the recording at a failover so that it leaves no hole).
 */
export interface RunState {
  nextStart: number | null; initMs: number | null; lead: Map<number, LeadDecision>; pending: Map<string, Landed[]>;
  shift: Shift | null; tracks: Map<string, Map<number, { timescale: number; kind: string }> | null>;
  encoded: string[] | null; recorded: string[] | null; held: Landed[];
}

/** State of a run that just started. */
export const freshRun = (): RunState => ({ nextStart: null, initMs: null, lead: new Map(), pending: new Map(), shift: null, tracks: new Map(), encoded: null, recorded: null, held: [] });

function tracksOf(run: RunState, initFile: string) {
  if (!run.tracks.has(initFile)) {
    let t: Map<number, { timescale: number; kind: string }> | null = null;
    try { t = initTracks(readFileSync(initFile)); } catch { /* init unreadable: the segment is kept as it is */ }
    run.tracks.set(initFile, t && t.size ? t : null);
  }
  return run.tracks.get(initFile) ?? null;
}

/**
 * Rebasing of a lead segment starting at wall-clock `startMs`: along a chain (the segment follows the run's
 * previous one) the run keeps its shift, so media time stays continuous; at a chain start (new run, failover,
 * primary taken back) a new shift puts the segment's first decode time on `startMs - originMs` (the channel's
 * timeline starts when the channel was created: media time stays small, which strict players need, and never
 * goes back).
 */
export function leadRebase(run: RunState, initFile: string, startMs: number, originMs: number, chained: boolean): Rebase | undefined {
  const tracks = tracksOf(run, initFile);
  if (!tracks) return undefined;
  return {
    tracks,
    shift: (seg) => {
      if (chained && run.shift) return run.shift;
      const t = leadTime(seg, tracks);
      run.shift = t ? shiftTo(Math.max(0, startMs - originMs), t.time, t.timescale) : null;
      return run.shift;
    },
  };
}

/** Rebasing of a follower rendition's segment: the shift its lead segment had (renditions stay aligned). */
export function followerRebase(run: RunState, initFile: string, shift: Shift | null): Rebase | undefined {
  const tracks = shift && tracksOf(run, initFile);
  return tracks ? { tracks, shift: () => shift } : undefined;
}
