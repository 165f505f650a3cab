import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { runTool, type Running } from '../media/process';
import type { Logger } from '../kernel/log';
import type { FeedInfo } from './registry';
import { parseVideoStream, type VideoStream } from './feed-health';

/** Codecs of the feed's first video and audio streams as the last run saw them (null: none), and the video's details. */
/**
 * ffmpeg's stderr lines that mean damaged input: an MPEG-TS continuity break (the demuxer marks the packet corrupt)
 * or a decode error in a transcoding ingest. One line per damaged packet or slice.
 */
const INPUT_ERROR_LINE = /Packet corrupt \(|error while decoding|decode_slice_header error|concealing \d+ (?:DC|AC|MV) errors/;

/** The streams of a feed. */
export interface FeedStreams { video: string | null; audio: string | null; videoStream: VideoStream | null }

/** Options of one supervised ingest input (primary or backup). */
export interface InputOptions {
  name: 'primary' | 'backup';
  outDir: string;
  /** Builds the argv for the next run (secrets may change between runs). */
  argv: () => string[];
  /** Strings to redact from the stderr ring buffer (passphrase, stream key). */
  secrets: () => string[];
  /** Kill a connected run whose media stopped for this long (ms). */
  silenceKillMs: number;
  /** Called when a new run starts (its output directory is fresh). */
  onRun: (runId: number) => void;
  /** Called once per run when the feed's streams are known; true restarts the run (its argv must change). */
  restartFor?: (feed: FeedStreams) => boolean;
  log: Logger;
}

/**
 * One ingest ffmpeg under supervision: restarted with exponential backoff when it exits (a caller that hangs
 * up ends a run; the next run listens again), killed as a process group, stderr kept in a redacted ring buffer.
 */
export class IngestInput {
  runId = 0;
  restarts = 0;
  /** Damaged packets or slices the ingest reported since it was created (continuity breaks, decode errors). */
  errors = 0;
  /** Wall time of the last progress line whose media time advanced (0 = no media in this run). */
  lastMediaAt = 0;
  info: FeedInfo = { bitrate_kbps: null, fps: null, resolution: null, video_codec: null, audio_codec: null };
  quickFailures = 0;
  /** The feed's streams as last seen (kept across runs; undefined until a run has probed the feed). */
  feed: FeedStreams | undefined;
  private feedKnown = false;
  private videoStream: VideoStream | null = null;
  private ring: string[] = [];
  private proc: Running | null = null;
  private stopped = true;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private lastOut = -1;
  private sizes: [number, number][] = [];
  /** Recent (wall ms, frame count) progress samples of this run: the received frame rate. */
  private frames: [number, number][] = [];
  /** Recent (bytes, media ms) of the segments this run packaged: the received bitrate. */
  private segs: [number, number][] = [];

  constructor(private o: InputOptions) {}

  /** The pid of the running ffmpeg (for tests and diagnostics), or null. */
  get pid(): number | null { return this.proc?.pid ?? null; }

  /** Redacted stderr tail. */
  logs(): string[] { return [...this.ring]; }

  /**
   * Notes one segment this input's ffmpeg finished (taken on air or not): its bytes over its media duration give the
   * input's bitrate, since ffmpeg reports no output size for segmented outputs. Passthrough copies the feed, so this
   * is the feed's bitrate less the transport-stream overhead; a ladder's lead rung measures what that rung encodes.
   */
  noteSegment(bytes: number, durationMs: number): void {
    if (!(bytes > 0 && durationMs > 0)) return;
    this.segs.push([bytes, durationMs]);
    let ms = this.segs.reduce((a, s) => a + s[1], 0);
    while (this.segs.length > 1 && ms - this.segs[0][1] >= 4000) ms -= this.segs.shift()![1]; // about the last 4 s of media
    const bits = this.segs.reduce((a, s) => a + s[0] * 8, 0);
    this.info.bitrate_kbps = Math.round(bits / ms);
  }

  /** True when media arrived within `ms`. */
  alive(ms: number, now = Date.now()): boolean { return this.lastMediaAt > 0 && now - this.lastMediaAt < ms; }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Ends a backoff wait now (a publisher just arrived). */
  kick(): void { this.wake?.(); }

  /** Kills the running ffmpeg's process group with SIGKILL (fault injection in tests). */
  killHard(): void { if (this.proc) try { process.kill(-this.proc.pid, 'SIGKILL'); } catch { /* gone */ } }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.proc?.stop(2000);
    await this.loop;
    this.loop = null;
  }

  private push(line: string): void {
    let l = line;
    for (const s of this.o.secrets()) if (s) l = l.split(s).join('***').split(encodeURIComponent(s)).join('***');
    this.ring.push(l);
    if (INPUT_ERROR_LINE.test(l)) this.errors++;
    if (this.ring.length > 80) this.ring.shift();
    if (!this.feedKnown && /Output #0|Stream mapping:|matches no streams/.test(l)) {
      this.feedKnown = true;
      this.feed = { video: this.info.video_codec, audio: this.info.audio_codec, videoStream: this.videoStream };
      if (this.o.restartFor?.(this.feed)) void this.proc?.stop(500);
    }
    if (/Output #0/.test(l)) this.lastOut = -2; // stream lines after this describe our output, not the feed
    if (this.lastOut === -2) return;
    const v = /Stream #0:\d+.*?: Video: (\w+).*?, (\d{2,5}x\d{2,5})/.exec(l);
    if (v) { this.info.video_codec = v[1]; this.info.resolution = v[2]; this.videoStream ??= parseVideoStream(l); }
    const a = /Stream #0:\d+.*?: Audio: (\w+)/.exec(l);
    if (a) this.info.audio_codec = a[1];
  }

  private progress(line: string): void {
    const [k, val] = line.split('=');
    if (k === 'out_time_us') {
      const t = Number(val);
      if (Number.isFinite(t) && t > this.lastOut && t > 0) { this.lastOut = Math.max(t, this.lastOut); this.lastMediaAt = Date.now(); }
    } else if (k === 'frame') {
      // Frames received per wall-clock second over the last ~4 s (a stalled feed reads as a falling rate).
      const r = windowRate(this.frames, Number(val));
      if (r !== null) this.info.fps = Math.round(r * 10) / 10;
    } else if (k === 'total_size') {
      const r = windowRate(this.sizes, Number(val));
      if (r !== null) this.info.bitrate_kbps = Math.round((r * 8) / 1000);
    }
  }

  private async run(): Promise<void> {
    let backoff = 500;
    while (!this.stopped) {
      rmSync(this.o.outDir, { recursive: true, force: true });
      mkdirSync(this.o.outDir, { recursive: true });
      this.runId++;
      this.lastMediaAt = 0; this.lastOut = -1; this.sizes = []; this.frames = []; this.segs = []; this.feedKnown = false; this.videoStream = null;
      this.info = { bitrate_kbps: null, fps: null, resolution: null, video_codec: null, audio_codec: null };
      this.o.onRun(this.runId);
      const began = Date.now();
      const proc = runTool(this.o.argv(), { stderrLines: 10, onStderrLine: (l) => this.push(l), onStdoutLine: (l) => this.progress(l) });
      this.proc = proc;
      // A pid file lets the next boot reap this ffmpeg if the server itself is killed (-9) before it.
      try { writeFileSync(`${this.o.outDir}.pid`, String(proc.pid)); } catch { /* scratch gone: stopping */ }
      const watchdog = setInterval(() => {
        if (this.lastMediaAt && Date.now() - this.lastMediaAt > this.o.silenceKillMs) void proc.stop(500);
      }, 250);
      const r = await proc.done;
      clearInterval(watchdog);
      this.proc = null;
      if (this.stopped) break;
      const ran = Date.now() - began;
      const hadMedia = this.lastMediaAt > 0;
      this.lastMediaAt = 0;
      this.restarts++;
      this.quickFailures = hadMedia ? 0 : this.quickFailures + 1;
      this.o.log.info('ingest exited', { input: this.o.name, code: r.code, signal: r.signal, ran_ms: ran });
      backoff = hadMedia || ran > 10_000 ? 200 : Math.min(backoff * 2, 10_000);
      await new Promise<void>((res) => { const t = setTimeout(res, backoff); this.wake = () => { clearTimeout(t); res(); }; });
      this.wake = null;
    }
  }
}

/** Per-second rate of a growing counter over its samples of the last ~4 s (the new value added); null until they span a second or for a non-number. */
function windowRate(samples: [number, number][], n: number): number | null {
  if (!Number.isFinite(n)) return null;
  const now = Date.now();
  samples.push([now, n]);
  while (samples.length > 2 && now - samples[0][0] > 4000) samples.shift();
  const [t0, n0] = samples[0];
  return now - t0 >= 1000 ? ((n - n0) * 1000) / (now - t0) : null;
}
