/**
 * Input monitoring of a live channel (issue 48): one niced ffmpeg per running channel reads the on-air input's lowest
 * recorded rendition as its segments are committed (init, then each segment, through a pipe) and runs the enabled
 * signal checks — black, freeze, silence and EBU R128 loudness. Conditions are kept with their wall-clock start and
 * reported upward by a callback (the runtime emits the events). The settings come from the feature above through
 * the provider registered here (layers point down).
 */
import type { Db } from '../kernel/db/sqlite';
import { inputMonitorArgs, BLACK_AMOUNT_PCT, type InputCheckThresholds } from '../media/args/input-checks';
import { runTool, type Running } from '../media/process';
import { emptyInputState, feedInputLine, settleBlack, type InputCheckState } from './input-checks-parse';
import { initTracks } from './mp4';

/** One channel's input-check settings (the feature stores them; defaults filled in). */
export interface InputCheckSettings {
  black: { enabled: boolean; min_duration_s: number; pixel_threshold: number };
  freeze: { enabled: boolean; min_duration_s: number; noise_db: number };
  silence: { enabled: boolean; min_duration_s: number; noise_db: number };
  loudness: { enabled: boolean; target_lufs: number; tolerance_lu: number; min_duration_s: number };
}

/** The conditions a monitor reports. */
export const CONDITIONS = ['black', 'freeze', 'silence', 'loudness'] as const;
/** A condition name. */
export type Condition = (typeof CONDITIONS)[number];

/** One condition now: on since a wall-clock time (ms), or off. */
export interface ConditionNow { active: boolean; since: number | null }

/** What a channel's monitor knows now (wall-clock ms; loudness in LUFS). */
export interface InputChecksNow {
  running: boolean;
  input: 'primary' | 'backup' | null;
  conditions: Record<Condition, ConditionNow>;
  loudness: { momentary: number; short_term: number; integrated: number; at: number } | null;
}

/** A condition that started or ended (for `channel.input_<check>` events). */
export interface ConditionChange { check: Condition; active: boolean; since: number; at: number; input: 'primary' | 'backup'; value?: number | null; /** Why a condition ended other than by the signal (the monitor restarted or stopped). */ reason?: string }

/** CPU niceness of the monitor: below live ingest and delivery (0), like live recognition. */
export const INPUT_MONITOR_NICE = 5;
/** Bytes queued on the monitor's pipe past which segments are skipped (the monitor fell behind: never buffer without bound). */
const MAX_QUEUED = 16 * 1024 * 1024;
/** Segments skipped in a row after which a monitor that reads nothing is stopped (the next segment starts a new one). */
const MAX_BEHIND = 5;

/** Reads a channel's settings (null: the channel has none stored and nothing enabled). */
export type InputCheckProvider = (channelId: string) => InputCheckSettings | null;
const providers = new WeakMap<Db, InputCheckProvider>();

/** Registers where the live engine of a database reads input-check settings (the feature above). */
export function setInputCheckProvider(db: Db, p: InputCheckProvider | null): void {
  if (p) providers.set(db, p); else providers.delete(db);
}
/** A channel's input-check settings, or null. */
export function inputCheckSettings(db: Db, channelId: string): InputCheckSettings | null {
  return providers.get(db)?.(channelId) ?? null;
}
/** True when at least one check is enabled. */
export function anyEnabled(s: InputCheckSettings | null): s is InputCheckSettings {
  return !!s && CONDITIONS.some((c) => s[c].enabled);
}

/** Pure: the filter thresholds of settings. */
export function thresholdsOf(s: InputCheckSettings): InputCheckThresholds {
  return {
    black_amount_pct: BLACK_AMOUNT_PCT, black_pixel_level: s.black.pixel_threshold,
    freeze_noise_db: s.freeze.noise_db, freeze_min_s: s.freeze.min_duration_s,
    silence_noise_db: s.silence.noise_db, silence_min_s: s.silence.min_duration_s,
  };
}

const off = (): Record<Condition, ConditionNow> => ({ black: { active: false, since: null }, freeze: { active: false, since: null }, silence: { active: false, since: null }, loudness: { active: false, since: null } });

/**
 * The monitor of one channel. `feed()` hands it each committed segment of the tapped rendition with its init file
 * and start (wall ms); a new init (another run or input) restarts the ffmpeg. Conditions end when the analyser is
 * restarted or stopped (the new one confirms any that still hold after their minimum duration).
 */
export class InputMonitor {
  private proc: Running | null = null;
  private key = '';
  private input: 'primary' | 'backup' | null = null;
  private state: InputCheckState = emptyInputState();
  private run = { start: null as number | null, last: null as number | null };
  /** Wall ms of media time 0 of the running analyser (the first segment's start). */
  private baseMs = 0;
  private cond = off();
  private loud: InputChecksNow['loudness'] = null;
  private loudOutSince: number | null = null;
  /** Segments skipped because the analyser fell behind. */
  skipped = 0;
  /** Segments skipped in a row: past MAX_BEHIND the analyser is taken as stuck and restarted with the next segment. */
  private behind = 0;

  constructor(private o: { ffmpeg: string; settings: InputCheckSettings; onChange: (c: ConditionChange) => void; log: { warn(m: string, f?: Record<string, unknown>): void } }) {}

