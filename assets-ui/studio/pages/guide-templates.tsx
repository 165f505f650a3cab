/**
 * Schedule templates: a week grid editor (slots per weekday: start, length, title), saved as a template; applied to a
 * channel and a range of days it becomes a draft of the guide, which opens in the week view for review.
 */
import { useEffect, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { navigate } from '../router';
import { Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';
import type { ChannelView } from './live';
import { PartnersNav } from './guide-sources';

interface Slot { weekday: number; start: string; duration_minutes: number; title: string; series?: string | null }
interface Template { id: string; name: string; slots: Slot[] }
const DAYS = [1, 2, 3, 4, 5, 6, 7];
const dayKey = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const endOf = (s: Slot) => { const m = Number(s.start.slice(0, 2)) * 60 + Number(s.start.slice(3)) + s.duration_minutes; return `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`; };

/** The templates page. */
export function GuideTemplates() {
  const { t, lang, api, get, can } = useStudio();
  const list = useLoad(() => get<{ items: Template[] }>('/v1/guide/templates'), []);
  const channels = useLoad(() => get<{ items: ChannelView[] }>('/v1/channels?limit=100'), []);
  const [cur, setCur] = useState<Template>({ id: '', name: '', slots: [] });
  const [slot, setSlot] = useState({ weekday: 1, start: '20:00', minutes: '60', title: '' });
  const today = dayKey(new Date());
  const [apply, setApply] = useState({ channel: '', from: today, to: dayKey(new Date(Date.now() + 6 * 86_400_000)), mode: 'fill' });
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const canWrite = can('channels:write') || can('epg:write');
  useEffect(() => { if (!cur.id && list.data?.items.length) setCur(list.data.items[0]); }, [list.data]);
  const wd = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', { weekday: 'long', timeZone: 'UTC' });
  const dayName = (n: number) => wd.format(new Date(Date.UTC(2024, 0, n))); // 2024-01-01 was a Monday
  const run = async (fn: () => Promise<void>) => {
    setBusy(true); setErr(null);
    try { await fn(); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  const addSlot = (e: Event) => {
    e.preventDefault();
    if (!slot.title.trim()) return;
    setCur({ ...cur, slots: [...cur.slots, { weekday: slot.weekday, start: slot.start, duration_minutes: Number(slot.minutes) || 60, title: slot.title.trim() }].sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start)) });
    setSlot({ ...slot, title: '' });
  };
  const save = () => run(async () => {
    const body = { name: cur.name.trim() || t('gp_new_template'), slots: cur.slots };
    const r = cur.id ? await api<Template>('PUT', `/v1/guide/templates/${cur.id}`, body) : await api<Template>('POST', '/v1/guide/templates', body);
    setCur(r); list.reload(); setNote(t('gp_saved'));
  });
  const applyIt = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const ch = channels.data?.items.find((c) => c.id === apply.channel) ?? channels.data?.items[0];
      if (!ch || !cur.id) return;
      const r = await api<{ programmes: number; skipped: number }>('POST', `/v1/guide/templates/${cur.id}/apply`, { channel_id: ch.id, from_day: apply.from, to_day: apply.to, mode: apply.mode });
      setNote(t('gp_applied', { n: r.programmes, skipped: r.skipped }));
      navigate(`/guide?channel=${encodeURIComponent(ch.slug)}`);
    });
  };
  return (
    <>
      <PageHead title={t('gp_templates_title')}><PartnersNav /></PageHead>
      <p class="muted">{t('gp_templates_intro')}</p>
      <Problem error={err ?? list.error} />
      <p class="gnote" role="status" aria-live="polite" id="templates-live">{note}</p>
      {list.loading && !list.data ? <Loading /> : (
        <>
          <div class="gbar">
            <label class="pick"><span>{t('gp_template')}</span>
              <select id="template-pick" value={cur.id} onChange={(e) => { const x = list.data?.items.find((i) => i.id === e.currentTarget.value); setCur(x ?? { id: '', name: '', slots: [] }); }}>
                <option value="">{t('gp_new_template')}</option>
                {(list.data?.items ?? []).map((x) => <option value={x.id}>{x.name}</option>)}
              </select></label>
            {!list.data?.items.length && <span class="muted">{t('gp_no_templates')}</span>}
          </div>
          <section class="panel wide" aria-labelledby="tpl-week-h">
            <h2 id="tpl-week-h">{cur.name || t('gp_new_template')}</h2>
            <div class="tpl-week" id="template-week">
              {DAYS.map((d) => (
                <div class="tpl-day" key={d}>
                  <h3>{dayName(d)}</h3>
                  {cur.slots.filter((s) => s.weekday === d).length === 0 ? <p class="muted">{t('gp_no_slots')}</p> : (
                    <ul class="plain">{cur.slots.map((s, i) => s.weekday === d && (
                      <li class="tpl-slot"><bdi dir="ltr">{s.start}–{endOf(s)}</bdi> <span>{s.title}</span>
                        {canWrite && <button type="button" class="small link" aria-label={t('gp_remove_slot', { title: s.title })} onClick={() => setCur({ ...cur, slots: cur.slots.filter((_, j) => j !== i) })}>×</button>}</li>
                    ))}</ul>
                  )}
                </div>
              ))}
            </div>
            {canWrite && <>
              <form class="inline-form" id="slot-form" onSubmit={addSlot}>
                <Field label={t('gp_weekday')}><select id="slot-day" value={String(slot.weekday)} onChange={(e) => setSlot({ ...slot, weekday: Number(e.currentTarget.value) })}>{DAYS.map((d) => <option value={String(d)}>{dayName(d)}</option>)}</select></Field>
                <Field label={t('gp_start')}><input id="slot-start" type="time" dir="ltr" required value={slot.start} onInput={(e) => setSlot({ ...slot, start: e.currentTarget.value })} /></Field>
                <Field label={t('gp_minutes')}><input id="slot-minutes" type="number" min={1} max={1440} value={slot.minutes} onInput={(e) => setSlot({ ...slot, minutes: e.currentTarget.value })} /></Field>
                <Field label={t('gp_slot_title')}><input id="slot-title" maxLength={500} value={slot.title} onInput={(e) => setSlot({ ...slot, title: e.currentTarget.value })} /></Field>
                <button type="submit" disabled={busy}>{t('gp_add_slot')}</button>
              </form>
              <div class="inline-form">
                <Field label={t('gp_template_name')}><input id="template-name" maxLength={200} value={cur.name} onInput={(e) => setCur({ ...cur, name: e.currentTarget.value })} /></Field>
                <button type="button" class="primary" id="template-save" disabled={busy || !cur.slots.length} onClick={() => void save()}>{t('gp_save_template')}</button>
                {cur.id && <button type="button" class="danger" disabled={busy} onClick={() => { if (confirm(t('confirm_delete'))) void run(async () => { await api('DELETE', `/v1/guide/templates/${cur.id}`); setCur({ id: '', name: '', slots: [] }); list.reload(); }); }}>{t('gp_delete_template')}</button>}
              </div>
            </>}
          </section>
          {canWrite && cur.id && (
            <section class="panel" aria-labelledby="tpl-apply-h">
              <h2 id="tpl-apply-h">{t('gp_apply')}</h2>
              <form class="inline-form" id="apply-form" onSubmit={applyIt}>
                <Field label={t('channel')}><select id="apply-channel" value={apply.channel || channels.data?.items[0]?.id || ''} onChange={(e) => setApply({ ...apply, channel: e.currentTarget.value })}>{(channels.data?.items ?? []).map((c) => <option value={c.id}>{c.name}</option>)}</select></Field>
                <Field label={t('gp_apply_from')}><input id="apply-from" type="date" dir="ltr" required value={apply.from} onInput={(e) => setApply({ ...apply, from: e.currentTarget.value })} /></Field>
                <Field label={t('gp_apply_to')}><input id="apply-to" type="date" dir="ltr" required value={apply.to} onInput={(e) => setApply({ ...apply, to: e.currentTarget.value })} /></Field>
                <fieldset class="events-pick gp-mode"><legend>{t('gp_apply_mode')}</legend>
                  <label><input type="radio" name="apply-mode" value="fill" checked={apply.mode === 'fill'} onChange={() => setApply({ ...apply, mode: 'fill' })} /> {t('gp_mode_fill')}</label>
                  <label><input type="radio" name="apply-mode" value="replace" checked={apply.mode === 'replace'} onChange={() => setApply({ ...apply, mode: 'replace' })} /> {t('gp_mode_replace')}</label>
                </fieldset>
                <button type="submit" class="primary" disabled={busy}>{t('gp_apply_btn')}</button>
              </form>
            </section>
          )}
          {!list.data?.items.length && !cur.slots.length && <Empty>{t('gp_no_templates')}</Empty>}
        </>
      )}
    </>
  );
}
