import type { PlayerDocT } from './model';

/** The player version this build serves as /embed.js. */
export const PLAYER_VERSION = '1.3.0';
/** Versions a configuration may pin with `version_pin` (each served immutable under /embed/<version>/). */
export const PLAYER_VERSIONS = ['1.3.0'] as const;

/** Built-in defaults: the last step of the precedence (attributes, then configuration document, then these). */
export function defaultDoc(): Required<Pick<PlayerDocT, 'skin' | 'language' | 'controls' | 'playback' | 'beacon' | 'tile' | 'embed' | 'ads' | 'live_guide'>> & PlayerDocT {
  return {
    skin: 'classic',
    language: 'auto',
    controls: { play: true, seek: true, volume: true, captions: true, quality: true, speed: true, pip: true, fullscreen: true, cinema: true, back_to_live: true, restart: true, chapters: true, thumbnails: true },
    playback: { autoplay: false, muted: false, loop: false, resume: 'ask', preload: 'metadata', aspect: '16:9', speeds: [0.5, 1, 1.25, 1.5, 2] },
    beacon: { enabled: true, heartbeat_s: 15 },
    tile: { muted: true, loop: true, preview_s: 10, on_hover: true },
    embed: { allowed_domains: [] },
    ads: { enabled: false, preroll: true, midroll_cues: true, skip_after_s: 5 },
    live_guide: { enabled: false, position: 'top', show_next: true },
  };
}

/** Merges a stored document over the defaults (objects merged one level deep, other values replaced). */
export function withDefaults(doc: PlayerDocT): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaultDoc() };
  for (const [k, v] of Object.entries(doc)) {
    const base = out[k];
    out[k] = base && typeof base === 'object' && !Array.isArray(base) && v && typeof v === 'object' && !Array.isArray(v) ? { ...base, ...v } : v;
  }
  return out;
}
