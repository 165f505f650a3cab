/** Calendar months of billing usage (UTC), `YYYY-MM`. */
import { invalid } from '../../kernel/errors';

/** One month: its label and [from, to) in ms. */
export interface Month { label: string; from: number; to: number }

const LABEL = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** Pure: the month `label` names; 422 naming `field` when it is not `YYYY-MM` (years 2000-2999). */
export function parseMonth(field: string, label: string): Month {
  const m = LABEL.exec(label);
  if (!m || Number(m[1]) < 2000 || Number(m[1]) > 2999) throw invalid(field, 'must be a month as YYYY-MM');
  return monthAt(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
}

/** Pure: the month holding instant `ms`. */
export function monthAt(ms: number): Month {
  const d = new Date(ms);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { label: `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`, from, to };
}

/** Pure: the months from `first` to `last` inclusive, oldest first. */
export function monthsBetween(first: Month, last: Month): Month[] {
  const out: Month[] = [];
  for (let m = first; m.from <= last.from; m = monthAt(m.to)) out.push(m);
  return out;
}

/** Pure: the length of [a, b) inside [from, to) in ms (0 when they do not meet). */
export function overlapMs(a: number, b: number, from: number, to: number): number {
  return Math.max(0, Math.min(b, to) - Math.max(a, from));
}
