/** Offset of an IANA zone from UTC at instant `ms`, in ms (positive east of Greenwich). */
export function zoneOffsetMs(ms: number, tz: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms));
  const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const asUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour') % 24, n('minute'), n('second'));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** [start, end) in epoch ms of a calendar day (YYYY-MM-DD) in a time zone (DST days are 23 or 25 hours). */
export function dayRange(day: string, tz: string): [number, number] {
  const [y, m, d] = day.split('-').map(Number);
  const midnight = (yy: number, mm: number, dd: number) => {
    const guess = Date.UTC(yy, mm - 1, dd);
    let t = guess - zoneOffsetMs(guess, tz);
    t = guess - zoneOffsetMs(t, tz);
    return t;
  };
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  return [midnight(y, m, d), midnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate())];
}

