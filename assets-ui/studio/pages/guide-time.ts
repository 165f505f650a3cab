/** Guide time arithmetic in the channel's time zone: calendar days (YYYY-MM-DD), wall-clock minutes, snapping. */

/** Minutes a drag or an arrow key moves by. */
export const SNAP_MIN = 5;
/** One minute in ms. */
export const MIN = 60_000;

const fmtFor = (tz: string) => new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Wall-clock fields of an instant in a zone. */
export function zoned(ms: number, tz: string): { y: number; m: number; d: number; h: number; mi: number } {
  const p = fmtFor(tz).formatToParts(new Date(ms));
  const n = (t: string) => Number(p.find((x) => x.type === t)!.value);
  return { y: n('year'), m: n('month'), d: n('day'), h: n('hour') % 24, mi: n('minute') };
}

function offset(ms: number, tz: string): number {
  const p = fmtFor(tz).formatToParts(new Date(ms));
  const n = (t: string) => Number(p.find((x) => x.type === t)!.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour') % 24, n('minute'), n('second')) - Math.floor(ms / 1000) * 1000;
}

const two = (n: number) => String(n).padStart(2, '0');

/** The calendar day (YYYY-MM-DD) of an instant in a zone. */
export function dayKey(ms: number, tz: string): string {
  const z = zoned(ms, tz);
  return `${z.y}-${two(z.m)}-${two(z.d)}`;
}

/** The day `n` days after a day key. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + n));
  return `${t.getUTCFullYear()}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCDate())}`;
}

/** The instant of wall-clock `minutes` after midnight of `day` in a zone (minutes may run past 24 h). */
export function at(day: string, minutes: number, tz: string): number {
  const [y, m, d] = day.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d, 0, minutes);
  let t = guess - offset(guess, tz);
  t = guess - offset(t, tz);
  return t;
}

/** Wall-clock minutes after midnight of an instant in a zone. */
export function minuteOfDay(ms: number, tz: string): number {
  const z = zoned(ms, tz);
  return z.h * 60 + z.mi;
}

/** "HH:MM" of an instant in a zone (for time inputs). */
export function hhmm(ms: number, tz: string): string {
  const z = zoned(ms, tz);
  return `${two(z.h)}:${two(z.mi)}`;
}

/** "YYYY-MM-DDTHH:MM" of an instant in a zone (for datetime-local inputs). */
export function localInput(ms: number, tz: string): string {
  return `${dayKey(ms, tz)}T${hhmm(ms, tz)}`;
}

/** The instant of a datetime-local value read in a zone; NaN when unreadable. */
export function fromLocalInput(v: string, tz: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/.exec(v);
  return m ? at(m[1], Number(m[2]) * 60 + Number(m[3]), tz) : NaN;
}

/** Rounds minutes to the snap step. */
export const snap = (minutes: number) => Math.round(minutes / SNAP_MIN) * SNAP_MIN;

/** True when the zone name is one this browser knows. */
export function knownZone(tz: string): boolean {
  try { new Intl.DateTimeFormat('en', { timeZone: tz }); return true; } catch { return false; }
}
