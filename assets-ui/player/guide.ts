import { STRINGS, type Lang } from './i18n';
import type { Options } from './options';

const hhmm = (iso: string) => { const d = new Date(iso); return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`; };

/** The live guide overlay: what is on now and (optionally) what comes next, in the player's language. */
export function guideOverlay(o: Options, lang: Lang): HTMLElement {
  const g = document.createElement('div');
  g.className = `vs-guide${o.liveGuide.position === 'bottom' ? ' vs-bottom' : ''}`;
  g.setAttribute('aria-label', `${STRINGS[lang].now}: ${o.guide!.now!.title}`);
  const line = (label: string, title: string, time: string) => {
    const s = document.createElement('span');
    const b = document.createElement('b'); b.textContent = label;
    const t = document.createElement('bdi'); t.textContent = `${title} · ${time}`;
    s.append(b, t);
    g.append(s);
  };
  line(STRINGS[lang].now, o.guide!.now!.title, `${hhmm(o.guide!.now!.start)}–${hhmm(o.guide!.now!.end)}`);
  if (o.liveGuide.showNext && o.guide!.next) line(STRINGS[lang].next, o.guide!.next.title, hhmm(o.guide!.next.start));
  return g;
}