  /** What the monitor knows now. */
  now(): InputChecksNow {
    return { running: !!this.proc, input: this.proc ? this.input : null, conditions: structuredClone(this.cond), loudness: this.proc ? this.loud : null };
  }

  /** Hands over one committed segment (bytes) of `input`, its init file bytes and identity, and its start (wall ms). */
  feed(input: 'primary' | 'backup', initKey: string, init: () => Uint8Array, seg: Uint8Array, startMs: number): void {
    if (initKey !== this.key || !this.proc) {
      this.end('input restarted');
      const bytes = init();
      const tracks = [...initTracks(bytes).values()];
      const s = this.o.settings;
      const argv = inputMonitorArgs({
        ffmpeg: this.o.ffmpeg, th: thresholdsOf(s),
        video: tracks.some((t) => t.kind === 'vide'), audio: tracks.some((t) => t.kind === 'soun'),
        on: { black: s.black.enabled, freeze: s.freeze.enabled, silence: s.silence.enabled, loudness: s.loudness.enabled },
      });
      this.key = initKey;
      if (!argv) return;
      this.input = input;
      this.baseMs = startMs;
      this.state = emptyInputState();
      this.run = { start: null, last: null };
      const proc = runTool(argv, { stdin: true, nice: INPUT_MONITOR_NICE, stderrLines: 20, onStderrLine: (l) => this.line(proc, l), onStdoutLine: (l) => this.progress(proc, l) });
      this.proc = proc;
      void proc.done.then((r) => {
        if (this.proc !== proc) return;
        this.o.log.warn('input monitor exited', { code: r.code, signal: r.signal, tail: r.stderrTail.slice(-3) });
        this.proc = null; this.key = ''; this.end('monitor exited');
      });
      proc.stdin?.write(bytes);
    }
    const w = this.proc.stdin;
    if (!w) return;
    if (w.writableLength > MAX_QUEUED) {
      this.skipped++;
      if (++this.behind >= MAX_BEHIND) { this.o.log.warn('input monitor stuck: restarted', { skipped: this.skipped }); void this.stop(); }
      return;
    }
    this.behind = 0;
    w.write(seg);
  }

  /** Stops the analyser; active conditions end. */
  async stop(): Promise<void> {
    const p = this.proc;
    this.proc = null; this.key = '';
    this.end('monitoring stopped');
    if (p) { p.stdin?.end(); await p.stop(1000); }
  }

  private wall(t: number): number { return Math.round(this.baseMs + t * 1000); }

  private line(proc: Running, l: string): void {
    if (this.proc !== proc) return;
    feedInputLine(this.state, l, this.o.settings.black.min_duration_s, this.run);
    const s = this.state;
    if (s.loudness && /TARGET:/.test(l)) this.loudness(s.loudness);
    this.sync();
  }

  private progress(proc: Running, l: string): void {
    if (this.proc !== proc || !l.startsWith('out_time_us=')) return;
    const t = Number(l.slice(12)) / 1e6;
    if (!Number.isFinite(t)) return;
    settleBlack(this.state, t, this.run);
    this.sync();
  }

  /** Short-term loudness outside target ± tolerance (and not silent: silence is its own check) for min_duration_s. */
  private loudness(x: NonNullable<InputCheckState['loudness']>): void {
    const s = this.o.settings.loudness;
    this.loud = { momentary: x.momentary, short_term: x.short_term, integrated: x.integrated, at: this.wall(x.t) };
    const silent = this.state.silence.active || x.short_term <= -70;
    const out = !silent && Math.abs(x.short_term - s.target_lufs) > s.tolerance_lu;
    if (!out) { this.loudOutSince = null; this.set('loudness', false, 0, x.short_term); return; }
    this.loudOutSince ??= x.t;
    if (x.t - this.loudOutSince >= s.min_duration_s) this.set('loudness', true, this.wall(this.loudOutSince), x.short_term);
  }

  /** Carries the parser's states into the conditions (enabled checks only). */
  private sync(): void {
    const st = this.state;
    if (this.o.settings.black.enabled) this.set('black', st.black.active, st.black.since_s === null ? 0 : this.wall(st.black.since_s));
    if (this.o.settings.freeze.enabled) this.set('freeze', st.freeze.active, st.freeze.since_s === null ? 0 : this.wall(st.freeze.since_s));
    if (this.o.settings.silence.enabled) this.set('silence', st.silence.active, st.silence.since_s === null ? 0 : this.wall(st.silence.since_s));
  }

  private set(c: Condition, active: boolean, since: number, value?: number | null, reason?: string): void {
    const cur = this.cond[c];
    if (cur.active === active) return;
    const at = Date.now();
    this.cond[c] = active ? { active, since } : { active: false, since: null };
    this.o.onChange({ check: c, active, since: active ? since : cur.since ?? at, at, input: this.input ?? 'primary', ...(value !== undefined ? { value } : {}), ...(reason ? { reason } : {}) });
  }

  /** Ends every active condition (analyser restarted or stopped). */
  private end(why: string): void {
    for (const c of Object.keys(this.cond) as Condition[]) this.set(c, false, 0, undefined, why);
    this.loud = null; this.loudOutSince = null;
  }
}
