/**
 * The cue editor of one asset (/studio/library/{id}/subtitles, issue 43): the studio preview player beside the cue
 * list, the waveform with the cues under the player, keyboard control (subtitles-keys.ts), edits sent to the cue API
 * as revisions with If-Match (subtitles-data.ts), shift, find and replace with the glossary, the revisions with undo,
 * a second track side by side, new tracks (recognise / upload) and the publish toggle.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { Loading, PageHead, Problem, useLoad } from '../ui';
import { AssetPlayer } from './asset-preview';
import { CueList } from './cue-list';
import { FindReplace, Revisions, ShiftTool } from './cue-tools';
import { readAllCues, useTrackCues } from './subtitles-data';
import { SHORTCUTS, SKIP_S, keyAction, type KeyAction } from './subtitles-keys';
import { besideText, cueAt, isRtl, tc, type Cue, type GlossaryEntry, type Peaks, type Track } from './subtitles-model';
import { CreateTrack, TrackBar } from './subtitles-tracks';
import { Waveform } from './waveform';

interface Asset { id: string; title: string; status: string; duration_s: number | null; playback?: { hls: string; poster: string } }

const inField = (el: EventTarget | null) => el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

/** The cue editor page. */
export function SubtitlesPage({ id }: { id: string }) {
  const { t, lang, can, get } = useStudio();
  const asset = useLoad(() => get<Asset>(`/v1/assets/${encodeURIComponent(id)}`), [id], `asset:${id}`);
  const base = `/v1/assets/${encodeURIComponent(id)}/subtitles`;
  const tracks = useLoad(() => get<{ items: Track[] }>(base).then((r) => r.items), [id]);
  const [trackId, setTrackId] = useState(() => new URLSearchParams(location.search).get('track') ?? '');
  const list = tracks.data ?? [];
  const track = list.find((x) => x.id === trackId) ?? list[0] ?? null;
  const ready = track?.status === 'ready';
  const data = useTrackCues(ready ? `${base}/${encodeURIComponent(track!.id)}` : null);
  const writable = can('assets:write');
  const [besideId, setBesideId] = useState('');
  const [besideCues, setBesideCues] = useState<Cue[]>([]);
  const [peaks, setPeaks] = useState<Peaks | null>(null);
  const [peaksFailed, setPeaksFailed] = useState(false);
  const [glossary, setGlossary] = useState<GlossaryEntry[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [current, setCurrent] = useState<number | null>(null);
  const [insertAt, setInsertAt] = useState<number | null>(null);
  const [insertText, setInsertText] = useState('');
  const host = useRef<HTMLDivElement>(null);
  const caret = useRef<{ id: number; offset: number } | null>(null);
  const video = () => host.current?.querySelector('video') ?? null;
  const nowMs = () => Math.round((video()?.currentTime ?? 0) * 1000);
  const seek = (ms: number) => { const v = video(); if (v) v.currentTime = Math.max(0, ms / 1000); };

  // A track still being recognised: read again until it is ready or failed.
  useEffect(() => {
    if (!track || (track.status !== 'queued' && track.status !== 'running')) return;
    const h = setTimeout(() => tracks.reload(), 1500);
    return () => clearTimeout(h);
  }, [tracks.data]);
  useEffect(() => { setSelected(null); setBesideId((b) => (b === track?.id ? '' : b)); }, [track?.id]);
  useEffect(() => {
    if (!besideId) { setBesideCues([]); return; }
    readAllCues(get, `${base}/${encodeURIComponent(besideId)}`).then((r) => setBesideCues(r.cues), () => setBesideCues([]));
  }, [besideId]);
  useEffect(() => { get<Peaks>(`/v1/assets/${encodeURIComponent(id)}/waveform`).then(setPeaks, () => setPeaksFailed(true)); }, [id]);
  useEffect(() => {
    if (!track) return;
    get<{ items: GlossaryEntry[] }>(`/v1/glossary?language=${encodeURIComponent(track.language)}&limit=200`).then((r) => setGlossary(r.items), () => setGlossary([]));
  }, [track?.language]);
  // The cue under the playhead (4 times a second); while playing, the list keeps it in view.
  const cuesRef = useRef<Cue[]>([]);
  cuesRef.current = data.cues;
  useEffect(() => {
    let last: number | null = null;
    const h = setInterval(() => {
      const v = video();
      if (!v) return;
      const c = cueAt(cuesRef.current, v.currentTime * 1000)?.id ?? null;
      if (c === last) return;
      last = c; setCurrent(c);
      if (c !== null && !v.paused && !inField(document.activeElement)) document.getElementById(`cue-${c}`)?.scrollIntoView({ block: 'nearest' });
    }, 250);
    return () => clearInterval(h);
  }, []);

  const sel = data.cues.find((c) => c.id === selected) ?? null;
  const pick = (c: Cue | undefined, play = true) => {
    if (!c) return;
    setSelected(c.id);
    if (play) seek(c.start_ms);
    document.getElementById(`cue-${c.id}`)?.scrollIntoView({ block: 'nearest' });
  };
  const cueWrite = (rel: string, body?: unknown, method = 'POST') => data.write(method, rel, body);
  const act = (a: KeyAction): boolean => {
    const v = video();
    const cues = data.cues;
    const now = nowMs();
    const at = sel ? cues.indexOf(sel) : -1;
    switch (a) {
      case 'toggle': if (v) { if (v.paused) void v.play().catch(() => {}); else v.pause(); } return !!v;
      case 'back': seek(now - SKIP_S * 1000); return true;
      case 'forward': seek(now + SKIP_S * 1000); return true;
      case 'next': pick(at >= 0 ? cues[at + 1] : cues.find((c) => c.start_ms > now) ?? cues[0]); return true;
      case 'prev': pick(at >= 0 ? cues[at - 1] : [...cues].reverse().find((c) => c.end_ms <= now)); return true;
      case 'edit': if (sel) (document.querySelector(`#cue-${sel.id} textarea`) as HTMLTextAreaElement | null)?.focus(); return !!sel;
    }
    if (!writable || !ready) return false;
    switch (a) {
      case 'set_start': if (sel) void cueWrite(`/cues/${sel.id}`, { start_ms: now }, 'PATCH'); return !!sel;
      case 'set_end': if (sel) void cueWrite(`/cues/${sel.id}`, { end_ms: now }, 'PATCH'); return !!sel;
      case 'split': {
        if (!sel) return false;
        const off = caret.current?.id === sel.id && caret.current.offset > 0 && caret.current.offset < sel.text.length ? caret.current.offset : undefined;
        const inside = now > sel.start_ms && now < sel.end_ms;
        void cueWrite(`/cues/${sel.id}/split`, { ...(inside ? { at_ms: now } : {}), ...(off !== undefined ? { offset: off } : {}) });
        return true;
      }
      case 'merge': if (sel) void cueWrite(`/cues/${sel.id}/merge`, { with: 'next' }); return !!sel;
      case 'insert': setInsertAt(now); setInsertText(''); requestAnimationFrame(() => document.getElementById('insert-text')?.focus()); return true;
      case 'delete': if (sel && confirm(t('se_confirm_delete', { t: tc(sel.start_ms) }))) void cueWrite(`/cues/${sel.id}`, undefined, 'DELETE'); return !!sel;
      case 'undo': { const r = data.revisions.find((x) => !x.undone_by); if (r) void cueWrite(`/revisions/${encodeURIComponent(r.id)}/undo`); return !!r; }
    }
    return false;
  };
  const actRef = useRef(act);
  actRef.current = act;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const target = e.target as HTMLElement | null;
      const a = keyAction(e, inField(target));
      if (!a) return;
      // Keys the player and buttons answer themselves: Enter on a button or link, anything inside the player.
      if (target?.closest?.('.se-player')) return;
      if (a === 'edit' && target?.closest?.('button, a, summary')) return;
      if (actRef.current(a)) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  // Stable handlers for the rows (they are redrawn only when their cue changes).
  const rowSelect = useRef((cid: number) => setSelected(cid)).current;
  const rowSeek = useRef((ms: number) => seek(ms)).current;
  const textRef = useRef((_: number, __: string) => {});
  textRef.current = (cid, text) => { void cueWrite(`/cues/${cid}`, { text }, 'PATCH'); };
  const rowText = useRef((cid: number, text: string) => textRef.current(cid, text)).current;
  const rowCaret = useRef((cid: number, offset: number) => { caret.current = { id: cid, offset }; }).current;

  // The second track's text per cue, worked out once per pair of cue lists (the page redraws 4 times a second while playing).
  const besideOf = useMemo(() => {
    if (!besideId) return null;
    const m = new Map(data.cues.map((c) => [c.id, besideText(c, besideCues)]));
    return (c: Cue) => m.get(c.id) ?? besideText(c, besideCues);
  }, [besideId, besideCues, data.cues]);
  const a = asset.data;
  if (asset.loading && !a) return <Loading />;
  if (!a) return <Problem error={asset.error} onRetry={asset.reload} />;
  const over = data.cues.filter((c) => (c.over_limit ?? []).length).length;
  const besideTrack = list.find((x) => x.id === besideId) ?? null;
  const rtlText = !!track && isRtl(track.language);
  return (
    <>
      <PageHead title={t('se_title', { title: a.title || a.id })}>
        <a href={`/studio/library/${encodeURIComponent(id)}`} class="button" id="back-asset">{t('se_back_asset')}</a>
      </PageHead>
      <Problem error={data.error ?? tracks.error} />
      {data.note && <p class="once" role="status" id="se-note">{data.note}</p>}
      <section class="panel se-top">
        {list.length > 0 && <TrackBar base={base} tracks={list} track={track} beside={besideId} busy={data.busy}
          onPick={(x) => { setTrackId(x); history.replaceState(null, '', `${location.pathname}?track=${encodeURIComponent(x)}`); }}
          onBeside={setBesideId} onChanged={tracks.reload} setError={data.setError}
          onTranslated={(x) => { const from = track?.id ?? ''; setTrackId(x.id); tracks.reload(); requestAnimationFrame(() => setBesideId(from)); }} />}
        {list.length === 0 && !tracks.loading && <p class="muted" id="no-tracks">{t('se_no_tracks')}</p>}
        {writable && (list.length === 0 ? <CreateTrack base={base} onCreated={(x) => { setTrackId(x.id); tracks.reload(); }} /> : (
          <details id="new-track"><summary>{t('se_new_track')}</summary><CreateTrack base={base} onCreated={(x) => { setTrackId(x.id); tracks.reload(); }} /></details>
        ))}
        {track && (track.status === 'queued' || track.status === 'running') && <p class="state" role="status" id="track-working"><span class="spin" aria-hidden="true" />{t(track.source === 'translation' ? 'se_translating' : 'se_recognising')}</p>}
        {track?.status === 'failed' && <p class="problem" role="alert" id="track-failed">{t('se_track_failed')} {track.error}</p>}
      </section>
      <div class="se-grid">
        <section class="panel se-media">
          <div ref={host} class="se-player">
            <AssetPlayer key={a.id} id={a.id} ready={!!a.playback?.hls} poster={a.playback?.poster} title={a.title} hostId="player"
              waiting={<div class="player-wait"><p>{t('processing')}</p></div>} onError={data.setError} />
          </div>
          <Waveform peaks={peaks} failed={peaksFailed} cues={data.cues} selected={selected} durationMs={(a.duration_s ?? 0) * 1000} rtlText={rtlText}
            video={video} onSeek={seek} onSelect={setSelected}
            onEdge={ready && writable ? (cid, edge, ms) => void cueWrite(`/cues/${cid}`, { [edge]: ms }, 'PATCH') : undefined} />
          {ready && writable && (
            <div class="se-selbar" id="cue-actions">
              <span class="muted" id="selected-cue">{sel ? <>{t('se_selected', { n: data.cues.indexOf(sel) + 1 })} <bdi dir="ltr">{tc(sel.start_ms)} → {tc(sel.end_ms)}</bdi></> : t('se_pick_cue')}</span>
              <div class="actions">
                <button type="button" class="small" id="set-start" disabled={!sel || data.busy} onClick={() => act('set_start')}>{t('se_set_start')} <kbd dir="ltr">[</kbd></button>
                <button type="button" class="small" id="set-end" disabled={!sel || data.busy} onClick={() => act('set_end')}>{t('se_set_end')} <kbd dir="ltr">]</kbd></button>
                <button type="button" class="small" id="split" disabled={!sel || data.busy} onClick={() => act('split')}>{t('se_split')} <kbd dir="ltr">S</kbd></button>
                <button type="button" class="small" id="merge" disabled={!sel || data.busy} onClick={() => act('merge')}>{t('se_merge')} <kbd dir="ltr">M</kbd></button>
                <button type="button" class="small" id="insert" disabled={data.busy} onClick={() => act('insert')}>{t('se_insert')} <kbd dir="ltr">I</kbd></button>
                <button type="button" class="small danger" id="delete-cue" disabled={!sel || data.busy} onClick={() => act('delete')}>{t('se_delete')}</button>
              </div>
              {insertAt !== null && (
                <form id="insert-form" class="se-inline" onSubmit={async (e) => {
                  e.preventDefault();
                  const next = data.cues.find((c) => c.start_ms > insertAt);
                  const end = Math.min(insertAt + 2000, next ? next.start_ms - 80 : insertAt + 2000);
                  if (await cueWrite('/cues', { start_ms: insertAt, end_ms: end, text: insertText })) setInsertAt(null);
                }}>
                  <bdi dir="ltr" class="muted">{tc(insertAt)}</bdi>
                  <input id="insert-text" dir="auto" lang={track?.language} aria-label={t('se_insert_text')} placeholder={t('se_insert_text')} value={insertText}
                    onInput={(e) => setInsertText(e.currentTarget.value)} onKeyDown={(e) => { if (e.key === 'Escape') setInsertAt(null); }} />
                  <button type="submit" class="small primary" disabled={!insertText.trim() || data.busy}>{t('se_insert_add')}</button>
                  <button type="button" class="small" onClick={() => setInsertAt(null)}>{t('cancel')}</button>
                </form>
              )}
            </div>
          )}
          <details id="shortcuts"><summary>{t('se_shortcuts')}</summary>
            <dl class="kv se-keys">{SHORTCUTS.map(([k, w]) => <><dt><kbd dir="ltr">{k}</kbd></dt><dd>{t(w as Parameters<typeof t>[0])}</dd></>)}</dl>
          </details>
        </section>
        <section class="panel se-cues">
          <div class="row-between">
            <h2>{t('se_cues')}</h2>
            {ready && <span class="muted" id="cue-summary">{t('se_n_cues', { n: data.cues.length })}{over ? <> · <span class="se-flag" id="over-count">{t('se_n_over', { n: over })}</span></> : null}</span>}
          </div>
          {data.loading && !data.cues.length ? <Loading /> : ready ? (
            <div class="se-scroll">
              <CueList cues={data.cues} selected={selected} current={current} lang={track!.language} besideLang={besideTrack?.language ?? ''}
                beside={besideOf} readOnly={!writable} gen={data.conflicts}
                onSelect={rowSelect} onSeek={rowSeek} onText={rowText} onCaret={rowCaret} />
            </div>
          ) : <p class="muted">{t('se_no_cues')}</p>}
        </section>
        {ready && (
          <section class="panel se-tools wide">
            {writable && <ShiftTool selected={selected} busy={data.busy} write={data.write} />}
            {writable && <FindReplace cues={data.cues} glossary={glossary} busy={data.busy} write={data.write} selected={selected} onFound={(c) => pick(c)} />}
            <Revisions items={data.revisions} busy={data.busy || !writable} write={data.write} />
          </section>
        )}
      </div>
    </>
  );
}
