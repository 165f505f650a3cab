/** Theme tokens of one skin: CSS custom properties `--vs-<token>` on the player box. */
export type SkinTokens = Record<string, string>;

const BASE: SkinTokens = {
  accent: '#3b82f6', 'bar-bg': 'rgba(0,0,0,0.72)', fg: '#ffffff', track: 'rgba(255,255,255,0.3)', radius: '6px',
  'bar-height': '44px', 'bar-margin': '0px', font: 'system-ui, sans-serif', 'track-height': '4px', 'button-radius': '4px',
  border: 'none', shadow: 'none', icon: 'svg',
};

/** The seven named skins of the player (every other skin comes from the library under config/player-skins). */
export const NAMED_SKINS: Record<string, SkinTokens> = {
  classic: { ...BASE },
  cinema: { ...BASE, accent: '#e50914', 'bar-bg': 'linear-gradient(transparent, rgba(0,0,0,0.9))', 'bar-height': '56px', 'track-height': '6px', font: 'Georgia, serif' },
  neon: { ...BASE, accent: '#39ff14', 'bar-bg': 'rgba(10,0,30,0.9)', fg: '#ff2bd6', track: '#3b0764', border: '2px solid #39ff14', shadow: '0 0 16px #39ff14', 'button-radius': '50%' },
  glass: { ...BASE, accent: '#ffffff', 'bar-bg': 'rgba(255,255,255,0.22)', fg: '#0f172a', track: 'rgba(255,255,255,0.5)', radius: '16px', 'bar-margin': '12px', blur: '14px', 'button-radius': '12px' },
  minimal: { ...BASE, accent: '#ffffff', 'bar-bg': 'transparent', 'bar-height': '36px', 'track-height': '2px', 'button-radius': '0px' },
  emoji: { ...BASE, accent: '#facc15', 'bar-bg': 'rgba(76,29,149,0.88)', radius: '20px', 'bar-height': '52px', 'bar-margin': '8px', 'track-height': '8px', 'button-radius': '50%', icon: 'emoji' },
  retro: { ...BASE, accent: '#f59e0b', 'bar-bg': '#3f2a14', fg: '#fde68a', track: '#78350f', radius: '0px', font: 'ui-monospace, "Courier New", monospace', 'bar-height': '48px', 'track-height': '8px', border: '3px double #f59e0b', 'button-radius': '0px' },
};

/** Names of the seven named skins. */
export const NAMED_SKIN_NAMES = Object.keys(NAMED_SKINS);
