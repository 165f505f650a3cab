import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../kernel/context';
import { locateFfmpeg } from '../media/locate';
import { bestEncoder, detectEncoders, type H264Encoder } from '../media/encoders';
import type { LiveChannelStore } from './model';
import { ChannelRuntime } from './channel-runtime';
import { reconcileChannelAsync } from './reconcile';
import { HourPool } from './hour-pool';
import { SegmentIndex } from './segment-index';
import { retentionPass } from './retention';
import { HourMover } from './hour-mover';
import { mediaStoreOf } from '../kernel/media-store';
import { reapOrphans } from './reap';
import { startRtmp, type PublishVerdict } from './rtmp';
import { setLiveControl, type FeedInfo, type LiveControl, type Refusal, type RefusalCode } from './registry';
import { sourceFor, type LiveSource } from './fast-source';

/** ffmpeg and the H.264 encoder found once at boot (shared with the transcode queue); without it the engine finds its own. */
export interface LiveMedia { ffmpeg: string; encoder: H264Encoder }

/** The live engine: every started channel's runtime, the RTMP listener, startup reconciliation and retention. */
export class LiveEngine implements LiveControl {
  readonly runtimes = new Map<string, ChannelRuntime>();
  /** Started channels aired by a non-ingest source (FAST schedules: fast-source.ts) instead of inputs. */
  readonly sources = new Map<string, LiveSource>();
  private index: SegmentIndex;
  private ffmpeg: string;
  private stopRtmp: (() => void) | null = null;
  private retention: ReturnType<typeof setInterval> | null = null;
  /** Closed recording hours to the bucket media store (null: media on local disk). */
  readonly mover: HourMover | null = null;
  private moving: ReturnType<typeof setInterval> | null = null;
  private encoder: Promise<H264Encoder> | null = null;
  /** The last refused push of each channel (in memory: refusals are about now, not history). */
  private refusals = new Map<string, Refusal>();

  constructor(private ctx: AppContext, private store: LiveChannelStore, media: LiveMedia | null = null) {
    this.index = new SegmentIndex(ctx.db, ctx.config.dataDir);
    if (ctx.config.mediaStore.kind !== 'local') {
      this.mover = new HourMover(this.index, mediaStoreOf(ctx), { ...ctx.config.recordingMove, now: () => ctx.clock.now(), log: ctx.log });
    }
    if (media) {
      this.ffmpeg = media.ffmpeg;
      this.encoder = Promise.resolve(media.encoder);
    } else {
      const tools = locateFfmpeg({ ffmpeg: ctx.config.ffmpegPath, ffprobe: ctx.config.ffprobePath });
      this.ffmpeg = tools?.ffmpeg ?? 'ffmpeg';
    }
  }

  /**
   * Reconciles every channel's index with its files (the files are the truth), one channel after another; hours that
   * must be listed are listed on worker threads when there are many (one pool for all channels). Returns segments indexed.
   */
  async reconcile(): Promise<{ segments: number; changed_hours: number }> {
    let segments = 0, changed = 0;
    const pool = new HourPool();
    try {
      for (const ch of this.store.all()) {
        const st = await reconcileChannelAsync(this.index, this.ctx.config.dataDir, ch, pool);
        segments += st.segments; changed += st.changed;
      }
    } finally { pool.close(); }
    return { segments, changed_hours: changed };
  }

  private retain(): void {
    try { retentionPass(this.index, this.store.all(), Date.now()); } catch (e) { this.ctx.log.error('retention failed', { error: String(e) }); }
  }

