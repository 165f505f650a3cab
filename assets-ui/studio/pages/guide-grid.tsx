/**
 * The guide's week grid: a column per day (mirrored in right-to-left), time running down (1 px a minute). Programmes
 * are blocks that a pointer drags to another time or day and resizes by their lower edge, snapping to 5 minutes;
 * focused, the arrow keys move them (↑↓ 5 minutes, ←→ a day, Shift+↑↓ the end). A click or Enter opens the editor.
 * Short programmes are drawn one line tall (with the whole text as a tooltip) and share the width with the blocks
 * they would otherwise cover (guide-lanes.ts). A week with today in it opens at the current time, marked by a line.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useStudio } from '../ctx';
import type { Key } from '../i18n';
import type { Mark, Prog } from './guide-model';
import { place, type Placed } from './guide-lanes';
import { addDays, MIN, snap, SNAP_MIN, type Zone } from './guide-time';

/** Pixels per minute of the grid. */
export const PX = 1;
const DAY_MIN = 1440;
/** The least height of a block: one line of text (a 5-minute programme would be 5 px). */
const MIN_PX = 22;
/** Below this height a block shows its time and title on one line. */
const COMPACT_PX = 40;

/** A requested move: the programme and its new times. */
export type MoveFn = (p: Prog, start: number, end: number, how: 'drag' | 'resize' | 'key') => void;

interface Drag { id: string; mode: 'move' | 'resize'; day: string; x0: number; y0: number; p: Prog; moved: boolean }

/** Where a moved programme lands: day columns from the pointer, minutes from the vertical delta, snapped. */
function target(d: Drag, dayDelta: number, dyMin: number, z: Zone): [number, number] {
  const dur = d.p.end_ms - d.p.start_ms;
  if (d.mode === 'resize') {
    const raw = d.p.end_ms + dyMin * MIN;
    const end = z.at(z.dayKey(raw), snap(z.minuteOfDay(raw)));
    return [d.p.start_ms, Math.max(end, d.p.start_ms + SNAP_MIN * MIN)];
  }
  const s0 = d.p.start_ms;
  const startDay = addDays(z.dayKey(s0), dayDelta);
  const start = z.at(startDay, snap(z.minuteOfDay(s0) + dyMin));
  return [start, start + dur];
}

