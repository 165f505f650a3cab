/**
 * Guide: a week grid per channel in the channel's time zone (the tenant's when the channel's is unknown here; a channel
 * in another zone than the tenant's says so and can take the tenant's). Edit a programme (click), drag or resize it (or
 * move it with the keyboard), add and remove programmes, import XMLTV, copy and shift days; in review mode the staged
 * draft is shown against the published guide before publishing; every change that goes live is a version, which can
 * be rolled back.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio, type Brand } from '../ctx';
import { Empty, Field, Loading, PageHead, Problem } from '../ui';
import { ChannelPick } from './channel-pick';
import type { ChannelView } from './live';
import { DayTools } from './guide-days';
import { EditProgramme, type ProgPatch } from './guide-edit';
import { readTyped, TypedField } from './guide-fields';
import { WeekGrid, type MoveFn } from './guide-grid';
import { ImportXmltv } from './guide-import';
import { applyDrafts, diff, draftRange, fromView, type Draft, type Prog, type ProgrammeView } from './guide-model';
import { Review } from './guide-review';
import { addDays, knownZone, zone } from './guide-time';
import { Versions } from './guide-versions';
import { PartnersNav } from './guide-sources';

type GuideChannel = ChannelView & { timezone?: string };
type TenantZone = Brand & { time_zone?: string };
interface Settings { review_mode: boolean; lock_hours: number }
interface Data { published: Prog[]; around: Prog[]; drafts: Draft[]; settings: Settings }
const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;

/** The guide page. */
export function Guide() {
  const { t, lang, can, api, get, brand } = useStudio();
  const [chPicked, setCh] = useState<GuideChannel | null>(null);
  const [zoneSet, setZoneSet] = useState<Map<string, string>>(new Map()); // zones changed here (the picker's list is older)
  const ch = chPicked && zoneSet.has(chPicked.id) ? { ...chPicked, timezone: zoneSet.get(chPicked.id) } : chPicked;
  const tenantTz = (brand as TenantZone | null)?.time_zone;
  const tz = ch?.timezone && knownZone(ch.timezone) ? ch.timezone : tenantTz && knownZone(tenantTz) ? tenantTz : 'UTC';
  const z = useMemo(() => zone(tz), [tz]);
  const today = z.dayKey(Date.now());
  const [weekSet, setWeek] = useState<string | null>(null);
  const week = weekSet ?? today;
  const [data, setData] = useState<Data | null>(null);
  const [loadErr, setLoadErr] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [over, setOver] = useState<Map<string, { s: number; e: number }>>(new Map());
  const [focusId, setFocusId] = useState<string | null>(null);
  const [editing, setEditing] = useState<Prog | null>(null);
  const [busy, setBusy] = useState(false);
  const [tick, setTick] = useState(0);
  const [form, setForm] = useState({ title: '', day: today, from: '20:00', to: '21:00' });
  const [formCheck, setFormCheck] = useState(false); // the add form was sent with a date or time it cannot read
  const seq = useRef(0);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const inflight = useRef(0);
  const base = ch ? `/v1/channels/${encodeURIComponent(ch.id)}` : '';
  const canWrite = can('channels:write') || can('epg:write');
  const canPublish = can('channels:write') || can('epg:publish');
  const days = Array.from({ length: 7 }, (_, i) => addDays(week, i));
  const from = z.at(days[0], 0), to = z.at(addDays(week, 7), 0);

  /** Loads the week, the staged drafts (and the published programmes they touch) and the settings. */
  const refresh = async (): Promise<void> => {
    if (!ch) return;
    const n = ++seq.current;
    try {
      const list = (a: number, b: number) => get<{ items: ProgrammeView[] }>(`${base}/programmes?from=${iso(a)}&to=${iso(b)}`).then((r) => r.items.map(fromView));
      const [published, drafts, settings] = await Promise.all([list(from, to), get<{ items: Draft[] }>(`${base}/guide/draft`).then((r) => r.items), get<Settings>(`${base}/guide/settings`)]);
      const r = draftRange(drafts);
      const lo = r ? Math.min(r[0], from) : from, hi = r ? Math.min(Math.max(r[1], to), lo + 31 * DAY) : to;
      const around = r && (lo < from || hi > to) ? await list(lo, hi) : published;
      if (n === seq.current) { setData({ published, around, drafts, settings }); setLoadErr(null); }
    } catch (e) { if (n === seq.current) setLoadErr(errorWords(e)); }
  };
  useEffect(() => { setData(null); }, [ch?.id]); // another channel: nothing of the last one stays on screen
  useEffect(() => { void refresh(); }, [ch?.id, week, tz]); // another week keeps the panels (and half-filled forms) while it loads
  useEffect(() => { setForm((f) => ({ ...f, day: today })); }, [tz]); // the add form starts on the channel's today
  const changed = () => setTick((x) => x + 1); // a change went live or was staged: the versions panel reloads

  const drafted = useMemo(() => (data ? applyDrafts(data.published, data.drafts) : []), [data]);
  const changes = useMemo(() => (data?.drafts.length ? diff(data.around, applyDrafts(data.around, data.drafts)) : []), [data]);
  const marks = new Map(changes.filter((c) => c.after).map((c) => [c.after!.id, c.mark]));
  const ghosts = changes.filter((c) => c.mark === 'removed').map((c) => c.before!);
  const shown = drafted.map((p) => { const o = over.get(p.id); return o ? { ...p, start_ms: o.s, end_ms: o.e } : p; });

  const dayFmt = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  // The time range is a left-to-right isolate (U+2066…U+2069): in a Hebrew sentence it still reads 09:00–10:30.
  const whenWords = (s: number, e: number) => `${dayFmt.format(new Date(`${z.dayKey(s)}T12:00:00Z`))} \u2066${z.hhmm(s)}–${z.hhmm(e)}\u2069`;
  const say = (words: string) => { setNote(words); };

  /** Runs one change: clears the problem, shows the outcome, reloads. */
  const run = async (fn: () => Promise<string | void>) => {
    setErr(null); setBusy(true);
    try { const w = await fn(); if (w) say(w); } catch (e) { setErr(errorWords(e)); say(`${t('failed')} ${errorWords(e)}`); } finally { setBusy(false); await refresh(); setTick((x) => x + 1); }
  };

  /** Moves or resizes a programme: shown at once, PATCHed in order, put back where it was when the API refuses. */
  const move: MoveFn = (p, s, e, how) => {
    setOver((o) => new Map(o).set(p.id, { s, e }));
    setFocusId(how === 'key' ? p.id : null);
    const hit = shown.filter((x) => x.id !== p.id && x.start_ms < e && x.end_ms > s).map((x) => `“${x.title}”`);
    inflight.current++;
    chain.current = chain.current.then(async () => {
      try {
        const r = await api<{ draft?: boolean }>('PATCH', `${base}/programmes/${encodeURIComponent(p.id)}`, { start_at: iso(s), end_at: iso(e) });
        setErr(null);
        say([t(how === 'resize' ? 'g_resized' : 'g_moved', { title: p.title, when: whenWords(s, e) }), r?.draft ? t('g_staged_note') : '', hit.length ? t('g_overlap', { titles: hit.join(', ') }) : ''].filter(Boolean).join(' '));
      } catch (x) {
        setOver((o) => { const m = new Map(o); m.delete(p.id); return m; });
        setErr(errorWords(x));
        say(t('g_move_refused', { title: p.title, why: errorWords(x) }));
      } finally {
        if (--inflight.current === 0) { await refresh(); setOver(new Map()); changed(); }
      }
    });
  };

  const save = async (p: Prog, patch: ProgPatch) => {
    const r = await api<{ draft?: boolean }>('PATCH', `${base}/programmes/${encodeURIComponent(p.id)}`, patch);
    setEditing(null);
    say(`${t('g_saved', { title: patch.title ?? p.title })}${r?.draft ? ` ${t('g_staged_note')}` : ''}`);
    await refresh();
    changed();
  };
  const remove = async (p: Prog) => {
    await api('DELETE', `${base}/programmes/${encodeURIComponent(p.id)}`);
    setEditing(null);
    say(t('g_removed', { title: p.title }));
    await refresh();
    changed();
  };
  const add = (e: Event) => {
    e.preventDefault();
    const d = readTyped('day', form.day), fr = readTyped('time', form.from), tt = readTyped('time', form.to);
    if (!d || !fr || !tt) { setFormCheck(true); setErr(t('g_fix_fields')); return; }
    setFormCheck(false);
    const start = z.at(d.day, fr.min);
    let end = z.at(d.day, tt.min);
    if (end <= start) end = z.at(addDays(d.day, 1), tt.min); // past midnight
    void run(async () => {
      const r = await api<{ draft?: boolean }>('POST', `${base}/programmes`, { title: form.title, start_at: iso(start), end_at: iso(end) });
      setForm({ ...form, title: '' });
      return `${t('g_added', { title: form.title, when: whenWords(start, end) })}${r?.draft ? ` ${t('g_staged_note')}` : ''}`;
    });
  };
  const putSettings = (b: Partial<Settings>) => {
    if (data) setData({ ...data, settings: { ...data.settings, ...b } }); // the switch shows the choice at once; the reload puts it back on error
    void run(async () => { await api('PUT', `${base}/guide/settings`, b); });
  };

  /** Reads the channel's guide in the tenant's zone from now on (programmes keep their instants). */
  const adoptTenantZone = () => {
    if (!ch || !tenantTz) return;
    void run(async () => {
      await api('PATCH', `/v1/channels/${encodeURIComponent(ch.id)}`, { timezone: tenantTz });
      setZoneSet((m) => new Map(m).set(ch.id, tenantTz));
      return t('g_zone_changed', { tz: tenantTz });
    });
  };
  const nDrafts = data?.drafts.length ?? 0;
  return (
    <>
      <PageHead title={t('nav_guide')}>
        <PartnersNav />
        <ChannelPick value={ch?.id ?? null} onPick={(c) => setCh(c as GuideChannel)} />
        <div class="seg" role="group" aria-label={t('week')}>
          <button type="button" onClick={() => setWeek(addDays(week, -7))} aria-label={t('prev_week')}>{lang === 'he' ? '→' : '←'}</button>
          <button type="button" onClick={() => setWeek(today)}>{t('today')}</button>
          <button type="button" onClick={() => setWeek(addDays(week, 7))} aria-label={t('next_week')}>{lang === 'he' ? '←' : '→'}</button>
        </div>
      </PageHead>
      <Problem error={err ?? loadErr} onRetry={err ? undefined : () => void refresh()} />
      {!ch ? <Empty>{t('no_channels')} <a href="/studio/live">{t('create_channel')}</a></Empty> : !data ? <Loading /> : (
        <>
          <div class="gbar">
            <span class="gzone"><span class="muted" id="guide-zone">{t('g_zone', { tz })}</span>
              {tenantTz && knownZone(tenantTz) && tenantTz !== tz && <>
                <span class="badge b-pending" id="guide-zone-other">{t('g_zone_tenant', { tz: tenantTz })}</span>
                {can('channels:write') && <button type="button" class="small" id="guide-zone-use" disabled={busy} onClick={adoptTenantZone}>{t('g_zone_use', { tz: tenantTz })}</button>}
              </>}
            </span>
            {can('channels:write') && <label class="check"><input type="checkbox" id="review-mode" checked={data.settings.review_mode} disabled={busy} onChange={(e) => putSettings({ review_mode: e.currentTarget.checked })} />{t('g_review_mode')}</label>}
            {data.settings.lock_hours > 0 && <span class="badge b-pending">{t('g_locked', { n: data.settings.lock_hours })}</span>}
            {nDrafts > 0 && <span class="badge b-pending" id="draft-count">{t('draft_waiting', { n: nDrafts })}</span>}
          </div>
          {nDrafts > 0 && <Review changes={changes} z={z} busy={busy} canPublish={canPublish} canWrite={canWrite}
            onPublish={() => void run(async () => { const r = await api<{ version: number; changes: number }>('POST', `${base}/guide/publish`); return t('g_published', { v: r.version, n: r.changes }); })}
            onDiscard={() => { if (confirm(t('g_confirm_discard'))) void run(async () => { const r = await api<{ discarded: number }>('DELETE', `${base}/guide/draft`); return t('g_discarded', { n: r.discarded }); }); }} />}
          <WeekGrid days={days} z={z} progs={shown} marks={marks} ghosts={ghosts} canEdit={canWrite} focusId={focusId}
            onOpen={setEditing} onMove={move} onDelete={(p) => { if (confirm(t('confirm_delete'))) void run(() => remove(p)); }} />
          <p class="gnote" role="status" aria-live="polite" id="guide-live">{note}</p>
          <div class="grid2">
            {canWrite && <>
              <section class="panel">
                <h2>{t('add_programme')}</h2>
                <form onSubmit={add} class="inline-form" id="programme-form">
                  <Field label={t('title')}><input id="prog-title" required maxLength={500} value={form.title} onInput={(e) => setForm({ ...form, title: e.currentTarget.value })} /></Field>
                  <TypedField id="prog-day" kind="day" label={t('day')} check={formCheck} value={form.day} onValue={(v) => setForm({ ...form, day: v })} />
                  <TypedField id="prog-from" kind="time" label={t('from')} check={formCheck} value={form.from} onValue={(v) => setForm({ ...form, from: v })} />
                  <TypedField id="prog-to" kind="time" label={t('to')} check={formCheck} value={form.to} onValue={(v) => setForm({ ...form, to: v })} />
                  <button type="submit" class="primary" disabled={busy}>{t('add')}</button>
                </form>
                <p class="muted small-note" id="programme-form-zone">{t('g_zone_note', { tz })}</p>
              </section>
              <DayTools base={base} today={today} onDone={(w) => { say(w); void refresh(); changed(); }} />
              <ImportXmltv base={base} onDone={() => { void refresh(); changed(); }} />
            </>}
            <Versions base={base} tick={tick} canPublish={canPublish} onRolledBack={(w) => { say(w); void refresh(); }} />
          </div>
          {editing && <EditProgramme p={editing} z={z} canEdit={canWrite} onClose={() => setEditing(null)}
            onSave={(patch) => save(editing, patch)} onDelete={() => remove(editing)} />}
        </>
      )}
    </>
  );
}
