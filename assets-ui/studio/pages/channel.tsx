/** One channel: state, start/stop, settings, ingest addresses with copy buttons (secrets for operators), bitrate graph, per-input health, input checks, failover/gap history, logs, live player. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { Chart } from '../chart';
import { useStudio } from '../ctx';
import { loadPlayer } from '../player';
import { segmentKbps } from '../livebitrate';
import { Badge, CopyField, Loading, PageHead, Problem, useLoad } from '../ui';
import type { ChannelView } from './live';
import { ChannelEdit } from './channel-edit';
import { addSample, HistoryPanel, InputsPanel, noSeries } from './channel-health';
import { InputChecksPanel, type InputChecksNow } from './channel-input-checks';

/** The last push the channel refused at connect: what was tried, why (in the page's language), when and from where. */
function Refused({ r }: { r: NonNullable<ChannelView['ingest']['last_refused']> }) {
  const { t, f } = useStudio();
  const proto = r.protocol.toUpperCase();
  // A push over the wrong protocol: the channel listened to the other one (the API drops the refusal once it takes this one).
  const why = r.code === 'wrong_protocol' ? t('lv_refused_wrong_protocol', { proto, listens: r.protocol === 'rtmp' ? 'SRT' : 'RTMP' }) : r.code === 'stopped' ? t('lv_refused_stopped', { proto }) : r.reason;
  return (
    <div class="refused warn" id="last-refused" role="status" data-code={r.code}>
      <strong>{t('lv_refused_title')}</strong>
      <p>{why}</p>
      <small class="muted"><bdi>{t('lv_refused_at', { t: f.short(r.at), from: r.from.replace(/^::ffff:/, '') })}</bdi></small>
    </div>
  );
}

interface Ingest { srt: { primary: { url: string; port: number; passphrase: string }; backup: { url: string; port: number; passphrase: string }; latency_ms: number }; rtmp: { primary: { url: string; stream_key: string }; backup: { url: string; stream_key: string } } }
const KEEP = 150; // points of the bitrate graph (2 s apart: five minutes)