  /** Boot: reconcile, open RTMP, restart started channels, schedule retention. */
  async boot(): Promise<void> {
    const scratch = join(this.ctx.config.dataDir, 'rec', '.scratch');
    const reaped = reapOrphans(scratch);
    if (reaped) { this.ctx.log.warn('killed ingest processes left by a previous run', { count: reaped }); await Bun.sleep(200); }
    rmSync(scratch, { recursive: true, force: true });
    const t0 = Date.now();
    const n = await this.reconcile();
    this.ctx.log.info('segment index reconciled', { ...n, ms: Date.now() - t0 });
    try {
      this.stopRtmp = await startRtmp(this.ctx.config.rtmpPort, this.ctx.config.rtmpHost, {
        publish: (key, _app, from) => this.admit(key, from),
        published: (key) => { const ch = this.store.byStreamKey(key); const rt = ch && this.runtimes.get(ch.id); if (rt) { rt.inputs.primary.kick(); rt.inputs.backup.kick(); } },
      }, this.ctx.log);
    } catch (e) {
      this.ctx.log.error('RTMP listener failed', { host: this.ctx.config.rtmpHost, port: this.ctx.config.rtmpPort, error: String(e) });
    }
    for (const ch of this.store.started()) await this.start(ch.id);
    this.retention = setInterval(() => this.retain(), 60_000);
    this.retain();
    if (this.mover) this.startMover(this.mover);
    setLiveControl(this.ctx.db, this);
  }

  /**
   * Bucket media store: finishes what a killed run left (moves, deletions, missing index rows), then moves closed
   * hours every 30 s (every second with the tests' VS_REC_IDLE_CLOSE_MS). Never blocks boot: the bucket may be down.
   */
  private startMover(mover: HourMover): void {
    const report = (what: string) => (st: { moved: number; reindexed: number; deleted: number; failed: number }) => {
      if (st.moved || st.reindexed || st.deleted) this.ctx.log.info(what, { ...st });
    };
    const fail = (e: unknown) => this.ctx.log.warn('recording hours: media store pass failed', { error: String(e) });
    mover.resume(this.store.all()).then(report('recording hours resumed in the media store'), fail);
    const every = this.ctx.config.recordingMove.idleCloseMs !== null ? 1000 : 30_000;
    let inFlight = false;
    this.moving = setInterval(() => {
      if (inFlight) return;
      inFlight = true;
      mover.pass(this.store.all()).then(report('recording hours moved to the media store'), fail).finally(() => { inFlight = false; });
    }, every);
  }

  /**
   * Whether an RTMP publish with this stream key may go ahead: only to a started channel that takes RTMP. A refusal
   * names why in words an encoder's operator can act on (ffmpeg prints it); one that can be tied to a channel is kept
   * as that channel's last refused push (shown on its page).
   */
  private admit(key: string, from: string): PublishVerdict {
    const ch = this.store.byStreamKey(key);
    if (!ch) return { code: 'NetStream.Publish.BadName', reason: 'unknown stream key: copy the key from the channel page (rotating the keys replaces them)' };
    const refuse = (code: RefusalCode, reason: string): PublishVerdict => {
      this.refusals.set(ch.id, { at: Date.now(), protocol: 'rtmp', code, reason, from });
      return { code: 'NetStream.Publish.Denied', reason };
    };
    if (ch.protocol !== 'rtmp') return refuse('wrong_protocol', `channel "${ch.slug}" takes SRT, not RTMP: push to its SRT address, or switch the channel to RTMP`);
    if (ch.desired !== 'started') return refuse('stopped', `channel "${ch.slug}" is stopped: start it, then push again`);
    return null;
  }

  /**
   * The last push refused for a channel since the engine started, while it still applies (null: none): a refusal for
   * the wrong protocol is dropped once the channel takes that protocol, one for a stopped channel once it is started.
   */
  lastRefused(channelId: string): Refusal | null {
    const r = this.refusals.get(channelId);
    const ch = r ? this.store.anyById(channelId) : null;
    if (!r || !ch || (r.code === 'wrong_protocol' && ch.protocol === r.protocol) || (r.code === 'stopped' && ch.desired === 'started')) return null;
    return r;
  }

