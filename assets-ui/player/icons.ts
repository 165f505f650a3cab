/** Icon names the controls use. */
export type Icon = 'play' | 'pause' | 'vol' | 'mute' | 'cc' | 'gear' | 'pip' | 'fs' | 'fsx' | 'cinema' | 'restart' | 'live';

const P: Record<Icon, string> = {
  play: 'M8 5v14l11-7z', pause: 'M6 5h4v14H6zm8 0h4v14h-4z', vol: 'M3 9v6h4l5 5V4L7 9zm13.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4z',
  mute: 'M3 9v6h4l5 5V4L7 9zm18 .4L19.6 8 17 10.6 14.4 8 13 9.4l2.6 2.6-2.6 2.6 1.4 1.4 2.6-2.6 2.6 2.6 1.4-1.4-2.6-2.6z',
  cc: 'M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm3 5v4h3v-1H8v-2h2v-1zm6 0v4h3v-1h-2v-2h2v-1z',
  gear: 'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm9 5v-2l-2.2-.4a7 7 0 0 0-.7-1.7l1.3-1.8-1.4-1.4-1.8 1.3a7 7 0 0 0-1.7-.7L14 3h-2l-.4 2.2a7 7 0 0 0-1.7.7L8.1 4.6 6.7 6l1.3 1.8a7 7 0 0 0-.7 1.7L5 11v2l2.2.4c.2.6.4 1.2.7 1.7l-1.3 1.8 1.4 1.4 1.8-1.3c.5.3 1.1.6 1.7.7L12 21h2l.4-2.2c.6-.2 1.2-.4 1.7-.7l1.8 1.3 1.4-1.4-1.3-1.8c.3-.5.6-1.1.7-1.7z',
  pip: 'M3 5h18v14H3zm2 2v10h14V7zm6 5h6v4h-6z', fs: 'M4 4h6v2H6v4H4zm10 0h6v6h-2V6h-4zM4 14h2v4h4v2H4zm14 0h2v6h-6v-2h4z',
  fsx: 'M8 4h2v6H4V8h4zm6 0h2v4h4v2h-6zM4 14h6v6H8v-4H4zm10 0h6v2h-4v4h-2z', cinema: 'M2 7h20v10H2zm2 2v6h16V9z',
  restart: 'M12 5V1L7 6l5 5V7a5 5 0 1 1-5 5H5a7 7 0 1 0 7-7z', live: 'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8z',
};
const E: Record<Icon, string> = { play: '▶️', pause: '⏸️', vol: '🔊', mute: '🔇', cc: '💬', gear: '⚙️', pip: '🖼️', fs: '⛶', fsx: '🗗', cinema: '🎬', restart: '⏮️', live: '🔴' };

/** An icon as SVG markup, or an emoji for the emoji skin. */
export function icon(name: Icon, emoji: boolean): string {
  return emoji ? `<span aria-hidden="true">${E[name]}</span>` : `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${P[name]}"/></svg>`;
}

/** True when the system has a colour emoji font (a drawn emoji has coloured pixels; a missing glyph box is grey). */
export function emojiSupported(): boolean {
  try {
    const c = document.createElement('canvas');
    c.width = c.height = 20;
    const g = c.getContext('2d', { willReadFrequently: true });
    if (!g) return false;
    g.textBaseline = 'top';
    g.font = '16px sans-serif';
    g.fillStyle = '#000';
    g.fillText('\u{1F50A}', 0, 0);
    const d = g.getImageData(0, 0, 20, 20).data;
    for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (Math.abs(d[i] - d[i + 1]) > 20 || Math.abs(d[i + 1] - d[i + 2]) > 20)) return true;
    return false;
  } catch { return false; }
}
