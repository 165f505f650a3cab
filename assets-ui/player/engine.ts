/** One quality level as the quality menu shows it. */
export interface Level { id: number; height: number; bitrate: number }

/** The streaming engine behind the video element. */
export interface Engine {
  name: 'native' | 'hls.js' | 'dash' | 'mp4';
  levels(): Level[];
  /** -1 = automatic. */
  setLevel(id: number): void;
  level(): number;
  /** Live edge (seconds on the media timeline) or null for VOD. */
  liveEdge(): number | null;
  /** Rewrites the playback token in every later request (tokens sit in the path: /t/<token>/...). */
  setToken(old: string, next: string): void;
  destroy(): void;
  onLevels(cb: () => void): void;
  onFatal(cb: (msg: string) => void): void;
  /** The underlying engine object (hls.js or dash.js instance; null for native) for integrators and tests. */
  raw: unknown;
}

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Which engine a source needs. */
export function kindOf(src: string, type?: string): 'hls' | 'dash' | 'mp4' {
  const p = src.split('?')[0].toLowerCase();
  if (type?.includes('dash') || p.endsWith('.mpd')) return 'dash';
  if (type?.includes('mpegurl') || p.endsWith('.m3u8')) return 'hls';
  return 'mp4';
}

const swap = (url: string, tok: { old: string; next: string } | null) => (tok && tok.old ? url.split(`/t/${tok.old}/`).join(`/t/${tok.next}/`) : url);

/** Attaches `src` to the video element with the right engine (hls.js and the DASH engine are loaded only when needed). */
export async function attach(video: HTMLVideoElement, src: string, base: string, type?: string, forceMse = false): Promise<Engine> {
  const kind = kindOf(src, type);
  let fatal: (m: string) => void = () => {};
  let levelsCb: () => void = () => {};
  const tok = { old: '', next: '' };
  // Native HLS on Apple browsers (and wherever MSE is missing); elsewhere hls.js, which gives quality levels and seamless token renewal.
  const hasNative = video.canPlayType('application/vnd.apple.mpegurl') !== '';
  const mse = 'MediaSource' in window || 'ManagedMediaSource' in window;
  if (kind === 'hls' && (forceMse || !hasNative || (mse && !/Apple/.test(navigator.vendor)))) {
    const mod: Any = await import(/* @vite-ignore */ `${base}/hls.mjs`);
    const Hls = mod.default;
    const hls = new Hls({
      enableWorker: true, lowLatencyMode: false, backBufferLength: 60, subtitleDisplay: false, // cues drawn by the player (captions.ts)
      xhrSetup: (xhr: XMLHttpRequest, url: string) => { const u = swap(url, tok); if (u !== url) xhr.open('GET', u, true); },
    });
    hls.on(Hls.Events.MANIFEST_PARSED, () => levelsCb());
    hls.on(Hls.Events.LEVEL_SWITCHED, () => levelsCb());
    hls.on(Hls.Events.ERROR, (_e: unknown, d: Any) => {
      if (!d.fatal) return;
      if (d.type === Hls.ErrorTypes.NETWORK_ERROR) { hls.startLoad(); fatal(`network: ${d.details}`); } else if (d.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError(); else fatal(d.details);
    });
    hls.loadSource(src);
    hls.attachMedia(video);
    return {
      name: 'hls.js',
      levels: () => (hls.levels ?? []).map((l: Any, i: number) => ({ id: i, height: l.height, bitrate: l.bitrate })),
      setLevel: (id) => { hls.currentLevel = id; },
      level: () => (hls.autoLevelEnabled ? -1 : hls.loadLevel), // the chosen level at once (currentLevel follows when the switch lands)
      liveEdge: () => (hls.latestLevelDetails?.live || hls.levels?.[Math.max(0, hls.currentLevel)]?.details?.live ? hls.liveSyncPosition ?? null : null),
      setToken: (o, n) => { tok.old = tok.old || o; tok.next = n; },
      raw: hls, destroy: () => hls.destroy(), onLevels: (cb) => { levelsCb = cb; }, onFatal: (cb) => { fatal = cb; },
    };
  }
  if (kind === 'dash') {
    const mod: Any = await import(/* @vite-ignore */ `${base}/dash.mjs`);
    const p = mod.MediaPlayer().create();
    p.extend('RequestModifier', () => ({ modifyRequestURL: (u: string) => swap(u, tok), modifyRequestHeader: (x: Any) => x }), true);
    p.initialize(video, src, false);
    p.on('streamInitialized', () => levelsCb());
    p.on('error', (e: Any) => fatal(String(e?.error?.message ?? 'dash error')));
    const reps = () => p.getRepresentationsByType?.('video') ?? [];
    return {
      name: 'dash',
      levels: () => reps().map((r: Any, i: number) => ({ id: i, height: r.height, bitrate: r.bandwidth })),
      setLevel: (id) => {
        p.updateSettings({ streaming: { abr: { autoSwitchBitrate: { video: id < 0 } } } });
        if (id >= 0) p.setRepresentationForTypeByIndex?.('video', id);
      },
      level: () => -1,
      liveEdge: () => (p.isDynamic?.() ? video.seekable.length ? video.seekable.end(video.seekable.length - 1) : null : null),
      setToken: (o, n) => { tok.old = tok.old || o; tok.next = n; },
      raw: p, destroy: () => p.reset(), onLevels: (cb) => { levelsCb = cb; }, onFatal: (cb) => { fatal = cb; },
    };
  }
  // Native HLS (Safari, newer Chromium) or progressive MP4: the browser fetches; a new token swaps the source in place.
  video.src = src;
  const native: Engine = {
    name: kind === 'hls' ? 'native' : 'mp4', raw: null,
    levels: () => [], setLevel: () => {}, level: () => -1,
    liveEdge: () => (video.duration === Infinity && video.seekable.length ? video.seekable.end(video.seekable.length - 1) : null),
    setToken: (o, n) => {
      const t = video.currentTime, paused = video.paused;
      video.src = swap(video.currentSrc || src, { old: o, next: n });
      video.currentTime = t;
      if (!paused) void video.play().catch(() => {});
    },
    destroy: () => { video.removeAttribute('src'); video.load(); }, onLevels: (cb) => { levelsCb = cb; }, onFatal: (cb) => { fatal = cb; },
  };
  video.addEventListener('error', () => fatal(`media error ${video.error?.code ?? ''}`));
  void levelsCb;
  return native;
}
