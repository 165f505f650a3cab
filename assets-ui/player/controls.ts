import { icon, type Icon } from './icons';
import { STRINGS, type Key, type Lang } from './i18n';

/** The control bar's elements. */
export interface Controls {
  bar: HTMLElement; seek: HTMLElement; buf: HTMLElement; fill: HTMLElement; knob: HTMLElement; marks: HTMLElement; preview: HTMLElement;
  time: HTMLElement; live: HTMLButtonElement; toLive: HTMLButtonElement; btn: Record<'play' | 'mute' | 'cc' | 'gear' | 'pip' | 'fs' | 'cinema' | 'restart', HTMLButtonElement>;
  vol: HTMLInputElement; status: HTMLElement;
}

const h = <K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  e.className = cls;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};

/** Builds the control bar (every control a real button or slider with an ARIA label in the player's language). */
export function buildControls(lang: Lang, emoji: boolean, show: Record<string, boolean>): Controls {
  const s = (k: Key) => STRINGS[lang][k];
  const bar = h('div', 'vs-bar', { role: 'group', 'aria-label': s('player') });
  const seek = h('div', 'vs-seek', { role: 'slider', tabindex: '0', 'aria-label': s('seek'), 'aria-valuemin': '0', 'aria-valuemax': '0', 'aria-valuenow': '0' });
  const track = h('div', 'vs-track');
  const buf = h('div', 'vs-buf'), fill = h('div', 'vs-fill'), knob = h('div', 'vs-knob'), marks = h('div', ''), preview = h('div', 'vs-preview vs-hidden');
  track.append(buf, fill, marks, knob);
  seek.append(track, preview);
  const mk = (name: Icon, label: Key, hide = false) => {
    const b = h('button', 'vs-btn', { type: 'button', 'aria-label': s(label), title: s(label), 'data-vs': name });
    b.innerHTML = icon(name, emoji);
    b.hidden = hide;
    return b;
  };
  const btn = {
    play: mk('play', 'play'), mute: mk('vol', 'mute'), cc: mk('cc', 'captions', true), gear: mk('gear', 'settings'),
    pip: mk('pip', 'pip', show.pip === false || !document.pictureInPictureEnabled), fs: mk('fs', 'fullscreen', show.fullscreen === false),
    cinema: mk('cinema', 'cinema', show.cinema === false), restart: mk('restart', 'restart', true),
  };
  const vol = h('input', 'vs-vol', { type: 'range', min: '0', max: '1', step: '0.05', 'aria-label': s('volume') });
  const time = h('span', 'vs-time', { 'aria-hidden': 'true' });
  const live = h('button', 'vs-btn vs-live vs-hidden', { type: 'button', 'aria-label': s('backToLive') });
  live.textContent = s('live');
  const toLive = h('button', 'vs-btn vs-hidden', { type: 'button', 'aria-label': s('backToLive'), 'data-vs': 'tolive' });
  toLive.textContent = `⏭ ${s('backToLive')}`;
  const status = h('div', 'vs-sr', { role: 'status', 'aria-live': 'polite' });
  const row = h('div', 'vs-row');
  row.append(btn.play, btn.restart, btn.mute, vol, time, live, toLive, h('span', 'vs-grow'), btn.cc, btn.gear, btn.pip, btn.cinema, btn.fs);
  bar.append(seek, row, status);
  if (show.seek === false) seek.classList.add('vs-hidden');
  if (show.volume === false) { btn.mute.hidden = true; vol.classList.add('vs-hidden'); }
  return { bar, seek, buf, fill, knob, marks, preview, time, live, toLive, btn, vol, status };
}

/** Replaces a button's icon and label. */
export function setButton(b: HTMLButtonElement, name: Icon, label: string, emoji: boolean): void {
  if (b.dataset.vs === name && b.getAttribute('aria-label') === label) return;
  b.dataset.vs = name;
  b.innerHTML = icon(name, emoji);
  b.setAttribute('aria-label', label);
  b.title = label;
}

/** A radio menu (role=menu) with a heading per group; arrow keys move, Enter/Space pick, Escape closes. */
export function buildMenu(groups: { title: string; items: { label: string; checked: boolean; pick: () => void }[] }[], close: () => void): HTMLElement {
  const m = h('div', 'vs-menu', { role: 'menu' });
  for (const g of groups) {
    const t = h('h3', '');
    t.textContent = g.title;
    m.append(t);
    for (const it of g.items) {
      const e = h('div', '', { role: 'menuitemradio', tabindex: '-1', 'aria-checked': String(it.checked) });
      e.textContent = it.label;
      e.addEventListener('click', (ev) => { ev.stopPropagation(); it.pick(); close(); });
      m.append(e);
    }
  }
  m.addEventListener('keydown', (ev) => {
    const items = Array.from(m.querySelectorAll<HTMLElement>('[role=menuitemradio]'));
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (ev.key === 'ArrowDown') items[(i + 1) % items.length].focus();
    else if (ev.key === 'ArrowUp') items[(i - 1 + items.length) % items.length].focus();
    else if (ev.key === 'Enter' || ev.key === ' ') (document.activeElement as HTMLElement).click();
    else if (ev.key === 'Escape') close();
    else return;
    ev.preventDefault();
    ev.stopPropagation();
  });
  return m;
}
