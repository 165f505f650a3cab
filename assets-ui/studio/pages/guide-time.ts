/** Guide time arithmetic in the channel's time zone: calendar days (YYYY-MM-DD), wall-clock minutes, snapping. */

/** Minutes a drag or an arrow key moves by. */
export const SNAP_MIN = 5;
/** One minute in ms. */
export const MIN = 60_000;

const two = (n: number) => String(n).padStart(2, '0');

/** The day `n` days after a day key. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${t.getUTCFullYear()}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCDate())}`;
}

/** A typed day "YYYY-MM-DD" as a day key, or null when it is not a real calendar day. */
export function parseDay(v: string): string | null {
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$/.exec(v);
  if (!m) return null;
  const [y, mo, d] = m.slice(1).map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d ? `${y}-${two(mo)}-${two(d)}` : null;
}

/** A typed 24-hour time "HH:MM" as minutes after midnight, or null when it is not one (00:00-23:59). */
export function parseHhmm(v: string): number | null {
  const m = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(v);
  if (!m) return null;
  const h = Number(m[1]), mi = Number(m[2]);
  return h < 24 && mi < 60 ? h * 60 + mi : null;
}

/** Rounds minutes to the snap step. */
export const snap = (minutes: number) => Math.round(minutes / SNAP_MIN) * SNAP_MIN;

/** True when the zone name is one this browser knows. */
export function knownZone(tz: string): boolean {
  try { new Intl.DateTimeFormat('en', { timeZone: tz }); return true; } catch { return false; }
}

/** Clock arithmetic of one zone; holds one formatter (building a formatter costs ~50× reading with it: make one per zone and keep it). */
export function zone(tz: string) {
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const fields = (ms: number) => {
    const p = fmt.formatToParts(new Date(ms));
    const n = (t: string) => Number(p.find((x) => x.type === t)!.value);
    return { y: n('year'), m: n('month'), d: n('day'), h: n('hour') % 24, mi: n('minute'), s: n('second') };
  };
  const offset = (ms: number) => { const z = fields(ms); return Date.UTC(z.y, z.m - 1, z.d, z.h, z.mi, z.s) - Math.floor(ms / 1000) * 1000; };
  const z = {
    tz,
    /** The calendar day (YYYY-MM-DD) of an instant. */
    dayKey(ms: number): string { const f = fields(ms); return `${f.y}-${two(f.m)}-${two(f.d)}`; },
    /** The instant of wall-clock `minutes` after midnight of `day` (minutes may run past 24 h). */
    at(day: string, minutes: number): number {
      const [y, m, d] = day.split('-').map(Number);
      const guess = Date.UTC(y, m - 1, d, 0, minutes);
      return guess - offset(guess - offset(guess));
    },
    /** Wall-clock minutes after midnight of an instant. */
    minuteOfDay(ms: number): number { const f = fields(ms); return f.h * 60 + f.mi; },
    /** "HH:MM" of an instant. */
    hhmm(ms: number): string { const f = fields(ms); return `${two(f.h)}:${two(f.mi)}`; },
    /** "YYYY-MM-DD HH:MM" (24-hour) of an instant: the guide's typed date-time, the same in every language. */
    localInput(ms: number): string { return `${z.dayKey(ms)} ${z.hhmm(ms)}`; },
    /** The instant of a typed "YYYY-MM-DD HH:MM" (a `T` also accepted); NaN when it is not a real day and time. */
    fromLocalInput(v: string): number {
      const m = /^\s*(\S+)[T ]+(\S+)\s*$/.exec(v);
      const day = m ? parseDay(m[1]) : null, min = m ? parseHhmm(m[2]) : null;
      return day !== null && min !== null ? z.at(day, min) : NaN;
    },
  };
  return z;
}
/** Clock arithmetic of a zone (see zone()). */
export type Zone = ReturnType<typeof zone>;

/** The calendar day of an instant in a zone (one-off; pages keep a zone()). */
export const dayKey = (ms: number, tz: string) => zone(tz).dayKey(ms);
/** Wall-clock minutes after midnight of `day` in a zone, as an instant (one-off). */
export const at = (day: string, minutes: number, tz: string) => zone(tz).at(day, minutes);
/** Wall-clock minutes after midnight of an instant in a zone (one-off). */
export const minuteOfDay = (ms: number, tz: string) => zone(tz).minuteOfDay(ms);
/** "YYYY-MM-DD HH:MM" of an instant in a zone (one-off). */
export const localInput = (ms: number, tz: string) => zone(tz).localInput(ms);
/** The instant of a typed "YYYY-MM-DD HH:MM" in a zone (one-off). */
export const fromLocalInput = (v: string, tz: string) => zone(tz).fromLocalInput(v);
