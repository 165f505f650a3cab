/**
 * Typed date and time fields of the guide pages: a day "YYYY-MM-DD", a time "HH:MM" (24-hour) or both, the same in
 * every language (a native date or time input shows the browser's own format, e.g. US `11/29/2026, 08:00 PM` in a
 * Hebrew studio), each read back under it in the UI language's date format, or a clear error when it cannot be read.
 */
import { useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import type { Lang } from '../i18n';
import { Field } from '../ui';
import { parseDay, parseHhmm } from './guide-time';

/** What a field holds. */
export type TypedKind = 'day' | 'time' | 'datetime';
const SHAPE: Record<TypedKind, string> = { day: 'YYYY-MM-DD', time: 'HH:MM', datetime: 'YYYY-MM-DD HH:MM' };
const EXAMPLE: Record<TypedKind, string> = { day: '2026-11-29', time: '20:00', datetime: '2026-11-29 20:00' };

/** The wall-clock day and minute of a typed value (minute 0 for a day, day '' for a time); null when unreadable. */
export function readTyped(kind: TypedKind, v: string): { day: string; min: number } | null {
  if (kind === 'day') { const d = parseDay(v); return d ? { day: d, min: 0 } : null; }
  if (kind === 'time') { const m = parseHhmm(v); return m === null ? null : { day: '', min: m }; }
  const m = /^\s*(\S+)[T ]+(\S+)\s*$/.exec(v);
  const d = m ? parseDay(m[1]) : null, mi = m ? parseHhmm(m[2]) : null;
  return d && mi !== null ? { day: d, min: mi } : null;
}

/** True when a typed value can be read (an empty optional field counts as readable). */
export const typedOk = (kind: TypedKind, v: string, optional = false) => (optional && !v.trim()) || readTyped(kind, v) !== null;

/** A wall-clock day (and minute) in the UI language's date format, e.g. "יום ראשון, 29 בנובמבר 2026, 20:00". */
export function wallWords(lang: Lang, day: string, min: number | null): string {
  const loc = lang === 'he' ? 'he-IL' : 'en-GB';
  const at = new Date(`${day}T12:00:00Z`).getTime() + ((min ?? 720) - 720) * 60_000;
  const opts: Intl.DateTimeFormatOptions = min === null ? { dateStyle: 'full', timeZone: 'UTC' } : { dateStyle: 'full', timeStyle: 'short', hourCycle: 'h23', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(loc, opts).format(at);
}

/**
 * A typed date/time field: a text input (left-to-right, its shape as placeholder), read back in words under it; the
 * error shows once the field is left or `check` is set (the form was submitted with it unreadable).
 */
export function TypedField({ id, kind, label, hint, value, onValue, optional = false, check = false }: {
  id: string; kind: TypedKind; label: string; hint?: string; value: string; onValue: (v: string) => void; optional?: boolean; check?: boolean;
}) {
  const { t, lang } = useStudio();
  const [left, setLeft] = useState(false);
  const r = readTyped(kind, value);
  const bad = !typedOk(kind, value, optional) && (left || check);
  const words = bad ? t(`g_bad_${kind}`, { shape: SHAPE[kind], example: EXAMPLE[kind] }) : r && kind !== 'time' ? wallWords(lang, r.day, kind === 'day' ? null : r.min) : '';
  return (
    <Field label={label} hint={hint}>
      <input id={id} type="text" dir="ltr" class="gtyped" autoComplete="off" spellcheck={false} size={SHAPE[kind].length + 1} placeholder={SHAPE[kind]}
        aria-invalid={bad} style={bad ? { borderColor: 'var(--bad)' } : undefined} aria-describedby={`${id}-read`} value={value} onInput={(e) => onValue(e.currentTarget.value)} onBlur={() => setLeft(true)} />
      <small id={`${id}-read`} class={bad ? 'gtyped-bad' : 'gtyped-read'} style={bad ? { color: 'var(--bad)' } : undefined} role={bad ? 'alert' : undefined}>{words}</small>
    </Field>
  );
}
