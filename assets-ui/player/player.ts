import { attach, type Engine } from './engine';
import { buildControls, buildMenu, setButton, type Controls } from './controls';
import { fmtTime, isRtl, pickLang, STRINGS, type Key, type Lang } from './i18n';
import { NAMED_SKINS } from './skins';
import { Beacon, tokenSid, type BeaconEvent } from './beacon';
import { openSession, parseChapterVtt, parseThumbVtt, resumeStore, type SessionAnswer, type ThumbCue } from './features';
import type { Options } from './options';
import { bindKeys, bindSeek } from './input';
import { emojiSupported } from './icons';
import { Ads } from './ads';
import { guideOverlay } from './guide';
import { Captions } from './captions';

const FORWARD = ['play', 'pause', 'playing', 'waiting', 'seeking', 'seeked', 'timeupdate', 'ended', 'volumechange', 'ratechange', 'loadedmetadata', 'durationchange', 'progress', 'canplay', 'error'];

/** One player on the page: the box, the video, the engine, the controls; emits video events and the vs… events. */
export class VSPlayer extends EventTarget {
  readonly box: HTMLDivElement;
  readonly video: HTMLVideoElement;
  readonly lang: Lang;
  engine: Engine | null = null;
  c!: Controls;
  menu: HTMLElement | null = null;
  thumbs: ThumbCue[] = [];
  chapters: { start: number; title: string }[] = [];
  beacon: Beacon | null = null;
  ads: Ads | null = null;
  session: SessionAnswer | null = null;
  stats = { startup_ms: null as number | null, rebuffer_ms: 0, rebuffers: 0, level: -1 };
  private playRequestAt = 0;
  private stallAt = 0;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private originalToken = '';
  readonly emoji: boolean;
  readonly captions: Captions;

  constructor(host: HTMLElement, readonly o: Options, readonly api: string) {
    super();
    this.lang = pickLang(o.lang);
    this.emoji = o.skin === 'emoji' && emojiSupported(); // without a colour emoji font the emoji skin keeps the SVG icons
    const box = this.box = document.createElement('div');
    box.className = `vs-box${o.mode === 'tile' ? ' vs-tile' : ''}`;
    box.dir = isRtl(this.lang) ? 'rtl' : 'ltr';
    box.lang = this.lang;
    box.tabIndex = -1;
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', o.title ? `${this.t('player')}: ${o.title}` : this.t('player'));
    const [aw, ah] = o.aspect.split(':').map(Number);
    if (aw && ah) box.style.aspectRatio = `${aw} / ${ah}`;
    if (o.width) box.style.width = /^\d+$/.test(o.width) ? `${o.width}px` : o.width;
    const v = this.video = document.createElement('video');
    v.playsInline = true;
    v.preload = 'metadata';
    v.crossOrigin = 'anonymous';
    if (o.poster) v.poster = o.poster;
    if (o.muted || o.mode === 'tile') { v.muted = true; v.defaultMuted = true; }
    if (o.mode === 'tile') v.loop = true;
    box.append(v);
    // Cues drawn by the player (direction and language of the track; text only), under the controls.
    this.captions = new Captions(v, box, (tr) => { this.emit('vscaptionchange', { track: tr ? tr.language || null : null, label: tr ? tr.label || null : null }); if (this.c) this.paint(); });
    host.append(box);
    new ResizeObserver(() => box.classList.toggle('vs-narrow', box.clientWidth < 480)).observe(box);
  }

  /** A string in the player's language. */
  t(k: Key): string { return STRINGS[this.lang][k]; }