  /** The live ladder's encoder: the best one a one-frame trial proves usable (detected once, when first needed). */
  private liveEncoder(): Promise<H264Encoder> {
    const tools = locateFfmpeg({ ffmpeg: this.ctx.config.ffmpegPath, ffprobe: this.ctx.config.ffprobePath });
    this.encoder ??= tools ? detectEncoders(tools, 10_000).then((c) => bestEncoder(c) ?? 'libx264', () => 'libx264' as const) : Promise.resolve('libx264');
    return this.encoder;
  }

  async start(channelId: string): Promise<void> {
    await this.runtimes.get(channelId)?.stop();
    this.runtimes.delete(channelId);
    await this.sources.get(channelId)?.stop();
    this.sources.delete(channelId);
    const ch = this.store.anyById(channelId);
    if (!ch) return;
    const src = sourceFor(this.ctx.db, ch, this.store);
    if (src) { this.sources.set(channelId, src); src.start(); return; }
    const encoder = ch.ladder !== 'passthrough' ? await this.liveEncoder() : undefined;
    const rt = new ChannelRuntime(this.ctx, this.store, ch, this.ffmpeg, this.ctx.config.rtmpPort, encoder);
    this.runtimes.set(channelId, rt);
    rt.start();
  }

  async stop(channelId: string): Promise<void> {
    const rt = this.runtimes.get(channelId);
    this.runtimes.delete(channelId);
    await rt?.stop();
    const src = this.sources.get(channelId);
    this.sources.delete(channelId);
    await src?.stop();
  }

  feedInfo(channelId: string): FeedInfo | null {
    const src = this.sources.get(channelId);
    if (src) return src.info();
    const rt = this.runtimes.get(channelId);
    if (!rt || rt.feed === 'none') return null;
    return { ...rt.inputs[rt.feed].info };
  }

  logs(channelId: string) {
    const rt = this.runtimes.get(channelId);
    if (!rt) return { primary: [], backup: [], restarts: 0 };
    return { primary: rt.inputs.primary.logs(), backup: rt.inputs.backup.logs(), restarts: rt.inputs.primary.restarts + rt.inputs.backup.restarts };
  }

  /** Per-input liveness (media within the last 5 s), restart counts, damaged-input counts and what each receives now (monitors, channel view). */
  inputs(channelId: string) {
    const rt = this.runtimes.get(channelId);
    if (!rt) return null;
    const of = (i: (typeof rt.inputs)['primary']) => {
      const alive = i.alive(5000);
      return { alive, restarts: i.restarts, errors: i.errors, bitrate_kbps: alive ? i.info.bitrate_kbps : null, fps: alive ? i.info.fps ?? null : null, resolution: alive ? i.info.resolution : null };
    };
    return { primary: of(rt.inputs.primary), backup: of(rt.inputs.backup) };
  }

  /** The input monitor of a running channel: its settings and conditions now (null: not running or no check enabled). */
  inputChecks(channelId: string) { return this.runtimes.get(channelId)?.inputChecks() ?? null; }

  /** A channel's input-check settings changed: its running monitor restarts with them. */
  async applyInputChecks(channelId: string): Promise<void> { await this.runtimes.get(channelId)?.applyInputChecks(); }

  /** Stops every channel process and the RTMP listener (server shutdown; channels stay `started`). */
  async shutdown(): Promise<void> {
    setLiveControl(this.ctx.db, null);
    if (this.retention) clearInterval(this.retention);
    if (this.moving) clearInterval(this.moving);
    await Promise.all([...this.runtimes.keys(), ...this.sources.keys()].map((id) => this.stop(id)));
    this.stopRtmp?.();
  }
}

/** Starts the live engine as a background worker of the app. */
export async function startLive(ctx: AppContext, channels: LiveChannelStore, media: LiveMedia | null = null): Promise<LiveEngine> {
  const engine = new LiveEngine(ctx, channels, media);
  await engine.boot();
  ctx.onStop(() => engine.shutdown());
  return engine;
}
