/**
 * Catch-up and clips: the channel's recorded programmes (coverage, publish to the library with progress), a clip
 * cutter on a timeline with a filmstrip from the recording (in/out handles snapping to frames or programme
 * boundaries, or typed times), a preview of the range in our player, and the clips list.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Badge, Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';
import { ChannelPick } from './channel-pick';
import type { ChannelView } from './live';
import { RangePlayer, rangeUrl } from './clip-player';
import { Programmes } from './clip-programmes';
import type { CatchupItem } from './clip-publish';
import { Timeline, type Mark } from './clip-timeline';
import { around, localInput, parseLocalInput, type Cut, type SnapMode, type Win } from './clip-time';

interface Clip { id: string; channel_id: string; title: string | null; start_at: string; end_at: string; precision: string; status: string; expired: boolean; playback: { hls: string }; error?: string; created_at: string }

/** The newest two minutes of a recording, and a one-minute cut ending 10 s ago. */
function recent(now: number): { win: Win; cut: Cut } {
  return { win: { from: now - 120_000, to: now }, cut: { in: now - 70_000, out: now - 10_000 } };
}

/** The clips page. */
export function Clips() {
  const { t, f, can, api, get, me } = useStudio();
  const [ch, setCh] = useState<ChannelView | null>(null);
  const [view, setView] = useState(() => recent(Date.now()));
  const [mode, setMode] = useState<SnapMode>('frame');
  const [focused, setFocused] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [precision, setPrecision] = useState('segment');
  const [preview, setPreview] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState<Clip | null>(null);
  const list = useLoad(() => get<{ items: Clip[] }>(`/v1/clips?limit=50${ch ? `&channel_id=${ch.id}` : ''}`), [ch?.id]);
  const progs = useLoad(() => (ch ? get<{ items: CatchupItem[] }>(`/v1/channels/${ch.id}/catchup`) : Promise.resolve({ items: [] })), [ch?.id]);
  useEffect(() => { setView(recent(Date.now())); setFocused(null); setPreview(null); }, [ch?.id]);
  const marks: Mark[] = useMemo(() => (progs.data?.items ?? []).map((p) => ({ id: p.id, title: p.title, from: Date.parse(p.play_start), to: Date.parse(p.play_end) })), [progs.data]);
  const { win, cut } = view;
  const setCut = (c: Cut) => setView((v) => ({ ...v, cut: c }));
  const focus = (p: CatchupItem) => {
    const from = Date.parse(p.play_start), to = Math.min(Date.parse(p.play_end), Date.now());
    setView({ win: around(from, to), cut: { in: from, out: to } });
    setFocused(p.id); setPreview(null);
    if (!title) setTitle(p.title);
  };
  const zoom = (w: Win) => setView((v) => ({ ...v, win: { from: Math.round(w.from), to: Math.round(Math.min(w.to, Date.now())) } }));
  const typed = (which: 'in' | 'out', value: string) => {
    const ms = parseLocalInput(value);
    if (Number.isFinite(ms)) setCut(which === 'in' ? { ...cut, in: ms } : { ...cut, out: ms });
  };
  const create = async (e: Event) => {
    e.preventDefault();
    if (!ch) return;
    setBusy(true); setErr(null);
    try {
      const c = await api<Clip>('POST', '/v1/clips', { channel_id: ch.id, start_at: new Date(cut.in).toISOString(), end_at: new Date(cut.out).toISOString(), precision, ...(title ? { title } : {}) });
      setOpen(c); setPreview(null); list.reload();
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  const tenant = me?.current_tenant?.slug ?? '';
  return (
    <>
      <PageHead title={t('nav_clips')}><ChannelPick value={ch?.id ?? null} onPick={setCh} /></PageHead>
      {ch && <Programmes channelId={ch.id} list={progs} onFocus={focus} focused={focused} />}
      <div class="grid2 c-grid">
        {can('clips:write') && ch && (
          <section class="panel wide" aria-labelledby="cutter-title">
            <div class="row-between">
              <h2 id="cutter-title">{t('cut_clip')}</h2>
              <div class="c-tools">
                <fieldset class="c-snap"><legend>{t('c_snap')}</legend>
                  <label><input type="radio" name="snap" value="frame" checked={mode === 'frame'} onChange={() => setMode('frame')} /> {t('c_snap_frames')}</label>
                  <label><input type="radio" name="snap" value="programme" id="snap-programme" checked={mode === 'programme'} onChange={() => setMode('programme')} /> {t('c_snap_programmes')}</label>
                </fieldset>
                <button type="button" class="small" id="zoom-sel" onClick={() => zoom(around(cut.in, cut.out, 0.15))}>{t('c_zoom_sel')}</button>
                <button type="button" class="small" id="zoom-out" onClick={() => { const span = win.to - win.from; zoom({ from: win.from - span / 2, to: win.to + span / 2 }); }}>{t('c_zoom_out')}</button>
                <button type="button" class="small" id="zoom-recent" onClick={() => setView((v) => ({ ...v, win: recent(Date.now()).win }))}>{t('c_recent')}</button>
              </div>
            </div>
            <Timeline channelId={ch.id} win={win} cut={cut} onCut={setCut} mode={mode} marks={marks} count={16} bySegment={precision === 'segment'} />
            <form onSubmit={create} id="clip-form">
              <div class="row">
                <Field label={t('clip_in')}><input id="clip-start" type="text" dir="ltr" placeholder="YYYY-MM-DD HH:MM:SS" pattern="\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?" required value={localInput(cut.in)} onInput={(e) => typed('in', e.currentTarget.value)} /></Field>
                <Field label={t('clip_out')}><input id="clip-end" type="text" dir="ltr" placeholder="YYYY-MM-DD HH:MM:SS" pattern="\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?" required value={localInput(cut.out)} onInput={(e) => typed('out', e.currentTarget.value)} /></Field>
                <Field label={t('duration')}><output id="clip-length" dir="ltr">{((cut.out - cut.in) / 1000).toFixed(2)} s</output></Field>
              </div>
              <div class="row">
                <Field label={t('title')}><input id="clip-title" maxLength={500} value={title} onInput={(e) => setTitle(e.currentTarget.value)} /></Field>
                <Field label={t('precision')} hint={precision === 'frame' ? t('c_frame_hint') : t('c_segment_hint')}>
                  <select id="clip-precision" value={precision} onChange={(e) => setPrecision(e.currentTarget.value)}>
                    <option value="segment">{t('precision_segment')}</option><option value="frame">{t('precision_frame')}</option>
                  </select>
                </Field>
              </div>
              <Problem error={err} />
              <div class="c-buttons">
                <button type="button" id="preview" onClick={() => { setPreview(rangeUrl(ch.playback.hls, ch.slug, tenant, cut.in, cut.out)); setOpen(null); }}>{t('c_preview')}</button>
                <button type="submit" class="primary" disabled={busy || cut.out <= cut.in}>{t('cut')}</button>
              </div>
            </form>
          </section>
        )}
        {preview && <section class="panel"><h2>{t('c_preview')}</h2><RangePlayer src={preview} id="preview-player" /></section>}
        {open && <section class="panel"><h2>{open.title || t('clip')}</h2><RangePlayer src={open.playback.hls} id="clip-player" /></section>}
        <section class="panel wide">
          <h2>{t('clips')}</h2>
          {list.loading && !list.data ? <Loading /> : list.error ? <Problem error={list.error} onRetry={list.reload} /> : !list.data?.items.length ? <Empty>{t('no_clips')}</Empty> : (
            <table class="table" id="clips"><thead><tr><th>{t('title')}</th><th>{t('state')}</th><th>{t('clip_in')}</th><th>{t('duration')}</th><th /></tr></thead>
              <tbody>{list.data.items.map((c) => (
                <tr key={c.id}><td>{c.title || '—'}</td><td><Badge status={c.expired ? 'expired' : c.status} /></td><td>{f.short(c.start_at)}</td>
                  <td>{f.dur((Date.parse(c.end_at) - Date.parse(c.start_at)) / 1000)}</td>
                  <td><button type="button" class="small" onClick={() => { setOpen(c); setPreview(null); }}>{t('watch')}</button></td></tr>
              ))}</tbody></table>
          )}
        </section>
      </div>
    </>
  );
}