/** The channel page; refreshes the channel every 2 s for the health graph. */
export function ChannelPage({ id }: { id: string }) {
  const { t, f, can, me, lang, api, get } = useStudio();
  const ch = useLoad(() => get<ChannelView>(`/v1/channels/${encodeURIComponent(id)}`), [id], `ch:${id}`);
  const ing = useLoad(() => (can('channels:operate') ? get<Ingest>(`/v1/channels/${encodeURIComponent(id)}/ingest`) : Promise.resolve(null)), [id]);
  const logs = useLoad(() => (can('channels:operate') ? get<{ primary: string[]; backup: string[]; restarts: number }>(`/v1/channels/${encodeURIComponent(id)}/logs`) : Promise.resolve(null)), [id]);
  const [hist, setHist] = useState<{ times: number[]; kbps: (number | null)[] }>({ times: [], kbps: [] });
  const [series, setSeries] = useState(noSeries);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const host = useRef<HTMLDivElement>(null);
  const c = ch.data;
  useEffect(() => {
    const h = setInterval(async () => {
      try {
        const n = await get<ChannelView>(`/v1/channels/${encodeURIComponent(id)}`);
        // The input's bitrate as the API reports it; when it has none, measured from the newest delivered segment.
        const kbps = n.input.bitrate_kbps ?? (n.status === 'live' ? await segmentKbps(n.playback.hls) : null);
        if (kbps !== null && n.input.bitrate_kbps === null) n.input = { ...n.input, bitrate_kbps: kbps };
        ch.set(n);
        setHist((o) => ({ times: [...o.times, Date.now() / 1000].slice(-KEEP), kbps: [...o.kbps, kbps].slice(-KEEP) }));
        setSeries((o) => addSample(o, n, Date.now() / 1000));
      } catch { /* shown on the next success or by the page's error */ }
    }, 2000);
    return () => clearInterval(h);
  }, [id]);
  const live = c?.status === 'live';
  useEffect(() => {
    if (!live || !host.current || !c) return;
    let p: { destroy?: () => void } | null = null;
    let gone = false;
    loadPlayer().then((r) => r.create(host.current!, { src: c.playback.hls, tenant: me?.current_tenant?.slug ?? '', autoplay: '1', muted: '1' }))
      .then((x) => { if (gone) x?.destroy?.(); else p = x; }, () => {});
    return () => { gone = true; p?.destroy?.(); host.current?.replaceChildren(); };
  }, [live]);
  const act = async (what: 'start' | 'stop' | 'ingest/rotate') => {
    if (what === 'ingest/rotate' && !confirm(t('confirm_rotate'))) return;
    // Stopping a channel on air takes it off air for every viewer: asked first.
    if (what === 'stop' && ch.data?.status === 'live' && !confirm(t('lv_confirm_stop', { name: ch.data.name }))) return;
    setBusy(true); setErr(null);
    try {
      const r = await api<ChannelView>('POST', `/v1/channels/${encodeURIComponent(id)}/${what}`, what === 'ingest/rotate' ? {} : undefined);
      if (what === 'ingest/rotate') ing.reload(); else ch.set(r);
    } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  if (ch.loading && !c) return <Loading />;
  if (!c) return <Problem error={ch.error} onRetry={ch.reload} />;
  return (
    <>
      <PageHead title={c.name}>
        <Badge status={c.status} />
        {can('channels:write') && !editing && <button type="button" id="edit" onClick={() => setEditing(true)}>{t('lv_edit')}</button>}
        <a class="button" id="fast-link" href={`/studio/live/${c.id}/fast`}>{t('fast_link')}</a>
        {can('channels:operate') && (c.started
          ? <button type="button" class="danger" id="stop" disabled={busy} onClick={() => act('stop')}>{t('stop')}</button>
          : <button type="button" class="primary" id="start" disabled={busy} onClick={() => act('start')}>{t('start')}</button>)}
      </PageHead>
      <Problem error={err} />
      <div class="grid2">
        {editing && <ChannelEdit channel={c} onSaved={(n) => { ch.set(n); if (n.ingest.protocol !== c.ingest.protocol) ing.reload(); }} onClose={() => setEditing(false)} />}
        <section class="panel wide" id="health-panel" data-samples={hist.kbps.filter((v) => v !== null).length}>
          <h2>{t('health')}</h2>
          <dl class="kv inline" id="health">
            <dt>{t('state')}</dt><dd><Badge status={c.status} /></dd>
            <dt>{t('feed')}</dt><dd>{t(`feed_${c.feed}` as 'feed_none')}</dd>
            <dt>{t('recording')}</dt><dd><Badge status={`rec_${c.recording}`} /></dd>
            <dt>{t('bitrate')}</dt><dd id="bitrate"><bdi>{c.input.bitrate_kbps ? `${f.num(c.input.bitrate_kbps)} kb/s` : '—'}</bdi></dd>
            <dt>{t('lv_fps')}</dt><dd id="fps"><bdi>{c.input.fps != null ? `${f.num(c.input.fps)} ${t('lv_fps_unit')}` : '—'}</bdi></dd>
            <dt>{t('resolution')}</dt><dd><bdi dir="ltr">{c.input.resolution ?? '—'}</bdi></dd>
            <dt>{t('codecs')}</dt><dd><bdi dir="ltr">{[c.input.video_codec, c.input.audio_codec].filter(Boolean).join(' / ') || '—'}</bdi></dd>
          </dl>
          {c.input.warnings?.map((w) => <p class="warn">{w.detail}</p>)}
          {hist.times.length > 1 ? <Chart timeLabel={t('time')} locale={lang === 'he' ? 'he-IL' : 'en-GB'} label={t('bitrate')} times={hist.times} values={[hist.kbps]} height={180} lines={[{ label: `${t('bitrate')} (kb/s)`, color: '#16a34a' }]} />
            : <p class="muted">{t('collecting')}</p>}
        </section>
        <InputsPanel c={c} series={series} />
        <InputChecksPanel channelId={c.id} now={(c as ChannelView & { input_checks?: InputChecksNow }).input_checks} />
        <HistoryPanel c={c} />
        {live && <section class="panel wide"><h2>{t('live_player')}</h2><div ref={host} class="player-host" id="live-player" /></section>}
        <section class="panel">
          <h2>{t('ingest')}</h2>
          {!can('channels:operate') ? <p class="muted">{t('operators_only')}</p> : ing.loading && !ing.data ? <Loading /> : ing.error ? <Problem error={ing.error} /> : ing.data && (
            <div id="ingest" data-protocol={c.ingest.protocol}>
              {/* Only the addresses the channel listens to now: a push over the other protocol is refused at connect. */}
              {c.ingest.protocol === 'rtmp' ? <>
                <h3>RTMP</h3>
                <CopyField label={`${t('primary')} · ${t('lv_rtmp_server')}`} value={ing.data.rtmp.primary.url} />
                <CopyField label={`${t('primary')} · ${t('stream_key')}`} value={ing.data.rtmp.primary.stream_key} secret />
                <CopyField label={`${t('backup')} · ${t('lv_rtmp_server')}`} value={ing.data.rtmp.backup.url} />
                <CopyField label={`${t('backup')} · ${t('stream_key')}`} value={ing.data.rtmp.backup.stream_key} secret />
                <p class="muted" id="ingest-only">{t('lv_listens_rtmp')}</p>
              </> : <>
                <h3>SRT</h3>
                <CopyField label={t('primary')} value={ing.data.srt.primary.url} mask={ing.data.srt.primary.passphrase} />
                <CopyField label={t('backup')} value={ing.data.srt.backup.url} mask={ing.data.srt.backup.passphrase} />
                <p class="muted" id="ingest-only">{t('lv_listens_srt')}</p>
              </>}
              <button type="button" disabled={busy} onClick={() => act('ingest/rotate')}>{t('rotate')}</button>
            </div>
          )}
          {c.ingest.last_refused && <Refused r={c.ingest.last_refused} />}
        </section>
        <section class="panel">
          <h2>{t('playback')}</h2>
          <CopyField label="HLS" value={c.playback.hls} />
          {logs.data && <details><summary>{t('ffmpeg_logs')} ({logs.data.restarts} {t('restarts')})</summary><pre dir="ltr" class="logs">{[...logs.data.primary, ...logs.data.backup].slice(-60).join('\n') || '—'}</pre></details>}
        </section>
      </div>
    </>
  );
}
