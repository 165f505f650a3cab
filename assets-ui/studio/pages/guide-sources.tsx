/**
 * EPG sources: each channel's XMLTV address fetched on a schedule (a change waits as a draft, or publishes at once),
 * with "fetch now" and the fetch log. Also the small navigation between the guide's sections (week, sources,
 * templates, destinations) that those pages share.
 */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { currentPath } from '../router';
import { Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';
import type { ChannelView } from './live';

/** Links between the guide's sections. */
export function PartnersNav() {
  const { t } = useStudio();
  const here = currentPath();
  const links: [string, Key][] = [['/guide', 'gp_nav_guide'], ['/guide/sources', 'gp_nav_sources'], ['/guide/templates', 'gp_nav_templates'], ['/guide/destinations', 'gp_nav_destinations']];
  return (
    <nav class="seg gp-nav" aria-label={t('gp_nav')}>
      {links.map(([href, key]) => <a class="button small" href={`/studio${href}`} aria-current={here === href ? 'page' : undefined}>{t(key)}</a>)}
    </nav>
  );
}

/** A logged status in words, coloured. */
export function StatusWord({ status }: { status: string | null }) {
  const { t } = useStudio();
  if (!status) return <span class="muted">{t('gp_never')}</span>;
  const cls = status === 'error' || status === 'failed' ? 'b-failed' : status === 'retrying' || status === 'staged' ? 'b-pending' : 'b-ready';
  const w = t(`gp_st_${status}` as Key);
  return <span class={`badge ${cls}`}>{w.startsWith('gp_st_') ? status : w}</span>;
}

interface Source { id: string; channel_id: string; url: string; xmltv_channel: string | null; interval_s: number; auto_publish: boolean; enabled: boolean; last_fetch_at: string | null; last_status: string | null; last_error: string | null }
interface FetchEntry { at: string; trigger: string; status: string; http_status: number | null; items: number; changed: boolean; version: number | null; error: string | null }

function FetchLog({ id, tick }: { id: string; tick: number }) {
  const { t, f, get } = useStudio();
  const log = useLoad(() => get<{ items: FetchEntry[] }>(`/v1/guide/sources/${id}/log?limit=20`), [id, tick]);
  if (log.loading && !log.data) return <Loading />;
  if (!log.data?.items.length) return <Empty>{t('gp_no_log')}</Empty>;
  return (
    <table class="table gp-log" id={`fetch-log-${id}`}><thead><tr><th>{t('when')}</th><th>{t('state')}</th><th>{t('gp_items')}</th><th>{t('gp_reason')}</th></tr></thead>
      <tbody>{log.data.items.map((e) => (
        <tr><td>{f.short(e.at)} <small class="muted">{t(e.trigger === 'manual' ? 'gp_trigger_manual' : 'gp_trigger_schedule')}</small></td><td><StatusWord status={e.status} /></td>
          <td>{e.items || '—'}</td><td class="gp-error">{e.error ? <bdi dir="ltr">{e.error}</bdi> : e.http_status ? <bdi dir="ltr">HTTP {e.http_status}</bdi> : '—'}</td></tr>
      ))}</tbody></table>
  );
}

/** The EPG sources page. */
export function GuideSources() {
  const { t, f, api, get, can } = useStudio();
  const channels = useLoad(() => get<{ items: ChannelView[] }>('/v1/channels?limit=100'), []);
  const list = useLoad(() => get<{ items: Source[] }>('/v1/guide/sources'), []);
  const [form, setForm] = useState({ channel_id: '', url: '', xmltv_channel: '', interval: '60', auto: false });
  const [open, setOpen] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const canWrite = can('channels:write') || can('epg:write');
  const chName = (id: string) => channels.data?.items.find((c) => c.id === id)?.name ?? id;
  const run = async (fn: () => Promise<void>) => {
    setBusy(true); setErr(null);
    try { await fn(); list.reload(); setTick((x) => x + 1); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  const add = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const channel_id = form.channel_id || channels.data?.items[0]?.id || '';
      await api('POST', '/v1/guide/sources', { channel_id, url: form.url.trim(), interval_minutes: Number(form.interval) || 60, auto_publish: form.auto, ...(form.xmltv_channel.trim() ? { xmltv_channel: form.xmltv_channel.trim() } : {}) });
      setForm({ ...form, url: '', xmltv_channel: '' });
    });
  };
  const fetchNow = (s: Source) => run(async () => {
    const r = await api<FetchEntry>('POST', `/v1/guide/sources/${s.id}/fetch`);
    const w = t(`gp_st_${r.status}` as Key);
    setNote(t('gp_fetched', { status: w.startsWith('gp_st_') ? r.status : w }) + (r.error ? ` ${r.error}` : ''));
    setOpen(s.id);
  });
  return (
    <>
      <PageHead title={t('gp_sources_title')}><PartnersNav /></PageHead>
      <p class="muted">{t('gp_sources_intro')}</p>
      <Problem error={err ?? list.error} />
      <p class="gnote" role="status" aria-live="polite" id="sources-live">{note}</p>
      {canWrite && (
        <section class="panel" aria-labelledby="add-source-h">
          <h2 id="add-source-h">{t('gp_add_source')}</h2>
          <form class="inline-form" id="source-form" onSubmit={add}>
            <Field label={t('channel')}><select id="source-channel" value={form.channel_id || channels.data?.items[0]?.id || ''} onChange={(e) => setForm({ ...form, channel_id: e.currentTarget.value })}>
              {(channels.data?.items ?? []).map((c) => <option value={c.id}>{c.name}</option>)}</select></Field>
            <Field label={t('gp_source_url')}><input id="source-url" type="url" dir="ltr" required value={form.url} placeholder="https://…/epg.xml" onInput={(e) => setForm({ ...form, url: e.currentTarget.value })} /></Field>
            <Field label={t('gp_xml_channel')}><input id="source-xmltv" dir="ltr" maxLength={200} value={form.xmltv_channel} onInput={(e) => setForm({ ...form, xmltv_channel: e.currentTarget.value })} /></Field>
            <Field label={t('gp_interval')}><input id="source-interval" type="number" min={1} max={1440} value={form.interval} onInput={(e) => setForm({ ...form, interval: e.currentTarget.value })} /></Field>
            <label class="check"><input type="checkbox" id="source-auto" checked={form.auto} onChange={(e) => setForm({ ...form, auto: e.currentTarget.checked })} />{t('gp_auto_publish')}</label>
            <button type="submit" class="primary" disabled={busy}>{t('gp_add_source')}</button>
          </form>
        </section>
      )}
      {list.loading && !list.data ? <Loading /> : !list.data?.items.length ? <Empty>{t('gp_no_sources')}</Empty> : (
        <ul class="hooks" id="sources">{list.data.items.map((s) => (
          <li key={s.id} class="hook">
            <div class="row-between">
              <span><strong>{chName(s.channel_id)}</strong> <code dir="ltr">{s.url}</code></span>
              <span><small class="muted">{t('gp_every', { n: Math.round(s.interval_s / 60) })} · {t(s.auto_publish ? 'gp_mode_auto' : 'gp_mode_review')}</small></span>
              <span><StatusWord status={s.last_status} /> <small class="muted">{f.short(s.last_fetch_at)}</small></span>
              <span class="actions">
                {canWrite && <button type="button" class="small" disabled={busy} onClick={() => void fetchNow(s)}>{t('gp_fetch_now')}</button>}
                <button type="button" class="small" aria-expanded={open === s.id} onClick={() => setOpen(open === s.id ? null : s.id)}>{t(open === s.id ? 'gp_hide_log' : 'gp_fetch_log')}</button>
                {canWrite && <button type="button" class="small danger" disabled={busy} onClick={() => { if (confirm(t('confirm_delete'))) void run(() => api('DELETE', `/v1/guide/sources/${s.id}`)); }}>{t('delete')}</button>}
              </span>
            </div>
            {s.last_error && <p class="warn gp-error"><bdi dir="ltr">{s.last_error}</bdi></p>}
            {open === s.id && <FetchLog id={s.id} tick={tick} />}
          </li>
        ))}</ul>
      )}
    </>
  );
}
