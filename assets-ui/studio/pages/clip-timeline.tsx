/**
 * The clip cutter's timeline: a filmstrip of frames from the recording (GET /v1/channels/{id}/thumbnails), the
 * recorded spans (gaps hatched), programme boundaries, and draggable in/out handles that snap to frames or to
 * programme boundaries. Time runs left to right in both languages; the handles are sliders for the keyboard too.
 */
import { useRef, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import { Empty, Loading, useLoad } from '../ui';
import { clockText, pct, snap, type Cut, type SnapMode, type Win } from './clip-time';

/** The thumbnails plan as answered. */
export interface ThumbPlan { from: string; to: string; fps: number | null; segment_ms: number; segments: number[] | null; recorded: { from: string; to: string }[]; items: { at_ms: number; url: string; segment_start: string; segment_end: string }[] }
/** A programme boundary marker. */
export interface Mark { id: string; title: string; from: number; to: number }

const path = (u: string) => { try { return new URL(u, location.href).pathname; } catch { return u; } };

/** The timeline; `onPlan` hears the loaded plan (frame rate for the form). */
export function Timeline({ channelId, win, cut, onCut, mode, marks, count, bySegment, onPlan }: {
  channelId: string; win: Win; cut: Cut; onCut: (c: Cut) => void; mode: SnapMode; marks: Mark[]; count: number; bySegment: boolean; onPlan?: (p: ThumbPlan) => void;
}) {
  const { t, f, get, lang } = useStudio();
  const box = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<'in' | 'out' | null>(null);
  const plan = useLoad(() => get<ThumbPlan>(`/v1/channels/${channelId}/thumbnails?from=${new Date(win.from).toISOString()}&to=${new Date(win.to).toISOString()}&count=${count}`).then((p) => { onPlan?.(p); return p; }), [channelId, win.from, win.to, count]);
  const fps = plan.data?.fps ?? 25;
  const bounds = marks.flatMap((m) => [m.from, m.to]);
  const frame = 1000 / fps;
  // Segment precision: the handles land on segment boundaries (where the server will cut).
  const grid = bySegment ? plan.data?.segments ?? null : null;
  const set = (which: 'in' | 'out', raw: number) => {
    const v = snap(raw, win, fps, mode, bounds, grid);
    if (which === 'in') onCut({ in: Math.min(v, cut.out - frame), out: cut.out });
    else onCut({ in: cut.in, out: Math.max(v, cut.in + frame) });
  };
  const at = (clientX: number) => {
    const r = box.current!.getBoundingClientRect();
    return win.from + Math.min(1, Math.max(0, (clientX - r.left) / r.width)) * (win.to - win.from);
  };
  const handle = (which: 'in' | 'out') => {
    const v = which === 'in' ? cut.in : cut.out;
    return (
      <button type="button" role="slider" id={`h-${which}`} class={`c-handle c-${which}${drag === which ? ' dragging' : ''}`} style={{ insetInlineStart: `${pct(win, v)}%` }}
        aria-label={which === 'in' ? t('clip_in') : t('clip_out')} aria-valuemin={win.from} aria-valuemax={win.to} aria-valuenow={Math.round(v)} aria-valuetext={clockText(v, f.time)}
        onPointerDown={(e) => { e.preventDefault(); e.currentTarget.setPointerCapture(e.pointerId); setDrag(which); }}
        onPointerMove={(e) => { if (drag === which) set(which, at(e.clientX)); }}
        onPointerUp={(e) => { e.currentTarget.releasePointerCapture(e.pointerId); setDrag(null); }}
        onKeyDown={(e) => {
          const step = e.shiftKey ? (plan.data?.segment_ms ?? 2000) : frame;
          const k = e.key;
          const next = grid ? grid.find((b) => b > v + 1) ?? v : v + step, prev = grid ? [...grid].reverse().find((b) => b < v - 1) ?? v : v - step;
          if (k === 'ArrowLeft' || k === 'ArrowDown') set(which, prev);
          else if (k === 'ArrowRight' || k === 'ArrowUp') set(which, next);
          else if (k === 'Home') set(which, win.from);
          else if (k === 'End') set(which, win.to);
          else return;
          e.preventDefault();
        }}>
        <span class="c-flag" dir="ltr">{clockText(v, f.time)}</span>
      </button>
    );
  };
  const items = plan.data?.items ?? [];
  const tile = 100 / count;
  return (
    <div class="c-tl">
      <div class="c-track" dir="ltr" ref={box} id="timeline" data-fps={fps} data-frames={items.length} data-segments={grid ? grid.join(',') : undefined}
        onPointerDown={(e) => { if ((e.target as HTMLElement).closest('.c-handle')) return; const x = at(e.clientX); set(Math.abs(x - cut.in) <= Math.abs(x - cut.out) ? 'in' : 'out', x); }}>
        <div class="c-strip" id="filmstrip">
          {items.map((i) => <img key={i.at_ms} src={path(i.url)} alt="" loading="lazy" draggable={false} style={{ insetInlineStart: `${Math.max(0, pct(win, i.at_ms) - tile / 2)}%`, inlineSize: `${tile}%` }} />)}
        </div>
        {grid && <div class="c-segs" aria-hidden="true">{grid.filter((b) => b >= win.from && b <= win.to).map((b) => <i style={{ insetInlineStart: `${pct(win, b)}%` }} />)}</div>}
        <div class="c-rec" aria-hidden="true">{(plan.data?.recorded ?? []).map((r) => <i style={{ insetInlineStart: `${pct(win, Date.parse(r.from))}%`, inlineSize: `${pct(win, Date.parse(r.to)) - pct(win, Date.parse(r.from))}%` }} />)}</div>
        {marks.filter((m) => m.to > win.from && m.from < win.to).map((m) => (
          <div class="c-mark" style={{ insetInlineStart: `${pct(win, m.from)}%`, inlineSize: `${pct(win, m.to) - pct(win, m.from)}%` }} title={m.title}><span>{m.title}</span></div>
        ))}
        <div class="c-sel" style={{ insetInlineStart: `${pct(win, cut.in)}%`, inlineSize: `${pct(win, cut.out) - pct(win, cut.in)}%` }} />
        {handle('in')}{handle('out')}
      </div>
      <div class="c-axis" dir="ltr" aria-hidden="true">{[0, 0.25, 0.5, 0.75, 1].map((x) => <span style={{ insetInlineStart: `${x * 100}%` }}>{f.time(win.from + x * (win.to - win.from))}</span>)}</div>
      {plan.loading && !plan.data ? <Loading /> : plan.error ? <Empty>{t('c_no_recording')} {lang === 'en' && <small>{plan.error}</small>}</Empty> : null}
      {plan.data && !plan.error && <p class="muted c-note">{grid ? t('c_segments_note', { n: items.length, s: Math.max(0, grid.length - 1) }) : t('c_frames_note', { n: items.length, fps: f.num(fps) })}</p>}
    </div>
  );
}
