/** One asset: our player with its ad-cue bar, status timeline, renditions, statistics, MP4 download, poster picker, metadata and ad cues, section, title, publish, trash and restore. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { ASSET_EVENTS, useEventStream, type Envelope } from '../events';
import { navigate } from '../router';
import { Badge, CopyField, Field, Loading, PageHead, Problem, useLoad } from '../ui';
import { jobName } from '../names';
import { CueBar } from './asset-cues';
import { AssetPlayer } from './asset-preview';
import { MetaEditor } from './asset-meta';
import { PosterPicker } from './asset-poster';
import { SectionPicker } from './asset-section';
import { AssetStats } from './asset-stats';

interface Asset {
  id: string; title: string; status: string; published: boolean; publish: string; duration_s: number | null; progress: number | null;
  created_at: string; updated_at: string; error?: string; deleted_at?: string; external_id: string | null; ladder: string; metadata: Record<string, unknown>;
  playback?: { hls: string; dash: string; poster: string; sprite: string; thumbs_vtt?: string; download: string };
  share?: { watch: string; embed: string; iframe: string };
}
interface Job { id: string; type: string; status: string; progress: number | null; created_at: string; started_at: string | null; finished_at: string | null; error: string | null }
interface Rendition { resolution: string; kbps: number; codecs: string }

const ACTIVE = new Set(['registered', 'probing', 'queued', 'encoding', 'packaging']);

/** Renditions read from the HLS master playlist (resolution, bandwidth, codecs). */
async function renditions(hls: string): Promise<Rendition[]> {
  const text = await (await fetch(hls)).text();
  return [...text.matchAll(/#EXT-X-STREAM-INF:([^\n]*)/g)].map((m) => ({
    resolution: /RESOLUTION=(\d+x\d+)/.exec(m[1])?.[1] ?? 'audio',
    kbps: Math.round(Number(/BANDWIDTH=(\d+)/.exec(m[1])?.[1] ?? 0) / 1000),
    codecs: /CODECS="([^"]*)"/.exec(m[1])?.[1] ?? '',
  }));
}

