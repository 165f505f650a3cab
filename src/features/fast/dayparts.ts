/**
 * Dayparts: time-of-day blocks in the channel's time zone, each with its own playlist. A block runs from its local
 * start for its length (an end at or before the start runs past midnight); outside every block the default
 * playlist airs. Pure, apart from the time zone data Intl carries (lengths are wall-clock lengths: a block that
 * spans a DST change is an hour longer or shorter than its local times say).
 */
import { invalid } from '../../kernel/errors';
import type { Daypart } from './model';

export const DAY_MS = 86_400_000;

/** `HH:MM` → ms after midnight. */
export const hhmm = (s: string): number => (Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5))) * 60_000;

/** A daypart's start and length in ms of the local day. */
export function span(d: Pick<Daypart, 'start' | 'end'>): { start: number; len: number } {
  const s = hhmm(d.start), e = hhmm(d.end);
  return { start: s, len: ((e - s + DAY_MS) % DAY_MS) || DAY_MS };
}

/** Local time of day (ms after midnight) of an instant, by a formatter of the channel's time zone. */
export function localTod(fmt: Intl.DateTimeFormat, t: number): number {
  const p = Object.fromEntries(fmt.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return ((Number(p.hour) % 24) * 3600 + Number(p.minute) * 60 + Number(p.second)) * 1000 + (((t % 1000) + 1000) % 1000);
}

/** A formatter giving hour, minute and second in `tz`. */
export function todFormatter(tz: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-GB', { timeZone: tz, hourCycle: 'h23', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** The block airing at `t`: its daypart index (-1: the default playlist), where it started and where it ends. */
export function blockAt(fmt: Intl.DateTimeFormat, dayparts: Pick<Daypart, 'start' | 'end'>[], anchorMs: number, t: number): { part: number; startMs: number; endMs: number } {
  const tod = localTod(fmt, t);
  let toNext = Infinity;
  for (let i = 0; i < dayparts.length; i++) {
    const { start, len } = span(dayparts[i]);
    const since = (tod - start + DAY_MS) % DAY_MS;
    if (since < len) return { part: i, startMs: t - since, endMs: t - since + len };
    toNext = Math.min(toNext, DAY_MS - since);
  }
  return { part: -1, startMs: anchorMs, endMs: t + toNext };
}

/** 422 when two dayparts overlap (checked minute by minute over one day) or one is empty. */
export function checkDayparts(dayparts: Pick<Daypart, 'start' | 'end'>[]): void {
  const owner = new Int16Array(1440).fill(-1);
  dayparts.forEach((d, i) => {
    const { start, len } = span(d);
    for (let m = 0; m < len / 60_000; m++) {
      const at = (start / 60_000 + m) % 1440;
      if (owner[at] >= 0) throw invalid(`dayparts[${i}]`, `overlaps dayparts[${owner[at]}]`);
      owner[at] = i;
    }
  });
}
