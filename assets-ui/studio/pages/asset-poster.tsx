/** Poster picker: the asset's thumbnail frames (thumbs.vtt over the sprite sheet) as a strip, or the player's current frame; the pick becomes the poster. */
import { useState } from 'preact/hooks';
import { errorWords } from '../api';
import { useStudio } from '../ctx';
import { Loading, Problem, useLoad } from '../ui';
import { clock } from './asset-cues';

/** One thumbnail: its time span and its place in the sprite. */
export interface Tile { start: number; end: number; src: string; x: number; y: number; w: number; h: number }

const TS = /(?:(\d+):)?(\d{2}):(\d{2}(?:\.\d+)?)/;
const secs = (s: string) => { const m = TS.exec(s); return m ? Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) : NaN; };

/** Reads a WebVTT thumbnail track (`start --> end` then `sprite.jpg#xywh=x,y,w,h`); image URLs resolved against the track's URL. */
export function parseThumbs(vtt: string, base: string): Tile[] {
  const lines = vtt.split(/\r?\n/), out: Tile[] = [];
  for (let i = 0; i < lines.length - 1; i++) {
    if (!lines[i].includes('-->')) continue;
    const [a, b] = lines[i].split('-->');
    const m = /^(.*)#xywh=(\d+),(\d+),(\d+),(\d+)\s*$/.exec(lines[i + 1].trim());
    if (!m || Number.isNaN(secs(a))) continue;
    out.push({ start: secs(a), end: secs(b), src: new URL(m[1], base).href, x: +m[2], y: +m[3], w: +m[4], h: +m[5] });
  }
  return out;
}

/** The poster panel of a ready asset. */
export function PosterPicker(p: { id: string; playback: { poster: string; thumbs_vtt?: string }; playerTime(): number | null; onSeek(t: number): void; onSaved(a: unknown): void }) {
  const { t, api } = useStudio();
  const vtt = p.playback.thumbs_vtt;
  const tiles = useLoad(async () => (vtt ? parseThumbs(await (await fetch(vtt)).text(), vtt) : []), [vtt]);
  const [sel, setSel] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const use = async (time: number | null) => {
    setDone(null);
    if (time === null) { setErr(t('ap_no_player')); return; }
    setBusy(true); setErr(null);
    try {
      const a = await api('PUT', `/v1/assets/${encodeURIComponent(p.id)}/poster`, { time_s: Math.round(time * 1000) / 1000 });
      p.onSaved(a); setDone(t('ap_poster_saved', { t: clock(time) }));
    } catch (e) { setErr(errorWords(e)); } finally { setBusy(false); }
  };
  const list = tiles.data ?? [];
  const picked = sel === null ? null : list[sel] ?? null;
  return (
    <div id="poster-picker">
      <p class="muted">{t('ap_poster_intro')}</p>
      <figure style={{ margin: '0 0 .6rem' }}>
        <img id="poster-img" src={p.playback.poster} alt={t('ap_current_poster')} class="poster" style={{ maxHeight: '180px' }} />
        <figcaption class="muted">{t('ap_current_poster')}</figcaption>
      </figure>
      <h3 style={{ fontSize: '.95rem', margin: '.4rem 0' }}>{t('ap_frames')}</h3>
      {tiles.loading && !tiles.data ? <Loading /> : !list.length ? <p class="muted">{t('ap_no_frames')}</p> : (
        <div id="frame-strip" role="group" aria-label={t('ap_frames')} dir="ltr" style={{ display: 'flex', gap: '.35rem', overflowX: 'auto', paddingBottom: '.4rem' }}>
          {list.map((tile, i) => (
            <button type="button" class="frame" aria-pressed={sel === i} aria-label={t('ap_frame_at', { t: clock(tile.start) })} title={clock(tile.start)}
              onClick={() => { setSel(i); setDone(null); p.onSeek(tile.start); }}
              style={{ flex: '0 0 auto', width: `${tile.w}px`, height: `${tile.h}px`, padding: 0, minHeight: 0, borderRadius: '4px', cursor: 'pointer',
                border: sel === i ? '3px solid var(--brand)' : '3px solid transparent', background: `url("${tile.src}") -${tile.x}px -${tile.y}px no-repeat`, boxSizing: 'content-box' }} />
          ))}
        </div>
      )}
      <Problem error={err ?? tiles.error} />
      <div class="actions">
        <button type="button" class="primary" id="poster-use-frame" disabled={busy || !picked} onClick={() => picked && use(picked.start)}>
          {picked ? t('ap_use_frame', { t: clock(picked.start) }) : t('ap_pick_first')}
        </button>
        <button type="button" id="poster-use-player" disabled={busy} onClick={() => use(p.playerTime())}>{t('ap_use_player')}</button>
        {busy && <span class="muted" role="status">{t('ap_poster_saving')}</span>}
        {done && <span class="ok" role="status" id="poster-saved">{done}</span>}
      </div>
    </div>
  );
}
