import type { Lang } from './i18n';

/** A source, caption track, chapter, and the other pieces of data-options. */
export interface Source { src: string; type?: string }
export interface Track { src: string; srclang?: string; label?: string; kind?: string; default?: boolean }
export interface Chapter { start: number; title: string }
/** Fully resolved player options (attributes over configuration document over defaults). */
export interface Options {
  src: string | null; sources: Source[]; tenant: string | null; config: string | null; skin: string; theme: Record<string, string>;
  lang: string | null; autoplay: boolean; muted: boolean; start: number | null; end: number | null; aspect: string; width: string | null;
  resume: 'ask' | 'auto' | 'off'; maxSeekBack: number | null; backToLive: boolean; restart: string | null; restartBack: number;
  cinema: boolean; mode: 'normal' | 'tile'; target: string | null; tracks: Track[]; chapters: Chapter[] | string | null;
  thumbnails: string | null; ads: { vast: string | null; cues: number[]; disabled: boolean; preroll: boolean; skipAfter: number }; drm: unknown; controls: Record<string, boolean>;
  beacon: { enabled: boolean; heartbeat_s: number; url: string | null }; playback: Record<string, unknown> | null; poster: string | null;
  logo: { url: string; link?: string; position?: string; opacity?: number } | null; title: string | null; speeds: number[];
  versionPin: string | null; base: string; pageLang?: Lang;
  tile: { previewS: number; onHover: boolean };
  guide: { now?: GuideItem | null; next?: GuideItem | null } | null; liveGuide: { enabled: boolean; position: 'top' | 'bottom'; showNext: boolean };
}
/** One programme of the live guide overlay. */
export interface GuideItem { title: string; start: string; end: string }

/** The configuration document as served by /player/config (only the parts the player reads). */
export interface ConfigDoc {
  skin?: string; theme?: Record<string, string>; language?: string; logo?: Options['logo']; branding?: { title?: string };
  controls?: Record<string, boolean>; playback?: { autoplay?: boolean; muted?: boolean; start?: number; end?: number; resume?: Options['resume']; max_seek_back?: number; restart_back?: number; aspect?: string; speeds?: number[] };
  beacon?: { enabled?: boolean; heartbeat_s?: number }; live_guide?: { enabled?: boolean; position?: 'top' | 'bottom'; show_next?: boolean }; tile?: { muted?: boolean; loop?: boolean; preview_s?: number; on_hover?: boolean }; ads?: { enabled?: boolean; vast_url?: string; preroll?: boolean; midroll_cues?: boolean; skip_after_s?: number };
  version_pin?: string;
}

const num = (v: string | undefined | null): number | null => (v == null || v === '' || !Number.isFinite(Number(v)) ? null : Number(v));
const bool = (v: string | undefined | null): boolean | null => (v == null ? null : v !== '0' && v !== 'false' && v !== 'off');
const first = <T>(...vs: (T | null | undefined)[]): T | undefined => vs.find((v) => v !== null && v !== undefined) as T | undefined;

/** Reads data-* attributes of an element (only those present). */
export function readAttrs(el: HTMLElement | SVGElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of Array.from(el.attributes)) if (a.name.startsWith('data-')) out[a.name.slice(5)] = a.value;
  return out;
}

/** Parses data-options JSON; bad JSON is ignored (reported by the caller as vs:error). */
export function parseOptionsJson(s: string | undefined): Record<string, unknown> {
  if (!s) return {};
  try { const v = JSON.parse(s); return v && typeof v === 'object' ? v : {}; } catch { return {}; }
}

/** Merges attributes (a), configuration document (d) and defaults into Options. */
export function resolveOptions(a: Record<string, string>, d: ConfigDoc, base: string): Options {
  const o = parseOptionsJson(a.options) as { sources?: Source[]; tracks?: Track[]; chapters?: Options['chapters']; thumbnails?: string; ads?: { vast?: string; cues?: number[]; disabled?: boolean }; drm?: unknown; poster?: string; guide?: Options['guide'] };
  const pb = d.playback ?? {};
  const sources = o.sources ?? [];
  const src = a.src ?? sources[0]?.src ?? null;
  return {
    src, sources, tenant: a.tenant ?? null, config: a.config ?? null, base,
    skin: first(a.skin, d.skin) ?? 'classic', theme: d.theme ?? {},
    lang: first(a.lang, d.language === 'auto' ? null : d.language) ?? null,
    autoplay: first(bool(a.autoplay), pb.autoplay) ?? false, muted: first(bool(a.muted), pb.muted) ?? false,
    start: first(num(a.start), pb.start) ?? null, end: first(num(a.end), pb.end) ?? null,
    aspect: first(a.aspect, pb.aspect) ?? '16:9', width: a.width ?? null,
    resume: (first(a.resume, pb.resume) ?? 'ask') as Options['resume'],
    maxSeekBack: first(num(a['max-seek-back']), pb.max_seek_back) ?? null,
    backToLive: first(bool(a['back-to-live']), d.controls?.back_to_live) ?? true,
    restart: a.restart ?? (d.controls?.restart === false ? null : '1'), restartBack: first(num(a['restart-back']), pb.restart_back) ?? 0,
    cinema: bool(a.cinema) ?? false, mode: a.mode === 'tile' ? 'tile' : 'normal', target: a.target ?? null,
    tracks: o.tracks ?? [], chapters: o.chapters ?? null, thumbnails: a.thumbnails ?? o.thumbnails ?? null,
    ads: {
      vast: o.ads?.vast ?? (d.ads?.enabled ? d.ads.vast_url ?? null : null), cues: d.ads?.midroll_cues === false ? [] : o.ads?.cues ?? [],
      disabled: o.ads?.disabled === true, preroll: d.ads?.preroll ?? true, skipAfter: d.ads?.skip_after_s ?? 5,
    },
    drm: o.drm ?? null, controls: d.controls ?? {}, poster: a.poster ?? o.poster ?? null,
    beacon: { enabled: first(bool(a.beacon), d.beacon?.enabled) ?? true, heartbeat_s: d.beacon?.heartbeat_s ?? 15, url: a['beacon-url'] ?? null },
    playback: a.playback ? parseOptionsJson(a.playback) : null, logo: d.logo ?? null, title: a.title ?? d.branding?.title ?? null,
    speeds: pb.speeds ?? [0.5, 1, 1.25, 1.5, 2], versionPin: d.version_pin ?? null, guide: o.guide ?? null,
    tile: { previewS: d.tile?.preview_s ?? 10, onHover: d.tile?.on_hover ?? true },
    liveGuide: { enabled: d.live_guide?.enabled ?? false, position: d.live_guide?.position ?? 'top', showNext: d.live_guide?.show_next ?? true },
  };
}
