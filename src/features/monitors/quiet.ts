/** Quiet hours and snooze: whether a monitor's notifications are muted at an instant (pure, Intl time zones). */

/** Quiet hours of a monitor as stored. */
export interface Quiet { from: string; to: string; tz: string; allow_critical: boolean }

/** True when `tz` is an IANA time zone Intl knows. */
export function validZone(tz: string): boolean {
  try { new Intl.DateTimeFormat('en-GB', { timeZone: tz }); return true; } catch { return false; }
}

/** Minutes after local midnight in `tz` at `ms` (formatters cached in `cache`, one per zone). */
export function localMinutes(ms: number, tz: string, cache?: Map<string, Intl.DateTimeFormat>): number {
  let f = cache?.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    cache?.set(tz, f);
  }
  let h = 0, m = 0;
  for (const p of f.formatToParts(ms)) {
    if (p.type === 'hour') h = Number(p.value) % 24;
    else if (p.type === 'minute') m = Number(p.value);
  }
  return h * 60 + m;
}

const mins = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** True when `ms` falls within [from, to) local time; a window past midnight (22:00-07:00) wraps; from = to is never. */
export function inQuietHours(q: Quiet, ms: number, cache?: Map<string, Intl.DateTimeFormat>): boolean {
  const from = mins(q.from), to = mins(q.to);
  if (from === to) return false;
  const x = localMinutes(ms, q.tz, cache);
  return from < to ? x >= from && x < to : x >= from || x < to;
}

/** Why notifications are muted now: `snooze`, `quiet_hours` (critical passes with allow_critical), or null. */
export function muteReason(m: { snooze_until: number | null; quiet: Quiet | null }, severity: string, ms: number, cache?: Map<string, Intl.DateTimeFormat>): 'snooze' | 'quiet_hours' | null {
  if (m.snooze_until !== null && ms < m.snooze_until) return 'snooze';
  if (m.quiet && !(severity === 'critical' && m.quiet.allow_critical) && inQuietHours(m.quiet, ms, cache)) return 'quiet_hours';
  return null;
}
