import { fmtTime } from './i18n';
import type { VSPlayer } from './player';

/** Pointer and keyboard on the seek bar (the bar runs right-to-left in he/ar: time flows with the reading direction). */
export function bindSeek(p: VSPlayer): void {
  const { seek, preview } = p.c;
  const fracAt = (x: number) => {
    const r = seek.getBoundingClientRect();
    const f = (x - r.left) / r.width;
    return Math.min(1, Math.max(0, p.box.dir === 'rtl' ? 1 - f : f));
  };
  const timeAt = (x: number) => { const [a, b] = p.range(); return a + fracAt(x) * (b - a); };
  let dragging = false;
  seek.addEventListener('pointerdown', (e) => { dragging = true; seek.setPointerCapture(e.pointerId); p.seek(timeAt(e.clientX)); });
  seek.addEventListener('pointerup', () => { dragging = false; });
  seek.addEventListener('pointermove', (e) => {
    if (dragging) p.seek(timeAt(e.clientX));
    const t = timeAt(e.clientX);
    const r = seek.getBoundingClientRect();
    preview.classList.remove('vs-hidden');
    preview.style.left = `${e.clientX - r.left}px`;
    const cue = p.thumbs.find((c) => t >= c.start && t < c.end);
    const chap = [...p.chapters].reverse().find((c) => c.start <= t);
    preview.innerHTML = '';
    if (cue) {
      const d = document.createElement('div');
      d.className = 'vs-thumb';
      Object.assign(d.style, { width: `${cue.w}px`, height: `${cue.h}px`, backgroundImage: `url("${cue.url}")`, backgroundPosition: `-${cue.x}px -${cue.y}px` });
      preview.append(d);
    }
    const s = document.createElement('span');
    s.textContent = `${chap ? `${chap.title} · ` : ''}${fmtTime(p.isLive() ? p.range()[1] - t : t)}`;
    preview.append(s);
  });
  seek.addEventListener('pointerleave', () => preview.classList.add('vs-hidden'));
}

/** Keyboard operation of the whole player (focus anywhere in the box). */
export function bindKeys(p: VSPlayer): void {
  const v = p.video;
  p.box.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const onSeek = e.target === p.c.seek;
    const tag = (e.target as HTMLElement).tagName;
    if ((tag === 'BUTTON' || tag === 'INPUT') && (e.key === ' ' || e.key === 'Enter' || (tag === 'INPUT' && e.key.startsWith('Arrow')))) return;
    const rtl = p.box.dir === 'rtl';
    const step = e.shiftKey ? 30 : onSeek ? 5 : 10;
    switch (e.key) {
      case ' ': case 'k': case 'K': if (v.paused) p.playRequest(false); else v.pause(); break;
      case 'ArrowRight': p.seek(v.currentTime + (rtl ? -step : step)); break;
      case 'ArrowLeft': p.seek(v.currentTime + (rtl ? step : -step)); break;
      case 'ArrowUp': v.volume = Math.min(1, v.volume + 0.1); v.muted = false; break;
      case 'ArrowDown': v.volume = Math.max(0, v.volume - 0.1); break;
      case 'Home': p.seek(p.range()[0]); break;
      case 'End': p.seek(p.range()[1]); break;
      case 'PageUp': p.seek(v.currentTime + 60); break;
      case 'PageDown': p.seek(v.currentTime - 60); break;
      case 'm': case 'M': v.muted = !v.muted; break;
      case 'f': case 'F': void (document.fullscreenElement ? document.exitFullscreen() : p.box.requestFullscreen()).catch(() => {}); break;
      case 'c': case 'C': p.openMenu('cc'); break;
      case 'l': case 'L': if (p.isLive()) p.toLive(); break;
      case 't': case 'T': p.setCinema(!p.box.classList.contains('vs-cinema')); break;
      case 'Escape': if (p.menu) p.closeMenu(); else if (p.box.classList.contains('vs-cinema')) p.setCinema(false); else return; break;
      default: return;
    }
    e.preventDefault();
    p.c.status.textContent = p.c.seek.getAttribute('aria-valuetext') ?? '';
  });
}
