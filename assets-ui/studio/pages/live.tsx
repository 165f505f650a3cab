/** Live: the channel list with state and a form to create a channel (kept as typed when the call fails). */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { navigate } from '../router';
import { Badge, Empty, Field, Loading, PageHead, Problem, useLoad } from '../ui';

/** A channel as the API answers it (the parts the studio shows). */
export interface ChannelView {
  id: string; slug: string; name: string; status: string; started: boolean; feed: string; recording: string;
  input: { bitrate_kbps: number | null; fps?: number | null; resolution: string | null; video_codec: string | null; audio_codec: string | null; warnings?: { code: string; detail: string }[] };
  inputs?: { primary: InputNow; backup: InputNow };
  ingest: { protocol: string; srt_ports: { primary: number; backup: number }; latency_ms: number; failover_s: number; last_refused?: { at: string; protocol: string; code: string; reason: string; from: string } | null };
  ladder: string | unknown[]; playback: { hls: string }; created_at: string;
  segment_s: number; dvr_window_s: number; timezone: string; recording_settings: { enabled: boolean; retention_hours: number };
}

/** One ingest input now, as the channel answers it. */
export interface InputNow { connected: boolean; bitrate_kbps: number | null; fps: number | null; resolution: string | null; restarts: number }

/** The channel list page. */
export function Live() {
  const { t, f, can, api, get } = useStudio();
  const list = useLoad(() => get<{ items: ChannelView[] }>('/v1/channels?limit=100'), [], 'live:list');
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [ladder, setLadder] = useState('passthrough');
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const create = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setErr(null);
    try {
      const c = await api<ChannelView>('POST', '/v1/channels', { name, ...(slug ? { slug } : {}), ladder });
      navigate(`/live/${c.id}`);
    } catch (x) { setErr(errorWords(x)); } finally { setBusy(false); }
  };
  return (
    <>
      <PageHead title={t('nav_live')} />
      <div class="grid2">
        <section class="panel wide">
          <h2>{t('channels')}</h2>
          {list.loading && !list.data ? <Loading /> : list.error ? <Problem error={list.error} onRetry={list.reload} />
            : !list.data?.items.length ? <Empty>{t('no_channels')}</Empty> : (
              <table class="table" id="channels">
                <thead><tr><th>{t('name')}</th><th>{t('state')}</th><th>{t('feed')}</th><th>{t('recording')}</th><th>{t('input')}</th></tr></thead>
                <tbody>{list.data.items.map((c) => (
                  <tr key={c.id}>
                    <td><a href={`/studio/live/${c.id}`}>{c.name}</a> <small class="muted" dir="ltr">{c.slug}</small></td>
                    <td><Badge status={c.status} /></td><td>{t(`feed_${c.feed}` as 'feed_none')}</td><td><Badge status={`rec_${c.recording}`} /></td>
                    <td class="muted"><bdi>{c.input.bitrate_kbps ? `${f.num(c.input.bitrate_kbps)} kb/s` : '—'}</bdi> {c.input.fps ? <bdi>{`${f.num(c.input.fps)} ${t('lv_fps_unit')}`}</bdi> : ''} {c.input.resolution ?? ''}</td>
                  </tr>
                ))}</tbody>
              </table>
            )}
        </section>
        {can('channels:write') && (
          <section class="panel">
            <h2>{t('create_channel')}</h2>
            <form onSubmit={create} id="create-channel">
              <Field label={t('name')}><input id="channel-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} /></Field>
              <Field label={t('slug')} hint={t('slug_hint')}><input id="channel-slug" dir="ltr" pattern="[a-z0-9][a-z0-9-]{0,62}" value={slug} onInput={(e) => setSlug(e.currentTarget.value)} /></Field>
              <Field label={t('packaging')}>
                <select id="channel-ladder" value={ladder} onChange={(e) => setLadder(e.currentTarget.value)}>
                  <option value="passthrough">{t('passthrough')}</option><option value="abr">{t('abr')}</option>
                </select>
              </Field>
              <Problem error={err} />
              <button type="submit" class="primary" disabled={busy}>{t('create')}</button>
            </form>
          </section>
        )}
      </div>
    </>
  );
}
