/** Clips: cut a clip from a channel's recording (start and end times), list clips and watch one with our player. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { loadPlayer } from '../player';
import { Badge, Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';
import { ChannelPick } from './channel-pick';
import type { ChannelView } from './live';

interface Clip { id: string; channel_id: string; title: string | null; start_at: string; end_at: string; precision: string; status: string; expired: boolean; playback: { hls: string }; error?: string; created_at: string }
const two = (n: number) => String(n).padStart(2, '0');
const local = (t: number) => { const d = new Date(t); return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`; };

function Watch({ clip }: { clip: Clip }) {
  const { me } = useStudio();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let p: { destroy?: () => void } | null = null;
    let gone = false;
    loadPlayer().then((r) => r.create(host.current!, { src: clip.playback.hls, tenant: me?.current_tenant?.slug ?? '', muted: '1', autoplay: '1' }))
      .then((x) => { if (gone) x?.destroy?.(); else p = x; }, () => {});
    return () => { gone = true; p?.destroy?.(); host.current?.replaceChildren(); };
  }, [clip.id]);
  return <div ref={host} class="player-host" id="clip-player" />;
}

/** The clips page. */
export function Clips() {
  const { t, f, can, api, get } = useStudio();
  const [ch, setCh] = useState<ChannelView | null>(null);
  const [form, setForm] = useState(() => ({ title: '', start: local(Date.now() - 70_000), end: local(Date.now() - 10_000), precision: 'segment' }));
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState<Clip | null>(null);
  const list = useLoad(() => get<{ items: Clip[] }>('/v1/clips?limit=50'), []);
  const create = async (e: Event) => {
    e.preventDefault();
    if (!ch) return;
    setBusy(true); setErr(null);
    try {
      const c = await api<Clip>('POST', '/v1/clips', { channel_id: ch.id, start_at: new Date(form.start).toISOString(), end_at: new Date(form.end).toISOString(), precision: form.precision, ...(form.title ? { title: form.title } : {}) });
      setOpen(c); list.reload();
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  return (
    <>
      <PageHead title={t('nav_clips')}><ChannelPick value={ch?.id ?? null} onPick={setCh} /></PageHead>
      <div class="grid2">
        {can('clips:write') && ch && (
          <section class="panel">
            <h2>{t('cut_clip')}</h2>
            <form onSubmit={create} id="clip-form">
              <Field label={t('title')}><input id="clip-title" maxLength={500} value={form.title} onInput={(e) => setForm({ ...form, title: e.currentTarget.value })} /></Field>
              <div class="row">
                <Field label={t('clip_in')}><input id="clip-start" type="datetime-local" step={1} required value={form.start} onInput={(e) => setForm({ ...form, start: e.currentTarget.value })} /></Field>
                <Field label={t('clip_out')}><input id="clip-end" type="datetime-local" step={1} required value={form.end} onInput={(e) => setForm({ ...form, end: e.currentTarget.value })} /></Field>
              </div>
              <Field label={t('precision')}>
                <select value={form.precision} onChange={(e) => setForm({ ...form, precision: e.currentTarget.value })}>
                  <option value="segment">{t('precision_segment')}</option><option value="frame">{t('precision_frame')}</option>
                </select>
              </Field>
              <Problem error={err} />
              <button type="submit" class="primary" disabled={busy}>{t('cut')}</button>
            </form>
          </section>
        )}
        {open && <section class="panel"><h2>{open.title || t('clip')}</h2><Watch clip={open} /></section>}
        <section class="panel wide">
          <h2>{t('clips')}</h2>
          {list.loading && !list.data ? <Loading /> : list.error ? <Problem error={list.error} onRetry={list.reload} /> : !list.data?.items.length ? <Empty>{t('no_clips')}</Empty> : (
            <table class="table" id="clips"><thead><tr><th>{t('title')}</th><th>{t('state')}</th><th>{t('clip_in')}</th><th>{t('duration')}</th><th /></tr></thead>
              <tbody>{list.data.items.map((c) => (
                <tr key={c.id}><td>{c.title || '—'}</td><td><Badge status={c.expired ? 'expired' : c.status} /></td><td>{f.short(c.start_at)}</td>
                  <td>{f.dur((Date.parse(c.end_at) - Date.parse(c.start_at)) / 1000)}</td>
                  <td><button type="button" class="small" onClick={() => setOpen(c)}>{t('watch')}</button></td></tr>
              ))}</tbody></table>
          )}
        </section>
      </div>
    </>
  );
}