  /** Emits a vs… (or standard) event on the player object. */
  emit(type: string, detail: unknown = {}): void { this.dispatchEvent(new CustomEvent(type, { detail })); }
  /** Emits a bubbling DOM event on the player box (vs:ready, vs:error, vs:config, vs:cinema). */
  domEmit(type: string, detail: unknown): void { this.box.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true })); }

  /** Applies a skin (named, or a library skin fetched from the player's skins folder) and theme tokens over it. */
  async setSkin(name: string, theme: Record<string, string> = {}): Promise<void> {
    let tokens = NAMED_SKINS[name];
    if (!tokens) {
      const r = await fetch(`${this.o.base}/skins/${encodeURIComponent(name)}.json`).catch(() => null);
      tokens = r?.ok ? { ...NAMED_SKINS.classic, ...((await r.json()) as { tokens: Record<string, string> }).tokens } : NAMED_SKINS.classic;
    }
    for (const [k, v] of Object.entries({ ...tokens, ...theme })) this.box.style.setProperty(`--vs-${k}`, v);
    this.box.dataset.skin = name;
    this.emit('vsskinchange', { skin: name });
    if (Object.keys(theme).length) this.emit('vsthemechange', { theme });
  }

  /** Builds the UI, opens the session, attaches the engine, and starts playback per the options. */
  async init(): Promise<void> {
    const o = this.o;
    await this.setSkin(o.skin, o.theme);
    this.domEmit('vs:config', { theme: { skin: o.skin, ...o.theme }, config: o });
    if (o.title && o.mode !== 'tile') { const t = document.createElement('div'); t.className = 'vs-title'; t.textContent = o.title; this.box.append(t); }
    if (o.liveGuide.enabled && o.guide?.now && o.mode !== 'tile') this.box.append(guideOverlay(o, this.lang));
    if (o.logo?.url) {
      const img = document.createElement('img');
      img.className = `vs-logo vs-${o.logo.position ?? 'top-end'}`;
      img.src = o.logo.url; img.alt = '';
      if (o.logo.opacity !== undefined) img.style.opacity = String(o.logo.opacity);
      this.box.append(img);
    }
    this.c = buildControls(this.lang, this.emoji, o.controls);
    this.box.append(this.c.bar);
    for (const ev of FORWARD) this.video.addEventListener(ev, () => this.dispatchEvent(new Event(ev)));
    if (o.drm) { this.emit('vsdrmunavailable', { drm: o.drm }); this.overlay(this.t('drm')); this.domEmit('vs:error', { error: 'drm_unavailable' }); return; }
    let src = o.src;
    if (o.playback && o.tenant) {
      try { this.session = await openSession(this.api, o.tenant, o.playback); } catch (e) {
        const { status: st, reason } = e as { status?: number; reason?: string | null };
        if (st === 403) { this.emit('vsdeny', { status: st, reason }); this.overlay(this.t(reason === 'blackout' ? 'blackout' : 'denied')); } else this.overlay(this.t('error'));
        this.domEmit('vs:error', { error: reason === 'blackout' ? 'blackout' : `session ${st ?? 'failed'}` });
        return;
      }
      src = this.session.src;
      this.originalToken = this.session.token;
    }
    if (!src) { this.overlay(this.t('error')); this.domEmit('vs:error', { error: 'no source' }); return; }
    if (o.beacon.enabled) {
      const kind = (o.playback && Object.keys(o.playback)[0]) || null;
      // A catch-up or start-over target is an object: its channel names the content. A tokenised bare source reports its token's session, never the token.
      const target = kind ? o.playback![kind] : null;
      const signedSid = this.session ? null : tokenSid(src);
      this.beacon = new Beacon(o.beacon.url ?? `${new URL(this.api).origin}/b/v1`, { tenant: o.tenant, kind: kind === 'asset' ? 'vod' : kind === 'channel' ? 'live' : kind, id: target === null ? null : typeof target === 'object' ? String((target as { channel?: unknown }).channel ?? '') || null : String(target), src: this.session || signedSid ? null : src }, this.session?.sid ?? signedSid);
      this.track('view_start', { lang: this.lang, skin: o.skin });
    }
    for (const tr of o.tracks) {
      const el = document.createElement('track');
      el.src = tr.src; el.kind = tr.kind ?? 'subtitles'; el.srclang = tr.srclang ?? ''; el.label = tr.label ?? tr.srclang ?? '';
      if (tr.default) el.default = true;
      this.video.append(el);
    }
    try {
      this.engine = await attach(this.video, src, o.base, o.sources[0]?.type);
    } catch (e) { this.overlay(this.t('error')); this.domEmit('vs:error', { error: String(e) }); return; }
    this.engine.onFatal((msg) => { this.emit('vsreconnect', { reason: msg }); this.track('error', { error: msg }); });
    this.engine.onLevels(() => this.onLevels());
    if (o.ads.vast && !o.ads.disabled && o.mode !== 'tile') this.ads = new Ads(this, o.ads);
    this.wire();
    if (this.session) this.scheduleRefresh();
    void this.loadSideData();
    this.domEmit('vs:ready', { player: this, engine: o.mode === 'tile' ? 'tile' : 'b' });
    if (this.beacon) this.track('engine', { engine: this.engine.name });
    if (o.cinema) this.setCinema(true);
    if (o.mode === 'tile') {
      // Tile preview: muted, loops the first tile.preview_s seconds; plays on hover (tile.on_hover) or always.
      const from = o.start ?? 0;
      this.video.addEventListener('timeupdate', () => { if (this.video.currentTime > from + o.tile.previewS) this.video.currentTime = from; });
      if (o.tile.onHover && !o.autoplay) { this.box.addEventListener('mouseenter', () => void this.video.play().catch(() => {})); this.box.addEventListener('mouseleave', () => this.video.pause()); }
      else void this.video.play().catch(() => {});
    }
    if (o.autoplay) this.playRequest(true); else if (o.mode !== 'tile') this.bigPlay();
  }

  private overlay(text: string, buttons: { label: string; act: () => void }[] = []): HTMLElement {
    this.box.querySelector('.vs-overlay')?.remove();
    const d = document.createElement('div');
    // A question (resume?) is a card above the control bar, so the controls stay visible and usable; a message covers the video.
    d.className = buttons.length ? 'vs-overlay vs-ask' : 'vs-overlay';
    d.setAttribute('role', buttons.length ? 'dialog' : 'alert');
    const p = document.createElement('p'); p.textContent = text; d.append(p);
    for (const b of buttons) {
      const e = document.createElement('button'); e.type = 'button'; e.className = 'vs-btn'; e.textContent = b.label;
      e.addEventListener('click', (ev) => { ev.stopPropagation(); d.remove(); b.act(); });
      d.append(e);
    }
    this.box.append(d);
    (d.querySelector('button') as HTMLElement | null)?.focus();
    return d;
  }

  private bigPlay(): void {
    const d = document.createElement('div');
    d.className = 'vs-overlay vs-start';
    d.style.background = 'transparent';
    const b = document.createElement('button');
    b.type = 'button'; b.className = 'vs-big'; b.setAttribute('aria-label', this.t('play'));
    b.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M8 5v14l11-7z"/></svg>';
    b.addEventListener('click', (e) => { e.stopPropagation(); this.playRequest(false); this.c.btn.play.focus(); });
    d.append(b);
    this.c.bar.before(d); // first in tab order
  }

  /** Starts playback as the viewer (or autoplay) asked: muted autoplay when the browser refuses sound. */
  playRequest(auto: boolean): void {
    this.box.querySelector('.vs-start')?.remove();
    this.playRequestAt = performance.now();
    this.track('play_request', { auto });
    if (auto) { this.video.muted = true; }
    if (this.ads?.wantsPreroll()) { void this.ads.preroll(); return; }
    this.video.play().catch(() => { this.video.muted = true; void this.video.play().catch(() => this.bigPlay()); });
  }

  /** Is this live content? */
  isLive(): boolean { return this.video.duration === Infinity || this.engine?.liveEdge() != null; }

  /** The seekable window [min, max] (DVR window for live, honouring max-seek-back). */
  range(): [number, number] {
    const v = this.video;
    if (!this.isLive()) return [0, Number.isFinite(v.duration) ? v.duration : 0];
    const s = v.seekable;
    const edge = this.engine?.liveEdge() ?? (s.length ? s.end(s.length - 1) : v.currentTime);
    let min = s.length ? s.start(0) : edge;
    if (this.o.maxSeekBack !== null) min = Math.max(min, edge - this.o.maxSeekBack);
    return [min, Math.max(edge, min)];
  }

  /** Seeks to a time, clamped to the window. */
  seek(t: number): void {
    const [a, b] = this.range();
    const from = this.video.currentTime;
    this.video.currentTime = Math.min(Math.max(t, a), b);
    this.track('seek', { from, to: this.video.currentTime });
  }

  /** Jumps to the live edge. */
  toLive(): void { const [, b] = this.range(); this.video.currentTime = b; void this.video.play().catch(() => {}); this.track('back_to_live', {}); }

  /** Start-over: a restart URL replaces the source; otherwise the start of the window (or restart-back seconds before the edge). */
  restart(): void {
    const [a, b] = this.range();
    if (this.o.restart && /^https?:|^\//.test(this.o.restart)) { this.engine?.destroy(); void attach(this.video, this.o.restart, this.o.base).then((e) => { this.engine = e; void this.video.play(); }); return; }
    this.seek(this.isLive() && this.o.restartBack > 0 ? b - this.o.restartBack : a);
    void this.video.play().catch(() => {});
  }

  /** Cinema mode on or off (emits vs:cinema). */
  setCinema(on: boolean): void { this.box.classList.toggle('vs-cinema', on); this.domEmit('vs:cinema', { on }); }

  /** Adds an event to the beacon with the position and buffered-ahead seconds. */
  track(e: string, extra: Record<string, unknown>): void {
    if (!this.beacon) return;
    const v = this.video;
    let buf = 0;
    for (let i = 0; i < v.buffered.length; i++) if (v.buffered.start(i) <= v.currentTime && v.buffered.end(i) >= v.currentTime) buf = v.buffered.end(i) - v.currentTime;
    const ev: BeaconEvent = { e, t: Date.now(), pos: Math.round(v.currentTime * 1000) / 1000, buf: Math.round(buf * 1000) / 1000, ...extra };
    this.beacon.push(ev);
  }

  private scheduleRefresh(retryMs?: number): void {
    const s = this.session!;
    const left = Date.parse(s.expires_at) - Date.now();
    const inMs = retryMs ?? Math.max(1000, Math.min(left - 10_000, left * 0.8));
    this.timers.push(setTimeout(async () => {
      try {
        const next = await openSession(this.api, this.o.tenant!, this.o.playback!);
        this.engine?.setToken(this.originalToken, next.token);
        this.session = next;
        this.emit('vstokenrefresh', { expires_at: next.expires_at });
        this.scheduleRefresh();
      } catch (e) {
        const { status: st, reason } = e as { status?: number; reason?: string | null };
        // A refusal ends renewal; a transient failure (network, 429, 5xx) retries while the current token still runs.
        // A blackout that began while playing shows its slate (the gate refuses the next segments anyway).
        if (st === 403 || st === 404) this.emit('vsdeny', { status: st, reason });
        if (reason === 'blackout') this.overlay(this.t('blackout'));
        else if (Date.parse(this.session!.expires_at) - Date.now() > 1000) this.scheduleRefresh(2000);
      }
    }, inMs));
  }

  private async loadSideData(): Promise<void> {
    const url = this.o.thumbnails ?? this.session?.thumbs ?? null;
    if (url && this.o.controls.thumbnails !== false) {
      try { const r = await fetch(url); if (r.ok) this.thumbs = parseThumbVtt(await r.text(), r.url); } catch { /* no preview */ }
    }
    const ch = this.o.chapters;
    if (typeof ch === 'string') { try { this.chapters = parseChapterVtt(await (await fetch(ch)).text()); } catch { /* none */ } } else if (Array.isArray(ch)) this.chapters = ch;
    this.drawMarks();
  }

  drawMarks(): void {
    const [a, b] = this.range();
    if (!(b > a)) return;
    this.c.marks.textContent = '';
    const put = (t: number, cls: string, label: string) => {
      const m = document.createElement('div'); m.className = `vs-mark ${cls}`; m.style.insetInlineStart = `${((t - a) / (b - a)) * 100}%`; m.title = label;
      this.c.marks.append(m);
    };
    for (const c of this.chapters) put(c.start, 'vs-chap', c.title);
    if (this.o.ads && !this.o.ads.disabled) for (const cue of this.o.ads.cues ?? []) put(cue, 'vs-adcue', this.t('ad'));
  }

  private onLevels(): void {
    const l = this.engine?.level() ?? -1;
    if (l !== this.stats.level) { const from = this.stats.level; this.stats.level = l; this.emit('vsqualitychange', { from, to: l }); this.track('quality', { from, to: l }); }
  }

  /** Opens a menu next to its button. */
  openMenu(kind: 'cc' | 'gear'): void {
    this.closeMenu();
    const v = this.video;
    const groups = [] as Parameters<typeof buildMenu>[0];
    if (kind === 'cc') {
      const cc = this.captions, on = cc.selected();
      groups.push({ title: this.t('captions'), items: [
        { label: this.t('captionsOff'), checked: on === null, pick: () => cc.select(null) },
        ...cc.tracks().map((tr) => ({ label: tr.label || tr.language, checked: tr === on, pick: () => cc.select(tr) })),
      ] });
    } else {
      const levels = this.engine?.levels() ?? [];
      if (levels.length && this.o.controls.quality !== false) groups.push({ title: this.t('quality'), items: [
        { label: this.t('auto'), checked: this.engine!.level() === -1, pick: () => { this.engine!.setLevel(-1); this.onLevels(); } },
        ...levels.slice().sort((x, y) => y.height - x.height).map((l) => ({ label: `${l.height}p`, checked: this.engine!.level() === l.id, pick: () => { this.engine!.setLevel(l.id); this.onLevels(); } })),
      ] });
      if (this.o.controls.speed !== false) groups.push({ title: this.t('speed'), items: this.o.speeds.map((r) => ({ label: r === 1 ? this.t('normal') : `${r}×`, checked: v.playbackRate === r, pick: () => { v.playbackRate = r; } })) });
      if (this.chapters.length) groups.push({ title: this.t('chapters'), items: this.chapters.map((c) => ({ label: `${fmtTime(c.start)} ${c.title}`, checked: false, pick: () => this.seek(c.start) })) });
    }
    const btn = this.c.btn[kind];
    this.menu = buildMenu(groups, () => { this.closeMenu(); btn.focus(); });
    btn.setAttribute('aria-expanded', 'true');
    this.box.append(this.menu);
    (this.menu.querySelector('[aria-checked=true]') as HTMLElement | null ?? this.menu.querySelector('[role=menuitemradio]') as HTMLElement | null)?.focus();
    this.emit('vsmenuopen', { menu: kind });
  }

  closeMenu(): void {
    this.menu?.remove(); this.menu = null;
    this.c.btn.cc.setAttribute('aria-expanded', 'false'); this.c.btn.gear.setAttribute('aria-expanded', 'false');
  }

  /** Updates the controls from the video state. */
  paint(): void {
    const v = this.video, c = this.c;
    setButton(c.btn.play, v.paused ? 'play' : 'pause', this.t(v.paused ? 'play' : 'pause'), this.emoji);
    setButton(c.btn.mute, v.muted || v.volume === 0 ? 'mute' : 'vol', this.t(v.muted ? 'unmute' : 'mute'), this.emoji);
    c.vol.value = String(v.muted ? 0 : v.volume);
    const [a, b] = this.range();
    const live = this.isLive();
    const frac = b > a ? (v.currentTime - a) / (b - a) : 0;
    c.fill.style.width = `${Math.min(100, Math.max(0, frac * 100))}%`;
    c.knob.style.insetInlineStart = `${Math.min(100, Math.max(0, frac * 100))}%`;
    let bufEnd = 0;
    for (let i = 0; i < v.buffered.length; i++) if (v.buffered.start(i) <= v.currentTime + 0.5) bufEnd = Math.max(bufEnd, v.buffered.end(i));
    c.buf.style.width = `${b > a ? Math.min(100, ((bufEnd - a) / (b - a)) * 100) : 0}%`;
    const behind = b - v.currentTime;
    c.seek.setAttribute('aria-valuemin', String(Math.floor(a))); c.seek.setAttribute('aria-valuemax', String(Math.floor(b)));
    c.seek.setAttribute('aria-valuenow', String(Math.floor(v.currentTime)));
    c.seek.setAttribute('aria-valuetext', live ? (behind > 5 ? `-${fmtTime(behind)}` : this.t('live')) : `${fmtTime(v.currentTime)} / ${fmtTime(b)}`);
    c.time.textContent = live ? (behind > 5 ? `-${fmtTime(behind)}` : '') : `${fmtTime(v.currentTime)} / ${fmtTime(b)}`;
    c.live.classList.toggle('vs-hidden', !live);
    c.live.classList.toggle('vs-at-edge', live && behind <= 5);
    c.toLive.classList.toggle('vs-hidden', !(live && this.o.backToLive && behind > 8));
    c.seek.classList.toggle('vs-hidden', this.o.controls.seek === false || (live && this.o.maxSeekBack === 0));
    c.btn.restart.hidden = !this.o.restart || this.o.restart === '0' || (!live && v.currentTime < 1);
    c.btn.cc.hidden = !this.captions.tracks().length || this.o.controls.captions === false;
    c.btn.gear.hidden = !((this.engine?.levels().length ?? 0) > 0 || this.o.controls.speed !== false);
    setButton(c.btn.fs, document.fullscreenElement === this.box ? 'fsx' : 'fs', this.t(document.fullscreenElement === this.box ? 'exitFullscreen' : 'fullscreen'), this.emoji);
  }

  private wire(): void {
    const v = this.video, c = this.c;
    const key = this.o.playback ? JSON.stringify(this.o.playback) : (this.o.src ?? '').replace(/\/t\/[^/]+\//, '/').split('?')[0];
    let lastSave = 0, lastBeat = 0, idle: ReturnType<typeof setTimeout> | null = null;
    const paint = () => this.paint();
    v.addEventListener('play', () => this.box.querySelector('.vs-start')?.remove());
    for (const ev of ['play', 'pause', 'timeupdate', 'volumechange', 'progress', 'durationchange', 'loadedmetadata', 'seeked']) v.addEventListener(ev, paint);
    document.addEventListener('fullscreenchange', paint);
    c.btn.play.addEventListener('click', () => (v.paused ? this.playRequest(false) : v.pause()));
    c.btn.mute.addEventListener('click', () => { v.muted = !v.muted; if (!v.muted && v.volume === 0) v.volume = 0.5; });
    c.vol.addEventListener('input', () => { v.volume = Number(c.vol.value); v.muted = v.volume === 0; });
    c.btn.cc.addEventListener('click', () => (this.menu ? this.closeMenu() : this.openMenu('cc')));
    c.btn.gear.addEventListener('click', () => (this.menu ? this.closeMenu() : this.openMenu('gear')));
    c.btn.pip.addEventListener('click', () => void (document.pictureInPictureElement ? document.exitPictureInPicture() : v.requestPictureInPicture()).catch(() => {}));
    c.btn.fs.addEventListener('click', () => void (document.fullscreenElement ? document.exitFullscreen() : this.box.requestFullscreen()).catch(() => {}));
    c.btn.cinema.addEventListener('click', () => this.setCinema(!this.box.classList.contains('vs-cinema')));
    c.btn.restart.addEventListener('click', () => this.restart());
    c.live.addEventListener('click', () => this.toLive());
    c.toLive.addEventListener('click', () => this.toLive());
    v.addEventListener('click', () => (v.paused ? this.playRequest(false) : v.pause()));
    bindSeek(this);
    bindKeys(this);
    this.box.addEventListener('pointermove', () => {
      this.box.classList.remove('vs-idle');
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => { if (!v.paused && !this.menu && !this.box.contains(document.activeElement)) this.box.classList.add('vs-idle'); }, 3000);
    });
    v.addEventListener('loadedmetadata', () => {
      this.drawMarks();
      if (this.o.start !== null && !this.isLive()) { v.currentTime = this.o.start; return; }
      const saved = resumeStore.get(key);
      if (!saved || this.isLive() || this.o.resume === 'off' || this.o.mode === 'tile' || saved > v.duration - 5) return;
      if (this.o.resume === 'auto') { v.currentTime = saved; return; }
      this.overlay(this.t('resumeAsk').replace('{t}', fmtTime(saved)), [
        { label: this.t('resumeYes'), act: () => { v.currentTime = saved; this.playRequest(false); } },
        { label: this.t('resumeNo'), act: () => { resumeStore.clear(key); this.playRequest(false); } },
      ]);
    }, { once: true });
    v.addEventListener('playing', () => {
      if (this.stats.startup_ms === null && this.playRequestAt) { this.stats.startup_ms = Math.round(performance.now() - this.playRequestAt); this.track('first_frame', { startup_ms: this.stats.startup_ms }); this.emit('vsstatschange', { ...this.stats }); }
      if (this.stallAt) { const d = Math.round(performance.now() - this.stallAt); this.stats.rebuffer_ms += d; this.stallAt = 0; this.track('rebuffer_end', { dur_ms: d }); }
    });
    v.addEventListener('waiting', () => {
      if (this.stats.startup_ms === null || v.seeking) return;
      this.stallAt = performance.now(); this.stats.rebuffers++; this.track('rebuffer_start', {});
      const at = v.currentTime;
      this.timers.push(setTimeout(() => { // stall skip: a hole in the buffer ahead is jumped over
        if (this.stallAt && v.currentTime === at) for (let i = 0; i < v.buffered.length; i++) if (v.buffered.start(i) > at && v.buffered.start(i) - at < 3) { v.currentTime = v.buffered.start(i) + 0.05; this.emit('vsstallskip', { from: at, to: v.currentTime }); break; }
      }, 4000));
    });
    v.addEventListener('pause', () => { this.track('pause', {}); if (!this.isLive() && this.o.resume !== 'off') resumeStore.set(key, v.currentTime); });
    v.addEventListener('ended', () => { this.track('ended', {}); resumeStore.clear(key); this.beacon?.flush(); });
    v.addEventListener('error', () => this.domEmit('vs:error', { error: v.error?.message || `media error ${v.error?.code}` }));
    v.addEventListener('timeupdate', () => {
      const now = Date.now();
      if (this.o.end !== null && v.currentTime >= this.o.end) v.pause();
      this.ads?.check(v.currentTime);
      if (!this.isLive() && this.o.resume !== 'off' && now - lastSave > 5000 && v.currentTime > 5) { lastSave = now; resumeStore.set(key, v.currentTime); }
      if (!v.paused && now - lastBeat >= this.o.beacon.heartbeat_s * 1000) { if (lastBeat) { this.track('heartbeat', { rebuffer_ms: this.stats.rebuffer_ms, level: this.stats.level }); this.emit('vsstatschange', { ...this.stats }); } lastBeat = now; }
    });
    document.addEventListener('visibilitychange', () => this.track('visibility', { state: document.visibilityState }));
    paint();
  }

  /** Stops everything and removes the box. */
  destroy(): void { this.timers.forEach(clearTimeout); this.beacon?.destroy(); this.engine?.destroy(); this.box.remove(); }
}
