/**
 * The FAST schedule editor of a channel (issue 48): the main playlist (pick ready videos, order, loops), time-of-day
 * blocks with their own playlists, the break slate and length (each video's ad cues shown as its breaks), each
 * video's preparation, and the next hour as it will air (airings and breaks).
 */
import { useEffect, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import { Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';
import type { ChannelView } from './live';

interface ItemView { asset_id: string; loops: number; title: string; duration_s: number | null; cues: number[]; prep: { status: string; mode: string; error: string | null } }
interface Schedule {
  enabled: boolean; status: string; items: ItemView[]; dayparts: { name: string; start: string; end: string; items: ItemView[] }[];
  breaks: { slate_asset_id: string | null; duration_s: number | null }; renditions: { name: string; width: number; height: number }[]; guide_hours: number; version: number;
}
interface Entry { kind: string; title: string; start_at: string; end_at: string; daypart: string | null }
interface Asset { id: string; title: string; status: string; duration_s: number | null; metadata?: { ads?: { cues?: number[] } } }
type Item = { asset_id: string; loops: number };
type Part = { name: string; start: string; end: string; items: Item[] };

/** One playlist: its videos in order with loops, move up/down, remove, and a picker to add one. */
function Playlist({ id, items, onChange, assets, info }: { id: string; items: Item[]; onChange: (x: Item[]) => void; assets: Asset[]; info: (a: string) => ItemView | undefined }) {
  const { t, f } = useStudio();
  const [pick, setPick] = useState('');
  const title = (a: string) => assets.find((x) => x.id === a)?.title || info(a)?.title || a;
  const cues = (a: string) => info(a)?.cues ?? assets.find((x) => x.id === a)?.metadata?.ads?.cues ?? [];
  const move = (i: number, d: number) => { const n = items.slice(); [n[i], n[i + d]] = [n[i + d], n[i]]; onChange(n); };
  return (
    <div class="fast-list" id={id}>
      {!items.length ? <Empty>{t('fast_empty_list')}</Empty> : (
        <ol class="fast-items">{items.map((it, i) => {
          const p = info(it.asset_id)?.prep;
          const c = cues(it.asset_id);
          return (
            <li class="row-between fast-item">
              <span><strong>{title(it.asset_id)}</strong> <small class="muted">{info(it.asset_id)?.duration_s ? t('fast_sec', { n: f.num(Math.round(info(it.asset_id)!.duration_s!)) }) : ''}</small>
                {' · '}<small class={c.length ? 'fast-cues' : 'muted'}>{c.length ? t('fast_breaks_at', { cues: c.map((x) => t('fast_sec', { n: f.num(x) })).join(', ') }) : t('fast_no_breaks')}</small>
                {p && <>{' · '}<span class={`badge ${p.status === 'ready' ? 'b-ready' : p.status === 'failed' ? 'b-failed' : 'b-pending'}`}>{t(`fast_st_${p.status}` as Key)}</span> <small class="muted">{t(p.mode === 'conform' ? 'fast_mode_conform' : 'fast_mode_copy')}</small></>}
              </span>
              <span class="actions">
                <label class="fast-loops">{t('fast_loops')} <input type="number" class="fast-loops-n" style={{ width: '5em' }} min={1} max={100} value={it.loops} onInput={(e) => onChange(items.map((x, j) => (j === i ? { ...x, loops: Math.max(1, Math.min(100, Number(e.currentTarget.value) || 1)) } : x)))} /></label>
                <button type="button" class="small" disabled={i === 0} aria-label={t('fast_up')} onClick={() => move(i, -1)}>↑</button>
                <button type="button" class="small" disabled={i === items.length - 1} aria-label={t('fast_down')} onClick={() => move(i, 1)}>↓</button>
                <button type="button" class="small danger" aria-label={t('fast_remove', { title: title(it.asset_id) })} onClick={() => onChange(items.filter((_, j) => j !== i))}>✕</button>
              </span>
            </li>
          );
        })}</ol>
      )}
      <div class="inline-form">
        <Field label={t('fast_pick')}><select class="fast-pick" value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
          <option value="">—</option>{assets.map((a) => <option value={a.id}>{a.title || a.id}</option>)}</select></Field>
        <button type="button" class="small fast-add" disabled={!pick} onClick={() => { onChange([...items, { asset_id: pick, loops: 1 }]); setPick(''); }}>{t('fast_add_video')}</button>
      </div>
    </div>
  );
}

/** The FAST schedule page of one channel. */
export function FastSchedulePage({ id }: { id: string }) {
  const { t, f, api, get, can } = useStudio();
  const ch = useLoad(() => get<ChannelView>(`/v1/channels/${encodeURIComponent(id)}`), [id]);
  const assets = useLoad(() => get<{ items: Asset[] }>('/v1/assets?limit=100').then((r) => r.items.filter((a) => a.status === 'ready')), []);
  const [sched, setSched] = useState<Schedule | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [items, setItems] = useState<Item[]>([]);
  const [parts, setParts] = useState<Part[]>([]);
  const [slate, setSlate] = useState('');
  const [breakS, setBreakS] = useState('');
  const [hours, setHours] = useState('24');
  const [enabled, setEnabled] = useState(true);
  const [preview, setPreview] = useState<Entry[] | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const canWrite = can('channels:write');

  const apply = (s: Schedule | null) => {
    setSched(s);
    if (!s) return;
    setItems(s.items.map((i) => ({ asset_id: i.asset_id, loops: i.loops })));
    setParts(s.dayparts.map((d) => ({ name: d.name, start: d.start, end: d.end, items: d.items.map((i) => ({ asset_id: i.asset_id, loops: i.loops })) })));
    setSlate(s.breaks.slate_asset_id ?? ''); setBreakS(s.breaks.duration_s === null ? '' : String(s.breaks.duration_s));
    setHours(String(s.guide_hours)); setEnabled(s.enabled);
  };
  const loadPreview = () => get<{ entries: Entry[] }>(`/v1/channels/${encodeURIComponent(id)}/fast/preview?hours=1`).then((r) => setPreview(r.entries), () => setPreview(null));
  useEffect(() => {
    get<Schedule>(`/v1/channels/${encodeURIComponent(id)}/fast`).then((s) => { apply(s); setLoaded(true); if (s.status === 'ready') void loadPreview(); }, () => { apply(null); setLoaded(true); });
  }, [id]);
  // While assets are being prepared, the statuses are read again every two seconds.
  useEffect(() => {
    if (sched?.status !== 'preparing') return;
    const timer = setInterval(() => get<Schedule>(`/v1/channels/${encodeURIComponent(id)}/fast`).then((s) => { setSched(s); if (s.status === 'ready') void loadPreview(); }, () => {}), 2000);
    return () => clearInterval(timer);
  }, [sched?.status]);

  const info = (a: string) => [...(sched?.items ?? []), ...(sched?.dayparts.flatMap((d) => d.items) ?? [])].find((x) => x.asset_id === a);
  const save = async (e: Event) => {
    e.preventDefault();
    if (!items.length) { setErr(t('fast_pick_first')); return; }
    setBusy(true); setErr(null);
    try {
      const body = {
        enabled, items, guide_hours: Math.max(1, Math.min(168, Number(hours) || 24)),
        dayparts: parts.map((p) => ({ name: p.name, start: p.start, end: p.end, items: p.items })),
        breaks: { slate_asset_id: slate || null, duration_s: breakS ? Number(breakS) : null },
      };
      const s = await api<Schedule>('PUT', `/v1/channels/${encodeURIComponent(id)}/fast`, body);
      apply(s); setNote(t('fast_saved', { v: s.version }));
      if (s.status === 'ready') void loadPreview();
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const remove = async () => {
    if (!confirm(t('confirm_delete'))) return;
    setBusy(true);
    try { await api('DELETE', `/v1/channels/${encodeURIComponent(id)}/fast`); apply(null); setItems([]); setParts([]); setPreview(null); } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  if (!loaded || (ch.loading && !ch.data)) return <Loading />;
  const list = assets.data ?? [];
  return (
    <>
      <PageHead title={`${t('fast_title')} · ${ch.data?.name ?? ''}`}>
        {sched && <span class={`badge ${sched.status === 'ready' ? 'b-ready' : sched.status === 'failed' ? 'b-failed' : 'b-pending'}`} id="fast-status">{t(`fast_st_${sched.status}` as Key)}</span>}
      </PageHead>
      <p class="muted">{t('fast_intro')}</p>
      <Problem error={err ?? ch.error ?? assets.error} />
      <p class="gnote" role="status" aria-live="polite" id="fast-note">{note}</p>
      {!sched && <Empty>{t('fast_none')}</Empty>}
      <form id="fast-form" onSubmit={save}>
        <section class="panel" aria-labelledby="fast-main-h">
          <h2 id="fast-main-h">{t('fast_playlist')}</h2>
          <Playlist id="fast-main" items={items} onChange={setItems} assets={list} info={info} />
        </section>
        <section class="panel" aria-labelledby="fast-parts-h">
          <h2 id="fast-parts-h">{t('fast_dayparts')}</h2>
          {parts.map((p, i) => (
            <fieldset class="fast-part">
              <div class="inline-form">
                <Field label={t('fast_daypart_name')}><input value={p.name} maxLength={80} onInput={(e) => setParts(parts.map((x, j) => (j === i ? { ...x, name: e.currentTarget.value } : x)))} /></Field>
                <Field label={t('fast_from')}><input type="time" dir="ltr" value={p.start} onInput={(e) => setParts(parts.map((x, j) => (j === i ? { ...x, start: e.currentTarget.value } : x)))} /></Field>
                <Field label={t('fast_until')}><input type="time" dir="ltr" value={p.end} onInput={(e) => setParts(parts.map((x, j) => (j === i ? { ...x, end: e.currentTarget.value } : x)))} /></Field>
                <button type="button" class="small danger" onClick={() => setParts(parts.filter((_, j) => j !== i))}>{t('fast_remove_daypart')}</button>
              </div>
              <Playlist id={`fast-part-${i}`} items={p.items} onChange={(x) => setParts(parts.map((y, j) => (j === i ? { ...y, items: x } : y)))} assets={list} info={info} />
            </fieldset>
          ))}
          <button type="button" class="small" id="fast-add-part" onClick={() => setParts([...parts, { name: '', start: '06:00', end: '09:00', items: [] }])}>{t('fast_add_daypart')}</button>
        </section>
        <section class="panel" aria-labelledby="fast-breaks-h">
          <h2 id="fast-breaks-h">{t('fast_breaks')}</h2>
          <div class="inline-form">
            <Field label={t('fast_slate')}><select id="fast-slate" value={slate} onChange={(e) => setSlate(e.currentTarget.value)}>
              <option value="">{t('fast_no_slate')}</option>{list.map((a) => <option value={a.id}>{a.title || a.id}</option>)}</select></Field>
            <Field label={t('fast_break_len')}><input id="fast-break" type="number" min={1} max={600} value={breakS} placeholder={t('fast_break_default')} onInput={(e) => setBreakS(e.currentTarget.value)} /></Field>
            <Field label={t('fast_guide_hours')}><input type="number" min={1} max={168} value={hours} onInput={(e) => setHours(e.currentTarget.value)} /></Field>
            <label class="check"><input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />{t('fast_enabled')}</label>
          </div>
        </section>
        {canWrite && <p class="actions"><button type="submit" class="primary" id="fast-save" disabled={busy}>{t('fast_save')}</button>
          {sched && <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>{t('fast_delete')}</button>}</p>}
      </form>
      {sched && <p class="muted" id="fast-renditions">{t('fast_renditions')}: <bdi dir="ltr">{sched.renditions.map((r) => `${r.name} ${r.width}×${r.height}`).join(', ')}</bdi></p>}
      {preview && (
        <section class="panel" aria-labelledby="fast-preview-h">
          <h2 id="fast-preview-h">{t('fast_preview')}</h2>
          <table class="table" id="fast-preview"><thead><tr><th>{t('when')}</th><th>{t('fast_pick')}</th><th>{t('fast_dayparts')}</th></tr></thead>
            <tbody>{preview.slice(0, 40).map((e) => (
              <tr class={e.kind === 'break' ? 'fast-break' : ''}><td>{f.time(e.start_at)}–{f.time(e.end_at)}</td>
                <td>{e.kind === 'break' ? <><span class="badge b-pending">{t('fast_break')}</span> {e.title}</> : e.title}</td><td>{e.daypart ?? t('fast_default_list')}</td></tr>
            ))}</tbody></table>
        </section>
      )}
    </>
  );
}
