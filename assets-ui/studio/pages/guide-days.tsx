/** Copy a day onto another day (or every day of a range) and shift a day by N minutes (channel time zone). */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Field, Problem } from '../ui';
import { readTyped, TypedField, typedOk } from './guide-fields';
import { addDays } from './guide-time';

interface DayAnswer { staged: boolean; programmes: number }

/** The day tools panel; `onDone` runs after each applied change. */
export function DayTools({ base, today, onDone }: { base: string; today: string; onDone: (words: string) => void }) {
  const { t, api } = useStudio();
  const [cp, setCp] = useState({ from: today, to: addDays(today, 1), through: '' });
  const [sh, setSh] = useState({ day: today, minutes: '30' });
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [check, setCheck] = useState(false); // a form was sent with a day it cannot read
  /** True when every typed day reads; else the fields and the panel say what to fix. */
  const readable = (ok: boolean) => { setCheck(!ok); if (!ok) setErr(t('g_fix_fields')); return ok; };
  const run = async (fn: () => Promise<string>) => {
    setBusy(true); setErr(null);
    try { onDone(await fn()); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  const copy = (e: Event) => {
    e.preventDefault();
    if (!readable(typedOk('day', cp.from) && typedOk('day', cp.to) && typedOk('day', cp.through, true))) return;
    const from = readTyped('day', cp.from)!.day, to = readTyped('day', cp.to)!.day, through = readTyped('day', cp.through)?.day ?? '';
    void run(async () => {
      const last = through && through > to ? through : to;
      let days = 0, n = 0, staged = false;
      for (let d = to; d <= last && days < 31; d = addDays(d, 1)) {
        if (d === from) continue;
        const r = await api<DayAnswer>('POST', `${base}/guide/copy`, { from_day: from, to_day: d });
        days++; n = r.programmes; staged ||= r.staged;
      }
      return t(staged ? 'g_copied_staged' : 'g_copied', { n, days });
    });
  };
  const shift = (e: Event) => {
    e.preventDefault();
    if (!readable(typedOk('day', sh.day))) return;
    const day = readTyped('day', sh.day)!.day;
    void run(async () => {
      const r = await api<DayAnswer>('POST', `${base}/guide/shift`, { day, minutes: Number(sh.minutes) });
      return t(r.staged ? 'g_shifted_staged' : 'g_shifted', { n: r.programmes, m: sh.minutes });
    });
  };
  return (
    <section class="panel" aria-labelledby="days-h">
      <h2 id="days-h">{t('g_day_tools')}</h2>
      <Problem error={err} />
      <form class="inline-form" id="copy-form" onSubmit={copy}>
        <TypedField id="copy-from" kind="day" label={t('g_copy_from')} check={check} value={cp.from} onValue={(v) => setCp({ ...cp, from: v })} />
        <TypedField id="copy-to" kind="day" label={t('g_copy_to')} check={check} value={cp.to} onValue={(v) => setCp({ ...cp, to: v })} />
        <TypedField id="copy-through" kind="day" optional label={t('g_copy_through')} hint={t('g_copy_through_hint')} check={check} value={cp.through} onValue={(v) => setCp({ ...cp, through: v })} />
        <button type="submit" disabled={busy}>{t('g_copy_day')}</button>
      </form>
      <form class="inline-form" id="shift-form" onSubmit={shift}>
        <TypedField id="shift-day" kind="day" label={t('day')} check={check} value={sh.day} onValue={(v) => setSh({ ...sh, day: v })} />
        <Field label={t('g_shift_by')} hint={t('g_shift_hint')}><input type="number" id="shift-minutes" dir="ltr" required step={5} min={-1440} max={1440} value={sh.minutes} onInput={(e) => setSh({ ...sh, minutes: e.currentTarget.value })} /></Field>
        <button type="submit" disabled={busy}>{t('g_shift_day')}</button>
      </form>
    </section>
  );
}
