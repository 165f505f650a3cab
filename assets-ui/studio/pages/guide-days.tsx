/** Copy a day onto another day (or every day of a range) and shift a day by N minutes (channel time zone). */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Field, Problem } from '../ui';
import { addDays } from './guide-time';

interface DayAnswer { staged: boolean; programmes: number }

/** The day tools panel; `onDone` runs after each applied change. */
export function DayTools({ base, today, onDone }: { base: string; today: string; onDone: (words: string) => void }) {
  const { t, api } = useStudio();
  const [cp, setCp] = useState({ from: today, to: addDays(today, 1), through: '' });
  const [sh, setSh] = useState({ day: today, minutes: '30' });
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<string>) => {
    setBusy(true); setErr(null);
    try { onDone(await fn()); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  const copy = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const last = cp.through && cp.through > cp.to ? cp.through : cp.to;
      let days = 0, n = 0, staged = false;
      for (let d = cp.to; d <= last && days < 31; d = addDays(d, 1)) {
        if (d === cp.from) continue;
        const r = await api<DayAnswer>('POST', `${base}/guide/copy`, { from_day: cp.from, to_day: d });
        days++; n = r.programmes; staged ||= r.staged;
      }
      return t(staged ? 'g_copied_staged' : 'g_copied', { n, days });
    });
  };
  const shift = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const r = await api<DayAnswer>('POST', `${base}/guide/shift`, { day: sh.day, minutes: Number(sh.minutes) });
      return t(r.staged ? 'g_shifted_staged' : 'g_shifted', { n: r.programmes, m: sh.minutes });
    });
  };
  return (
    <section class="panel" aria-labelledby="days-h">
      <h2 id="days-h">{t('g_day_tools')}</h2>
      <Problem error={err} />
      <form class="inline-form" id="copy-form" onSubmit={copy}>
        <Field label={t('g_copy_from')}><input type="date" id="copy-from" required value={cp.from} onInput={(e) => setCp({ ...cp, from: e.currentTarget.value })} /></Field>
        <Field label={t('g_copy_to')}><input type="date" id="copy-to" required value={cp.to} onInput={(e) => setCp({ ...cp, to: e.currentTarget.value })} /></Field>
        <Field label={t('g_copy_through')} hint={t('g_copy_through_hint')}><input type="date" id="copy-through" min={cp.to} value={cp.through} onInput={(e) => setCp({ ...cp, through: e.currentTarget.value })} /></Field>
        <button type="submit" disabled={busy}>{t('g_copy_day')}</button>
      </form>
      <form class="inline-form" id="shift-form" onSubmit={shift}>
        <Field label={t('day')}><input type="date" id="shift-day" required value={sh.day} onInput={(e) => setSh({ ...sh, day: e.currentTarget.value })} /></Field>
        <Field label={t('g_shift_by')} hint={t('g_shift_hint')}><input type="number" id="shift-minutes" dir="ltr" required step={5} min={-1440} max={1440} value={sh.minutes} onInput={(e) => setSh({ ...sh, minutes: e.currentTarget.value })} /></Field>
        <button type="submit" disabled={busy}>{t('g_shift_day')}</button>
      </form>
    </section>
  );
}
