/**
 * The cue editor's waveform: the audio peaks (GET /v1/assets/{id}/waveform) around the playhead with the cues drawn
 * on them as boxes, the selected cue outlined and cues over a limit in red. Time runs left to right in both languages.
 * A click selects the cue under it and moves the playhead there; dragging a cue's edge (when editing is allowed)
 * sets its start or end there. The view follows the playhead; − and + zoom.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { tc, type Cue, type Peaks } from './subtitles-model';

const ZOOMS = [4, 6, 10, 15, 30, 60];

/** Where the view starts (ms) so that the playhead stays inside its middle part. */
function follow(start: number, t: number, span: number, dur: number): number {
  if (t < start + span * 0.1 || t > start + span * 0.85) start = t - span * 0.3;
  return Math.max(0, Math.min(start, Math.max(0, dur - span)));
}

/** The waveform strip with the cues; `video()` gives the playhead, `onSeek`/`onSelect` answer clicks. */
export function Waveform(p: {
  peaks: Peaks | null; failed: boolean; cues: Cue[]; selected: number | null; durationMs: number; rtlText: boolean;
  video(): HTMLVideoElement | null; onSeek(ms: number): void; onSelect(id: number): void;
  /** Editing allowed: a dragged edge's new time (ms, to 10 ms). */
  onEdge?(id: number, edge: 'start_ms' | 'end_ms', ms: number): void;
}) {
  const { t } = useStudio();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [zoom, setZoom] = useState(2);
  const view = useRef(0);
  const props = useRef(p);
  props.current = p;
  const span = ZOOMS[zoom]! * 1000;
  const dirty = useRef(true);
  /** An edge being dragged: the cue, which edge, where it is now, and whether the pointer moved. */
  const drag = useRef<{ id: number; edge: 'start_ms' | 'end_ms'; ms: number; moved: boolean } | null>(null);
  useEffect(() => { dirty.current = true; }, [p.peaks, p.cues, p.selected, zoom]);

  useEffect(() => {
    let raf = 0, lastT = -1, lastW = 0;
    const draw = () => {
      raf = requestAnimationFrame(draw);
      const c = canvas.current;
      if (!c) return;
      const q = props.current;
      const v = q.video();
      const now = v ? v.currentTime * 1000 : 0;
      const w = c.clientWidth, h = c.clientHeight;
      if (!dirty.current && now === lastT && w === lastW) return;
      dirty.current = false; lastT = now; lastW = w;
      const dpr = window.devicePixelRatio || 1;
      if (c.width !== Math.round(w * dpr)) { c.width = Math.round(w * dpr); c.height = Math.round(h * dpr); }
      const g = c.getContext('2d');
      if (!g || !w) return;
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      const dur = Math.max(q.durationMs, span);
      view.current = follow(view.current, now, span, dur);
      const start = view.current;
      const x = (ms: number) => ((ms - start) / span) * w;
      const css = getComputedStyle(c);
      g.clearRect(0, 0, w, h);
      g.fillStyle = css.getPropertyValue('--wf-bg') || '#f1f4f9';
      g.fillRect(0, 0, w, h);
      // Peaks: the min and max of the pixels under each column.
      const pk = q.peaks;
      if (pk && pk.length) {
        const pxPerMs = pk.sample_rate / pk.samples_per_pixel / 1000;
        g.fillStyle = '#7b8798';
        const mid = h / 2;
        for (let col = 0; col < w; col++) {
          const a = Math.floor((start + (col / w) * span) * pxPerMs), b = Math.max(a + 1, Math.floor((start + ((col + 1) / w) * span) * pxPerMs));
          let lo = 0, hi = 0;
          for (let i = a; i < b && i < pk.length; i++) { lo = Math.min(lo, pk.data[2 * i]!); hi = Math.max(hi, pk.data[2 * i + 1]!); }
          const top = mid - (hi / 128) * mid, bot = mid - (lo / 128) * mid;
          g.fillRect(col, top, 1, Math.max(1, bot - top));
        }
      }
      // Cues: boxes with their first line.
      g.font = '12px system-ui, sans-serif';
      g.textBaseline = 'top';
      let drawn = 0;
      const dr = drag.current;
      for (const c0 of q.cues) {
        const cue = dr && dr.id === c0.id ? { ...c0, [dr.edge]: dr.ms } : c0;
        if (cue.end_ms < start || cue.start_ms > start + span) continue;
        drawn++;
        const x0 = x(cue.start_ms), x1 = x(cue.end_ms);
        const bad = (cue.over_limit ?? []).length > 0;
        const sel = cue.id === q.selected;
        g.fillStyle = bad ? 'rgba(185,28,28,.16)' : sel ? 'rgba(37,99,235,.26)' : 'rgba(37,99,235,.12)';
        g.fillRect(x0, 2, x1 - x0, h - 4);
        g.strokeStyle = bad ? '#b91c1c' : '#2563eb';
        g.lineWidth = sel ? 2 : 1;
        g.strokeRect(x0 + 0.5, 2.5, Math.max(1, x1 - x0 - 1), h - 5);
        g.save();
        g.beginPath(); g.rect(x0 + 3, 0, Math.max(0, x1 - x0 - 6), h); g.clip();
        g.fillStyle = '#17202e';
        g.direction = q.rtlText ? 'rtl' : 'ltr';
        g.textAlign = q.rtlText ? 'right' : 'left';
        g.fillText(cue.text.split('\n')[0]!, q.rtlText ? x1 - 4 : x0 + 4, 5);
        g.restore();
      }
      // Seconds ticks and the playhead.
      g.fillStyle = '#5b6577';
      g.direction = 'ltr'; g.textAlign = 'left'; g.textBaseline = 'bottom';
      // A tick each 1 or 5 s; a time label on ticks at least 60 px apart.
      const step = span > 20_000 ? 5000 : 1000;
      const every = [1000, 2000, 5000, 10_000, 30_000, 60_000].find((e) => e >= step && (e / span) * w >= 60) ?? 60_000;
      for (let s = Math.ceil(start / step) * step; s <= start + span; s += step) { g.fillRect(x(s), h - 5, 1, 5); if (s % every === 0) g.fillText(tc(s).replace(/\.000$/, ''), x(s) + 2, h - 5); }
      g.fillStyle = '#d97706';
      g.fillRect(Math.round(x(now)) - 1, 0, 2, h);
      c.dataset.viewStart = String(Math.round(start));
      c.dataset.cuesDrawn = String(drawn);
      c.dataset.pixels = String(pk?.length ?? 0);
    };
    raf = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(raf);
  }, [span]);

  const msAt = (clientX: number) => {
    const r = canvas.current!.getBoundingClientRect();
    return Math.max(0, Math.round(view.current + ((clientX - r.left) / r.width) * span));
  };
  /** The edge of a cue within 6 px of the pointer (editing only). */
  const edgeAt = (clientX: number): { id: number; edge: 'start_ms' | 'end_ms' } | null => {
    if (!p.onEdge) return null;
    const w = canvas.current!.getBoundingClientRect().width;
    const tol = (6 / w) * span, ms = msAt(clientX);
    for (const c of p.cues) {
      if (Math.abs(c.start_ms - ms) <= tol) return { id: c.id, edge: 'start_ms' };
      if (Math.abs(c.end_ms - ms) <= tol) return { id: c.id, edge: 'end_ms' };
    }
    return null;
  };
  const down = (e: PointerEvent) => {
    const hit = edgeAt(e.clientX);
    if (!hit) return;
    canvas.current!.setPointerCapture(e.pointerId);
    drag.current = { ...hit, ms: Math.round(msAt(e.clientX) / 10) * 10, moved: false };
  };
  const move = (e: PointerEvent) => {
    const d = drag.current;
    if (!d) { canvas.current!.style.cursor = edgeAt(e.clientX) ? 'ew-resize' : ''; return; }
    d.ms = Math.round(msAt(e.clientX) / 10) * 10; d.moved = true; dirty.current = true;
  };
  const up = () => {
    const d = drag.current;
    if (!d) return;
    if (d.moved) { p.onSelect(d.id); p.onEdge?.(d.id, d.edge, d.ms); }
    // The click that ends a drag is not a seek.
    if (d.moved) setTimeout(() => { drag.current = null; dirty.current = true; }, 0); else drag.current = null;
  };
  const click = (e: MouseEvent) => {
    if (drag.current) return;
    const ms = msAt(e.clientX);
    const hit = p.cues.find((q) => ms >= q.start_ms && ms < q.end_ms);
    if (hit) p.onSelect(hit.id);
    p.onSeek(ms);
  };
  return (
    <div class="se-wave" dir="ltr">
      <canvas ref={canvas} id="waveform" role="img" aria-label={t('se_waveform')} onClick={click} onPointerDown={down} onPointerMove={move} onPointerUp={up} onPointerCancel={up} />
      <div class="se-wave-bar">
        <span class="muted">{p.failed ? t('se_wave_failed') : !p.peaks ? t('se_wave_loading') : p.peaks.length === 0 ? t('se_wave_silent') : t('se_wave_span', { n: ZOOMS[zoom]! })}</span>
        <span class="se-zoom">
          <button type="button" class="small" id="wave-zoom-out" aria-label={t('se_zoom_out')} disabled={zoom >= ZOOMS.length - 1} onClick={() => setZoom(zoom + 1)}>−</button>
          <button type="button" class="small" id="wave-zoom-in" aria-label={t('se_zoom_in')} disabled={zoom <= 0} onClick={() => setZoom(zoom - 1)}>+</button>
        </span>
      </div>
    </div>
  );
}