/** The asset page; polls while the asset is being processed. */
export function AssetPage({ id }: { id: string }) {
  const { t, f, can, api, get } = useStudio();
  const a = useLoad(() => get<Asset>(`/v1/assets/${encodeURIComponent(id)}`), [id], `asset:${id}`);
  const jobs = useLoad(() => get<{ items: Job[] }>(`/v1/jobs?subject=${encodeURIComponent(id)}&limit=20`).then((r) => r.items.reverse()), [id, a.data?.status]);
  const [rends, setRends] = useState<Rendition[] | null>(null);
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const host = useRef<HTMLDivElement>(null);
  const [cues, setCues] = useState<number[]>([]);
  const video = () => host.current?.querySelector('video') ?? null;
  const playerTime = () => { const v = video(); return v ? v.currentTime : null; };
  const seek = (s: number) => { const v = video(); if (v) v.currentTime = s; };
  const asset = a.data;
  useEffect(() => { if (asset) setTitle(asset.title); }, [asset?.id]);
  useEffect(() => {
    if (!asset || !ACTIVE.has(asset.status)) return;
    const h = setTimeout(() => a.reload(), 1500);
    return () => clearTimeout(h);
  }, [asset]);
  // Processing ends (or a preview appears) as an event: the page follows at once instead of at its next poll.
  useEventStream((fr) => { if ((fr.data as Envelope | null)?.data?.asset === id) a.reload(); }, ASSET_EVENTS);
  const hls = asset?.playback?.hls;
  useEffect(() => { if (hls) renditions(hls).then(setRends, () => setRends([])); }, [hls]);
  const act = async (method: string, path: string, body?: unknown, after?: () => void) => {
    setBusy(true); setErr(null);
    try { const r = await api<Asset | null>(method, path, body); if (r && 'title' in r) a.set(r); else a.reload(); after?.(); } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  if (a.loading && !asset) return <Loading />;
  if (!asset) return <Problem error={a.error} onRetry={a.reload} />;
  const base = `/v1/assets/${encodeURIComponent(id)}`;
  const steps: [string, string | null][] = [[t('tl_registered'), asset.created_at], ...(jobs.data ?? []).flatMap((j): [string, string | null][] => [
    [`${jobName(t, j.type)} · ${t('tl_started')}`, j.started_at], [`${jobName(t, j.type)} · ${t(j.status === 'failed' ? 'st_failed' : 'tl_finished')}`, j.finished_at],
  ]).filter(([, at]) => at), ...(asset.status === 'ready' ? [[t('st_ready'), asset.updated_at] as [string, string]] : [])];
  return (
    <>
      <PageHead title={asset.title || asset.id}>
        <Badge status={asset.status} />{asset.status === 'ready' && !asset.deleted_at && (asset.published ? <Badge status="published" /> : <span class="badge b-draft" id="draft-badge">{t('pub_draft')}</span>)}
        {!asset.deleted_at && <a href={`/studio/library/${encodeURIComponent(asset.id)}/subtitles`} class="button" id="open-subtitles">{t('se_open')}</a>}
        <a href="/studio/library" class="button">{t('back_library')}</a>
      </PageHead>
      <Problem error={err ?? a.error} />
      <div class="grid2">
        <section class="panel wide player-panel">
          <div ref={host}>
            <AssetPlayer key={asset.id} id={asset.id} ready={!!hls} poster={asset.playback?.poster} title={asset.title} hostId="player" onError={setErr}
              waiting={<div class="player-wait"><p>{asset.status === 'failed' ? asset.error : t('processing')}</p>
                {asset.progress !== null && <progress max={100} value={asset.progress} aria-label={t('processing')} />}</div>} />
          </div>
          <CueBar cues={cues} duration={asset.duration_s} onSeek={seek} />
        </section>
        <section class="panel">
          <h2>{t('details')}</h2>
          <form onSubmit={(e) => { e.preventDefault(); void act('PATCH', base, { title }); }}>
            <Field label={t('title')}><input id="asset-title" value={title} onInput={(e) => setTitle(e.currentTarget.value)} maxLength={500} /></Field>
            <button type="submit" disabled={busy || title === asset.title}>{t('save')}</button>
          </form>
          {asset.status === 'ready' && !asset.deleted_at && <p class="muted" id="publish-state">{t(asset.published ? 'pub_state_published' : 'pub_state_draft')}</p>}
          <dl class="kv">
            <dt>{t('duration')}</dt><dd>{f.dur(asset.duration_s)}</dd>
            <dt>{t('ladder')}</dt><dd>{asset.ladder}</dd>
            <dt>{t('created')}</dt><dd>{f.date(asset.created_at)}</dd>
            <dt>ID</dt><dd><code dir="ltr">{asset.id}</code></dd>
          </dl>
          {asset.playback?.download && !asset.deleted_at && <p><a class="button" id="download-mp4" href={asset.playback.download} download>{t('ap_download_mp4')}</a></p>}
          {!asset.deleted_at && <SectionPicker id={asset.id} />}
          <div class="actions">
            {!asset.deleted_at && asset.status === 'ready' && !asset.published && can('assets:publish') &&
              <button type="button" class="primary" id="publish" disabled={busy} onClick={() => act('PATCH', base, { publish: true })}>{t('publish')}</button>}
            {!asset.deleted_at && asset.published && can('assets:publish') &&
              <button type="button" id="unpublish" disabled={busy} onClick={() => { if (confirm(t('pub_confirm_unpublish'))) void act('PATCH', base, { publish: false }); }}>{t('pub_unpublish')}</button>}
            {!asset.deleted_at && <button type="button" class="danger" id="trash" disabled={busy} onClick={() => { if (confirm(t('confirm_trash'))) void act('DELETE', base, undefined, () => navigate('/library')); }}>{t('move_trash')}</button>}
            {!asset.deleted_at && (asset.status === 'ready' || asset.status === 'failed') && can('assets:write') &&
              <button type="button" id="reencode" disabled={busy} onClick={() => act('POST', `${base}/re-encode`, {})}>{t('reencode')}</button>}
            {asset.deleted_at && <button type="button" id="restore" disabled={busy} onClick={() => act('POST', `${base}/restore`)}>{t('restore')}</button>}
          </div>
        </section>
        <section class="panel">
          <h2>{t('timeline')}</h2>
          <ol class="timeline" id="timeline">{steps.map(([what, at]) => <li><span>{what}</span><time>{f.date(at)}</time></li>)}</ol>
        </section>
        <section class="panel">
          <h2>{t('renditions')}</h2>
          {!hls ? <p class="muted">{t('processing')}</p> : !rends ? <Loading /> : (
            <table class="table" id="renditions"><thead><tr><th>{t('resolution')}</th><th>{t('bitrate')}</th><th>{t('codecs')}</th></tr></thead>
              <tbody>{rends.map((r) => <tr><td>{r.resolution === 'audio' ? t('ren_audio') : <bdi dir="ltr">{r.resolution}</bdi>}</td><td class="num">{t('kbps', { n: f.int(r.kbps) })}</td><td dir="ltr"><code>{r.codecs}</code></td></tr>)}</tbody></table>
          )}
        </section>
        {asset.share && !asset.deleted_at && (
          <section class="panel" id="share-panel">
            <h2>{t('pub_share')}</h2>
            {!asset.published && <p class="muted" id="share-draft">{t('pub_share_draft')}</p>}
            <CopyField label={t('pub_watch_link')} value={asset.share.watch} />
            <CopyField label={t('pub_embed_code')} value={asset.share.iframe} />
            <p><a href={asset.share.watch} target="_blank" rel="noopener" id="open-watch">{t('pub_open_watch')}</a></p>
          </section>
        )}
        {asset.status === 'ready' && !asset.deleted_at && can('stats:read') && (
          <section class="panel wide" id="stats-panel"><AssetStats id={asset.id} /></section>
        )}
        {asset.playback && !asset.deleted_at && (
          <section class="panel wide" id="poster-panel">
            <h2>{t('ap_poster_title')}</h2>
            {can('assets:write') ? <PosterPicker id={asset.id} playback={asset.playback} playerTime={playerTime} onSeek={seek} onSaved={(r) => a.set(r as Asset)} />
              : <img src={asset.playback.poster} alt={t('poster')} class="poster" loading="lazy" />}
          </section>
        )}
        {!asset.deleted_at && can('assets:write') && (
          <section class="panel wide" id="meta-panel">
            <h2>{t('ap_meta_title')}</h2>
            <MetaEditor asset={asset} cues={cues} setCues={setCues} playerTime={playerTime} onSeek={seek} onSaved={(r) => a.set(r as Asset)} />
          </section>
        )}
      </div>
    </>
  );
}
