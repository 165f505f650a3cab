/** Guide: a week grid per channel, add and remove programmes, publish a staged draft (review mode). */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';
import { ChannelPick } from './channel-pick';
import type { ChannelView } from './live';

interface Programme { id: string; title: string; start_at: string; end_at: string; draft?: boolean; series: string | null }
const DAY = 86_400_000;
const startOfDay = (t: number) => { const d = new Date(t); d.setHours(0, 0, 0, 0); return d.getTime(); };
const two = (n: number) => String(n).padStart(2, '0');
const dateInput = (t: number) => { const d = new Date(t); return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`; };

/** The guide page. */
export function Guide() {
  const { t, lang, can, api, get } = useStudio();
  const [ch, setCh] = useState<ChannelView | null>(null);
  const [week, setWeek] = useState(() => startOfDay(Date.now()));
  const [form, setForm] = useState({ title: '', day: dateInput(Date.now()), from: '20:00', to: '21:00' });
  const [err, setErr] = useState<string | null>(null);
  const base = ch ? `/v1/channels/${encodeURIComponent(ch.id)}` : '';
  const progs = useLoad(async () => (ch ? (await get<{ items: Programme[] }>(`${base}/programmes?from=${new Date(week).toISOString()}&to=${new Date(week + 7 * DAY).toISOString()}`)).items : []), [ch?.id, week]);
  const draft = useLoad(async () => (ch ? (await get<{ items: Programme[] }>(`${base}/guide/draft`)).items : []), [ch?.id, progs.data]);
  const dayFmt = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', { weekday: 'short', day: 'numeric', month: 'short' });
  const timeFmt = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', { hour: '2-digit', minute: '2-digit' });
  const run = async (fn: () => Promise<unknown>) => { setErr(null); try { await fn(); progs.reload(); } catch (e) { setErr(errorWords(e)); } };
  const add = (e: Event) => {
    e.preventDefault();
    const start = new Date(`${form.day}T${form.from}`);
    let end = new Date(`${form.day}T${form.to}`);
    if (end <= start) end = new Date(end.getTime() + DAY); // past midnight
    void run(async () => { await api('POST', `${base}/programmes`, { title: form.title, start_at: start.toISOString(), end_at: end.toISOString() }); setForm({ ...form, title: '' }); });
  };
  const days = Array.from({ length: 7 }, (_, i) => week + i * DAY);
  const all = [...(progs.data ?? []), ...(draft.data ?? []).map((d) => ({ ...d, draft: true }))];
  return (
    <>
      <PageHead title={t('nav_guide')}>
        <ChannelPick value={ch?.id ?? null} onPick={setCh} />
        <div class="seg" role="group" aria-label={t('week')}>
          <button type="button" onClick={() => setWeek(week - 7 * DAY)} aria-label={t('prev_week')}>{lang === 'he' ? '→' : '←'}</button>
          <button type="button" onClick={() => setWeek(startOfDay(Date.now()))}>{t('today')}</button>
          <button type="button" onClick={() => setWeek(week + 7 * DAY)} aria-label={t('next_week')}>{lang === 'he' ? '←' : '→'}</button>
        </div>
      </PageHead>
      <Problem error={err ?? progs.error} />
      {!ch ? <Empty>{t('no_channels')} <a href="/studio/live">{t('create_channel')}</a></Empty> : progs.loading && !progs.data ? <Loading /> : (
        <div class="week" id="guide-grid">
          {days.map((d) => (
            <section class="day" aria-label={dayFmt.format(d)}>
              <h2>{dayFmt.format(d)}</h2>
              {all.filter((p) => { const s = Date.parse(p.start_at); return s >= d && s < d + DAY; }).sort((a, b) => a.start_at.localeCompare(b.start_at)).map((p) => (
                <div class={`prog${p.draft ? ' draft' : ''}`}>
                  <time>{timeFmt.format(new Date(p.start_at))}–{timeFmt.format(new Date(p.end_at))}</time>
                  <strong>{p.title}</strong>{p.draft && <small class="badge b-pending">{t('draft')}</small>}
                  {can('channels:write') && !p.draft && <button type="button" class="small link" aria-label={`${t('delete')} ${p.title}`} onClick={() => { if (confirm(t('confirm_delete'))) void run(() => api('DELETE', `${base}/programmes/${p.id}`)); }}>✕</button>}
                </div>
              ))}
            </section>
          ))}
        </div>
      )}
      {ch && (draft.data?.length ?? 0) > 0 && (
        <div class="once" role="status"><p>{t('draft_waiting', { n: draft.data!.length })}</p>
          <button type="button" class="primary" onClick={() => run(() => api('POST', `${base}/guide/publish`))}>{t('publish_guide')}</button></div>
      )}
      {ch && (can('channels:write') || can('epg:write')) && (
        <section class="panel">
          <h2>{t('add_programme')}</h2>
          <form onSubmit={add} class="inline-form" id="programme-form">
            <Field label={t('title')}><input id="prog-title" required maxLength={500} value={form.title} onInput={(e) => setForm({ ...form, title: e.currentTarget.value })} /></Field>
            <Field label={t('day')}><input type="date" id="prog-day" required value={form.day} onInput={(e) => setForm({ ...form, day: e.currentTarget.value })} /></Field>
            <Field label={t('from')}><input type="time" id="prog-from" required value={form.from} onInput={(e) => setForm({ ...form, from: e.currentTarget.value })} /></Field>
            <Field label={t('to')}><input type="time" id="prog-to" required value={form.to} onInput={(e) => setForm({ ...form, to: e.currentTarget.value })} /></Field>
            <button type="submit" class="primary">{t('add')}</button>
          </form>
        </section>
      )}
    </>
  );
}