/** The week grid. `progs` is the guide as drafted; `ghosts` are programmes the draft removes (shown struck out). */
export function WeekGrid({ days, z, progs, marks, ghosts, canEdit, onOpen, onMove, onDelete, focusId }: {
  days: string[]; z: Zone; progs: Prog[]; marks: Map<string, Mark>; ghosts: Prog[]; canEdit: boolean;
  onOpen: (p: Prog) => void; onMove: MoveFn; onDelete: (p: Prog) => void; focusId: string | null;
}) {
  const { t, lang } = useStudio();
  const loc = lang === 'he' ? 'he-IL' : 'en-GB';
  const dayFmt = new Intl.DateTimeFormat(loc, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const dayName = (k: string) => dayFmt.format(new Date(`${k}T12:00:00Z`));
  const body = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const suppress = useRef(false);
  const [ghost, setGhost] = useState<{ id: string; start: number; end: number } | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const bounds = days.map((k) => [z.at(k, 0), z.at(addDays(k, 1), 0)] as const);
  const todayAt = bounds.findIndex(([a, b]) => now >= a && now < b);

  useEffect(() => { const id = setInterval(() => setNow(Date.now()), 60_000); return () => clearInterval(id); }, []);

  useEffect(() => { // open at the current time when the week holds today; else at the morning, or the week's first programme
    const el = body.current?.parentElement;
    if (!el) return;
    const t = Date.now();
    if (bounds.some(([a, b]) => t >= a && t < b)) { el.scrollTop = Math.max(0, z.minuteOfDay(t) * PX - el.clientHeight / 4); return; }
    const first = progs.filter((p) => p.end_ms > bounds[0][0] && p.start_ms < bounds[6][1]).map((p) => z.minuteOfDay(p.start_ms));
    el.scrollTop = Math.max(0, Math.min(7 * 60, ...first) - 30) * PX;
  }, [days[0], z]);

  useEffect(() => { // a block moved by the keyboard keeps the focus when it lands in another column
    if (!focusId) return;
    const el = body.current?.querySelector<HTMLElement>(`[data-prog="${focusId}"] .gmain`);
    if (el && (document.activeElement === document.body || !document.activeElement)) el.focus();
  });

  const colAt = (x: number): number => {
    const cols = Array.from(body.current?.querySelectorAll<HTMLElement>('.gday') ?? []);
    return cols.findIndex((c) => { const r = c.getBoundingClientRect(); return x >= r.left && x < r.right; });
  };

  const down = (e: PointerEvent, p: Prog, day: string, mode: Drag['mode']) => {
    if (!canEdit || e.button !== 0 || (e.target as HTMLElement).closest('.gdel')) return;
    if (mode === 'resize') e.stopPropagation();
    e.preventDefault();
    suppress.current = false;
    drag.current = { id: p.id, mode, day, x0: e.clientX, y0: e.clientY, p, moved: false };
    const move = (ev: PointerEvent) => {
      const d = drag.current!;
      if (!d.moved && Math.abs(ev.clientX - d.x0) < 4 && Math.abs(ev.clientY - d.y0) < 4) return;
      d.moved = true;
      const col = d.mode === 'move' ? colAt(ev.clientX) : -1;
      const dayDelta = col < 0 ? 0 : col - days.indexOf(d.day);
      const [start, end] = target(d, dayDelta, (ev.clientY - d.y0) / PX, z);
      setGhost({ id: d.id, start, end });
    };
    const up = (ev: PointerEvent | KeyboardEvent) => {
      if (ev instanceof KeyboardEvent && ev.key !== 'Escape') return;
      window.removeEventListener('pointermove', move); window.removeEventListener('pointerup', up); window.removeEventListener('pointercancel', up); window.removeEventListener('keydown', up);
      const d = drag.current!;
      drag.current = null;
      setGhost(null);
      if (!d.moved) { if (d.mode === 'resize') onOpen(d.p); return; }
      // The click that follows this pointerup (same task) must not open the editor; later clicks must.
      suppress.current = true;
      setTimeout(() => { suppress.current = false; }, 0);
      if (ev.type === 'pointercancel' || ev instanceof KeyboardEvent) return; // Escape or a cancelled pointer: nothing moves
      const col = d.mode === 'move' ? colAt(ev.clientX) : -1;
      const [start, end] = target(d, col < 0 ? 0 : col - days.indexOf(d.day), (ev.clientY - d.y0) / PX, z);
      if (start !== d.p.start_ms || end !== d.p.end_ms) onMove(d.p, start, end, d.mode === 'move' ? 'drag' : 'resize');
    };
    window.addEventListener('pointermove', move); window.addEventListener('pointerup', up); window.addEventListener('pointercancel', up); window.addEventListener('keydown', up);
  };

  const key = (e: KeyboardEvent, p: Prog) => {
    if (!canEdit || e.altKey || e.ctrlKey || e.metaKey) return;
    const rtl = document.documentElement.dir === 'rtl';
    const dur = p.end_ms - p.start_ms;
    let s = p.start_ms, en = p.end_ms;
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      const d = (e.key === 'ArrowUp' ? -SNAP_MIN : SNAP_MIN) * MIN;
      if (e.shiftKey) en = Math.max(p.start_ms + SNAP_MIN * MIN, en + d); else { s += d; en = s + dur; }
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const n = (e.key === 'ArrowRight') !== rtl ? 1 : -1;
      s = z.at(addDays(z.dayKey(s), n), z.minuteOfDay(s)); en = s + dur;
    } else return;
    e.preventDefault();
    onMove(p, s, en, 'key');
  };

  const markWord = (m: Mark) => t(`g_mark_${m}` as Key);
  /** The extent of a programme in a day column, in px (what `place` draws at least one line tall). */
  const span = (p: Prog, i: number): [number, number] => {
    const [ds, de] = bounds[i];
    return [((Math.max(p.start_ms, ds) - ds) / MIN) * PX, ((Math.min(p.end_ms, de) - ds) / MIN) * PX];
  };
  const block = (p: Prog, k: string, i: number, ghostOf?: 'removed' | 'moving', lane?: Placed) => {
    const [top0, bottom0] = span(p, i);
    const top = lane?.top ?? top0, bottom = lane?.bottom ?? Math.max(bottom0, top0 + MIN_PX);
    const mark = ghostOf === 'removed' ? 'removed' : marks.get(p.id);
    const compact = bottom - top < COMPACT_PX;
    const cls = `prog${compact ? ' compact' : ''}${mark ? ` m-${mark} draft` : ''}${ghostOf === 'moving' ? ' ghost' : ''}${ghost?.id === p.id && !ghostOf ? ' lifted' : ''}`;
    const when = `${z.hhmm(p.start_ms)}–${z.hhmm(p.end_ms)}`;
    const of = lane?.of ?? 1, at = lane?.lane ?? 0;
    const style = {
      insetBlockStart: `${top}px`, blockSize: `${bottom - top}px`, insetInlineEnd: 'auto',
      insetInlineStart: `calc((100% - 6px) * ${at} / ${of} + 3px)`, inlineSize: `calc((100% - 6px) / ${of} - ${of > 1 ? 2 : 0}px)`,
    };
    // One line (compact): the title first, so what the ellipsis keeps is the title; the times are in the tooltip.
    const text = compact ? <><strong>{p.title}</strong> <time dir="ltr">{when}</time></> : <><time dir="ltr">{when}</time> <strong>{p.title}</strong></>;
    if (ghostOf) return <div class={cls} style={style} aria-hidden="true"><span class="gtext">{text}</span></div>;
    const label = `${p.title}, ${dayName(z.dayKey(p.start_ms))} ${when}${mark ? ` (${markWord(mark)})` : ''}`;
    return (
      <div class={cls} style={style} data-prog={p.id} onPointerDown={(ev) => down(ev, p, k, 'move')}>
        <button type="button" class="gmain" aria-label={label} aria-describedby="guide-keys" title={`${when} ${p.title}`}
          onClick={() => { if (suppress.current) { suppress.current = false; return; } onOpen(p); }} onKeyDown={(ev) => key(ev, p)}>
          {text}{mark && <small class={`badge gm-${mark}`}>{markWord(mark)}</small>}
        </button>
        {canEdit && <button type="button" class="gdel small link" aria-label={`${t('delete')} ${p.title}`} onClick={() => onDelete(p)}>✕</button>}
        {canEdit && <span class="grip" aria-hidden="true" onPointerDown={(ev) => down(ev, p, k, 'resize')} />}
      </div>
    );
  };

  const moving = ghost ? progs.find((p) => p.id === ghost.id) : null;
  return (
    <div class="gweek" id="guide-grid">
      <div class="ghead" aria-hidden="true"><span />{days.map((k) => <span>{dayName(k)}</span>)}</div>
      <div class="gscroll" tabIndex={-1}>
        <div class="gbody" ref={body} style={{ blockSize: `${DAY_MIN * PX}px` }}>
          <div class="gaxis" aria-hidden="true">{Array.from({ length: 24 }, (_, h) => <span style={{ insetBlockStart: `${h * 60 * PX}px` }} dir="ltr">{`${String(h).padStart(2, '0')}:00`}</span>)}</div>
          {days.map((k, i) => {
            const [ds, de] = bounds[i];
            const on = (p: Prog) => p.start_ms < de && p.end_ms > ds;
            const gone = ghosts.filter(on), here = progs.filter(on);
            const ext = (key: string, p: Prog) => { const [top, bottom] = span(p, i); return { key, top, bottom }; };
            const lane = place([...gone.map((p) => ext(`x${p.id}`, p)), ...here.map((p) => ext(p.id, p))], MIN_PX);
            return (
              <section class="gday day" aria-label={dayName(k)} data-day={k}>
                {gone.map((p) => block(p, k, i, 'removed', lane.get(`x${p.id}`)))}
                {here.map((p) => block(p, k, i, undefined, lane.get(p.id)))}
                {moving && ghost && ghost.start < de && ghost.end > ds && block({ ...moving, start_ms: ghost.start, end_ms: ghost.end }, k, i, 'moving')}
                {i === todayAt && <div class="gnow" id="guide-now" style={{ insetBlockStart: `${z.minuteOfDay(now) * PX}px` }} aria-hidden="true" />}
              </section>
            );
          })}
        </div>
      </div>
      <p id="guide-keys" class="sr-only">{t('g_keys')}</p>
    </div>
  );
}
