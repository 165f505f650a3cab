import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../kernel/context';
import { tx } from '../kernel/db/sqlite';
import { emitEvent } from '../kernel/events/outbox';
import type { LiveChannel as ChannelRow, LiveChannelStore } from './model';
import { ingestArgs, rtmpPullHost, type IngestSource } from '../media/args/live-ingest';
import { liveEncodeArgs } from '../media/args/live-ladder';
import { capRungs, ladderRungs } from './rungs';
import type { H264Encoder } from '../media/encoders';
import { IngestInput, type FeedStreams } from './input';
import { commitSegment, ScratchWatcher, type Landed, type Rebase } from './recorder';
import { feedWarnings } from './feed-health';
import { followerRebase, freshRun, leadRebase, type RunState } from './run-state';
import { initPath, scratchDir, segmentAbsPath } from './paths';
import { anyEnabled, InputMonitor, inputCheckSettings, type ConditionChange, type InputCheckSettings } from './input-monitor';
import { SegmentIndex } from './segment-index';

/** Which input feeds the channel. */
export type Feed = 'primary' | 'backup' | 'none';
type InputName = 'primary' | 'backup';

/** The passthrough rendition name. */
export const SRC = 'src';

/** Renditions a channel records: `src` for passthrough, the ladder's rungs otherwise. */
export function channelRenditions(ladder: string): string[] {
  return ladderRungs(ladder)?.map((r) => r.name) ?? [SRC];
}

/**
 * One started channel: two supervised inputs, the recorder loop that moves finished segments into the
 * recording and index, and failover (primary preferred; backup after `failover_s` of primary silence, its held
 * segments since the primary's last one spliced in first so the recording has no hole; primary taken back on its
 * next segment, which starts on a keyframe). With a ladder, the first rendition leads: its
 * segments decide the feed and the start times, and every other rendition's segment of the same number follows
 * that decision, so renditions stay aligned (same start times, same file names). Every segment is rebased onto
 * the channel's one media timeline (decode time = wall-clock time since the channel's creation) as it lands,
 * across reconnects and failovers.
 * Rungs above the feed's height are neither recorded nor (from the next run on) encoded.
 */
export class ChannelRuntime {
  feed: Feed = 'none';
  readonly inputs: Record<InputName, IngestInput>;
  readonly renditions: string[];
  private watchers: Record<InputName, Map<string, ScratchWatcher>>;
  private runs: Record<InputName, RunState> = { primary: freshRun(), backup: freshRun() };
  private audioMode: Record<InputName, 'copy' | 'aac' | boolean> = { primary: 'copy', backup: 'copy' };
  private timer: ReturnType<typeof setInterval> | null = null;
  private index: SegmentIndex;
  private stopped = false;
  private ch: ChannelRow;
  /** The feed warnings last announced (JSON), so `channel.feed_changed` carries each new set once. */
  private warned = '[]';
  private rebaseFailed = false;
  /** The input monitor (issue 48): null while no input check is enabled. */
  private monitor: InputMonitor | null = null;
  private monitorSettings: InputCheckSettings | null = null;

  constructor(private ctx: AppContext, private store: LiveChannelStore, channel: ChannelRow, private ffmpeg: string, private rtmpPort: number, private encoder: H264Encoder = 'libx264') {
    this.index = new SegmentIndex(ctx.db, ctx.config.dataDir);
    this.ch = channel;
    this.renditions = channelRenditions(channel.ladder);
    const mk = (name: InputName) => {
      const dir = scratchDir(ctx.config.dataDir, channel.id, name);
      return new IngestInput({
        name, outDir: dir,
        argv: () => this.argv(name, dir),
        secrets: () => [this.ch.srt_passphrase, this.ch.rtmp_key_primary, this.ch.rtmp_key_backup],
        silenceKillMs: Math.max(4000, this.ch.failover_s * 1000 + 1500),
        onRun: () => {
          for (const r of this.renditions) { this.watchers[name].get(r)!.reset(); mkdirSync(join(dir, r), { recursive: true }); }
          this.runs[name] = freshRun();
        },
        restartFor: (f) => this.feedKnown(name, f),
        log: ctx.log.child({ channel: channel.id }),
      });
    };
    const watch = (name: InputName) => new Map(this.renditions.map((r) => [r, new ScratchWatcher(join(scratchDir(ctx.config.dataDir, channel.id, name), r))]));
    this.watchers = { primary: watch('primary'), backup: watch('backup') };
    this.inputs = { primary: mk('primary'), backup: mk('backup') };
  }

  /** argv of an input's next run, from the ladder and what the previous run saw of the feed. */
  private argv(name: InputName, outDir: string): string[] {
    const feed: FeedStreams | undefined = this.inputs?.[name]?.feed;
    const rungs = ladderRungs(this.ch.ladder);
    if (rungs) {
      const audio = feed?.audio !== null; // unknown or present: encode it; a feed seen without audio gets none
      this.audioMode[name] = audio;
      const encoded = capRungs(rungs, feed?.videoStream?.height); // the last run's feed height: no rung above it
      this.runs[name].encoded = encoded.map((r) => r.name);
      return liveEncodeArgs({ ffmpeg: this.ffmpeg, source: this.source(name), outDir, segmentS: this.ch.segment_s, encoder: this.encoder, rungs: encoded, audio });
    }
    const audio = feed?.audio && feed.audio !== 'aac' ? 'aac' : 'copy';
    this.audioMode[name] = audio;
    return ingestArgs({ ffmpeg: this.ffmpeg, source: this.source(name), outDir, segmentS: this.ch.segment_s, audio });
  }

  /**
   * The feed's streams are known (once per run): its warnings are noted, the renditions this run records are
   * capped at the feed's height, and true restarts the run when its argv must change (passthrough of non-AAC audio
   * is encoded to AAC; a feed taller than the last one needs rungs this run does not encode).
   */
  private feedKnown(name: InputName, f: FeedStreams): boolean {
    const rungs = ladderRungs(this.ch.ladder);
    this.inputs[name].info.warnings = feedWarnings(f.videoStream, !rungs);
    if (name === this.feed) this.announceWarnings(name);
    if (!rungs) return this.audioMode[name] === 'copy' && !!f.audio && f.audio !== 'aac';
    const run = this.runs[name];
    const want = capRungs(rungs, f.videoStream?.height).map((r) => r.name);
    run.recorded = want.filter((r) => !run.encoded || run.encoded.includes(r));
    if (!run.recorded.length) run.recorded = run.encoded;
    return !!run.encoded && want.some((r) => !run.encoded!.includes(r));
  }

  /** Emits `channel.feed_changed` with the on-air input's warnings when they differ from the last announced. */
  private announceWarnings(name: InputName): void {
    if (this.stopped) return;
    const info = this.inputs[name].info;
    const key = JSON.stringify(info.warnings ?? []);
    if (key === this.warned) return;
    this.warned = key;
    const now = this.ctx.clock.now();
    tx(this.ctx.db, () => {
      this.store.update(this.ch.id, { feed_info: JSON.stringify(info) }, now);
      emitEvent(this.ctx.db, this.ch.tenant_id, 'channel.feed_changed', { channel_id: this.ch.id, slug: this.ch.slug, feed: name, previous: name, reason: 'feed warnings', warnings: info.warnings ?? [] }, now);
    });
  }

  private source(name: InputName): IngestSource {
    const c = this.ch;
    const cfg = this.ctx.config;
    if (c.protocol === 'rtmp') return { kind: 'rtmp', url: `rtmp://${rtmpPullHost(cfg.rtmpHost)}:${this.rtmpPort}/live/${name === 'primary' ? c.rtmp_key_primary : c.rtmp_key_backup}` };
    return { kind: 'srt', port: name === 'primary' ? c.srt_port_primary : c.srt_port_backup, passphrase: c.srt_passphrase, latencyMs: c.srt_latency_ms, bind: cfg.srtHost };
  }

  /** The input monitor's view now (null while no check is enabled). */
  inputChecks() { return this.monitor ? { settings: this.monitorSettings!, now: this.monitor.now() } : null; }

  /** (Re)reads the channel's input-check settings and restarts its monitor with them (none when every check is off). */
  async applyInputChecks(): Promise<void> {
    const old = this.monitor;
    this.monitor = null;
    await old?.stop();
    const s = inputCheckSettings(this.ctx.db, this.ch.id);
    this.monitorSettings = anyEnabled(s) ? s : null;
    if (!this.monitorSettings || this.stopped) return;
    this.monitor = new InputMonitor({ ffmpeg: this.ffmpeg, settings: this.monitorSettings, onChange: (c) => this.inputCondition(c), log: this.ctx.log.child({ channel: this.ch.id }) });
  }

  /** `channel.input_<check>` when a condition of the on-air signal starts or ends. */
  private inputCondition(c: ConditionChange): void {
    const ch = this.store.anyById(this.ch.id);
    if (!ch) return;
    const s = this.monitorSettings;
    emitEvent(this.ctx.db, this.ch.tenant_id, `channel.input_${c.check}`, {
      channel_id: this.ch.id, slug: this.ch.slug, input: c.input, check: c.check, state: c.active ? 'started' : 'ended',
      since: new Date(c.since).toISOString(), ...(c.active ? {} : { ended_at: new Date(c.at).toISOString(), duration_s: Math.max(0, Math.round((c.at - c.since) / 100) / 10) }),
      ...(c.value !== undefined ? { value: c.value } : {}), ...(c.reason ? { reason: c.reason } : {}), ...(s ? { settings: s[c.check] } : {}),
    }, c.at);
  }

  /** Hands a committed segment of the monitored rendition (the lowest one recorded) to the input monitor. */
  private monitorSegment(name: InputName, r: string, file: string, startMs: number): void {
    const m = this.monitor;
    if (!m || name !== this.feed) return;
    // The lowest rung recorded (names are `<height>p`; passthrough records `src` alone): the cheapest to decode.
    const recorded = this.runs[name].recorded ?? this.renditions;
    const lowest = recorded.reduce((a, b) => ((parseInt(b, 10) || Infinity) < (parseInt(a, 10) || Infinity) ? b : a));
    if (r !== lowest) return;
    const initMs = this.runs[name].initMs!;
    const init = initPath(this.ctx.config.dataDir, this.ch.tenant_id, this.ch.id, r, initMs);
    try { m.feed(name, `${name}:${r}:${initMs}`, () => readFileSync(init), readFileSync(file), startMs); } catch (e) { this.ctx.log.warn('input monitor feed failed', { channel: this.ch.id, error: String(e) }); }
  }

  /** Opens both inputs and the recorder loop. */
  start(): void {
    void this.applyInputChecks();
    this.setState('none', 'waiting', 'start');
    this.inputs.primary.start();
    this.inputs.backup.start();
    this.timer = setInterval(() => { try { this.tick(); } catch (e) { this.ctx.log.error('live tick failed', { channel: this.ch.id, error: String(e) }); } }, 150);
  }

  /** Stops every process; the channel row is left to the caller. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all([this.inputs.primary.stop(), this.inputs.backup.stop(), this.monitor?.stop()]);
    rmSync(join(scratchDir(this.ctx.config.dataDir, this.ch.id, 'x'), '..'), { recursive: true, force: true });
  }

  private failMs(): number { return this.ch.failover_s * 1000; }

  private tick(): void {
    if (this.stopped) return;
    for (const name of ['primary', 'backup'] as const) {
      const recorded = this.runs[name].recorded ?? this.renditions;
      const [lead, ...rest] = recorded;
      for (const l of this.watchers[name].get(lead)!.poll()) this.landedLead(name, lead, l);
      for (const r of rest) this.landedFollower(name, r, this.watchers[name].get(r)!.poll());
      // Rungs above the feed's height that this run still encodes: never recorded.
      for (const r of this.renditions) if (!recorded.includes(r)) for (const l of this.watchers[name].get(r)!.poll()) rmSync(l.file, { force: true });
    }
    const now = Date.now();
    if (this.feed !== 'none' && !this.inputs[this.feed].alive(this.failMs(), now)) {
      const other: InputName = this.feed === 'primary' ? 'backup' : 'primary';
      this.setState(this.inputs[other].alive(this.failMs(), now) ? other : 'none', undefined, `${this.feed} silent`);
    }
    if (this.feed === 'none') {
      const failed = this.inputs.primary.quickFailures >= 5 && this.inputs.backup.quickFailures >= 5;
      this.setState('none', failed ? 'failed' : 'waiting', 'no feed');
    }
  }

  private landedLead(name: InputName, r: string, l: Landed): void {
    const run = this.runs[name];
    try { this.inputs[name].noteSegment(statSync(l.file).size, l.durationMs); } catch { /* gone: not measured */ }
    let take = name === this.feed;
    if (!take) {
      // The primary is taken back on its first whole segment (starts on a keyframe) while it receives media; the last
      // segment of a primary that fell silent (written when its ffmpeg is stopped) is stale: the backup recorded that time.
      if (name === 'primary') take = this.feed === 'none' || this.inputs.primary.alive(this.failMs());
      else take = this.feed === 'none' || !this.inputs[this.feed].alive(this.failMs());
    }
    if (!take) { this.hold(name, l); return; }
    if (run.held.length) this.splice(name, r);
    this.takeLead(name, r, l);
  }

  /**
   * Keeps a lead segment of an input that is not on air while it receives media (a hot backup), for a splice at a
   * failover: about failover_s plus two segments of them, the oldest dropped. A segment of a silent input drops them all.
   */
  private hold(name: InputName, l: Landed): void {
    const run = this.runs[name];
    run.nextStart = null;
    if (!this.inputs[name].alive(this.failMs())) { for (const h of run.held.splice(0).concat(l)) this.drop(run, h); return; }
    run.held.push(l);
    const keepMs = this.failMs() + 2 * this.ch.segment_s * 1000;
    let ms = run.held.reduce((a, h) => a + h.durationMs, 0);
    while (run.held.length > 1 && ms > keepMs) { const h = run.held.shift()!; ms -= h.durationMs; this.drop(run, h); }
  }

  /** A lead segment not recorded: deleted, and its followers with it. */
  private drop(run: RunState, l: Landed): void {
    run.lead.set(l.index, { take: false, startMs: 0, shift: null });
    run.lead.delete(l.index - 300);
    rmSync(l.file, { force: true });
  }

  /**
   * A switch to `name`: its held segments that lie mostly after the recording's last segment are recorded first, in
   * order, so the recording goes on where the silent input's last segment ended (no hole of failover_s); the rest are
   * dropped. They start a new chain (new shift, a discontinuity where the init changes), as any switch does.
   */
  private splice(name: InputName, r: string): void {
    const run = this.runs[name];
    const last = this.index.lastSegment(this.ch, r);
    const end = last ? last.start_ms + last.duration_ms : -Infinity;
    for (const h of run.held.splice(0)) {
      if (h.landedAt - h.durationMs / 2 > end) this.takeLead(name, r, h); else this.drop(run, h);
    }
  }

  /** Records a lead segment of `name` (switching the feed to it when needed); its followers follow. */
  private takeLead(name: InputName, r: string, l: Landed): void {
    const run = this.runs[name];
    // Inputs run side by side, so a switching segment may overlap the last one indexed: it starts where that ended
    // (its program date time moves by less than one segment); within one run, segments follow each other.
    const last = this.index.lastSegment(this.ch, r);
    let startMs = run.nextStart ?? l.landedAt - l.durationMs;
    if (last && startMs < last.start_ms + last.duration_ms) startMs = last.start_ms + last.duration_ms;
    const chained = run.nextStart !== null && startMs === run.nextStart; // follows this run's previous segment
    if (!chained) run.shift = null; // a new chain takes a new shift (even if this segment turns out broken)
    run.nextStart = startMs + l.durationMs;
    if (name !== this.feed) this.setState(name, undefined, name === 'primary' ? 'primary returned' : 'primary silent');
    run.initMs ??= startMs;
    this.commit(name, r, l, startMs, leadRebase(run, l.init, startMs, this.ch.created_at, chained));
    run.lead.set(l.index, { take: true, startMs, shift: run.shift });
    run.lead.delete(l.index - 300); // followers are never that far behind
  }

  /** Other renditions follow the lead's decision for the segment of the same number (held until it is known). */
  private landedFollower(name: InputName, r: string, fresh: Landed[]): void {
    const run = this.runs[name];
    const queue = (run.pending.get(r) ?? []).concat(fresh);
    const wait: Landed[] = [];
    for (const l of queue) {
      const d = run.lead.get(l.index);
      if (!d) { wait.push(l); continue; }
      if (!d.take) { rmSync(l.file, { force: true }); continue; }
      this.commit(name, r, l, d.startMs, followerRebase(run, l.init, d.shift));
    }
    run.pending.set(r, wait.slice(-(30 + run.held.length))); // followers of held lead segments wait too
  }

  private commit(name: InputName, r: string, l: Landed, startMs: number, rebase: Rebase | undefined): void {
    const done = commitSegment(this.index, this.ch, r, { file: l.file, startMs, durationMs: l.durationMs, initFile: l.init, initMs: this.runs[name].initMs!, rebase });
    if (!done) this.ctx.log.warn('incomplete segment dropped', { channel: this.ch.id, input: name, rendition: r });
    else if (this.monitor) this.monitorSegment(name, r, segmentAbsPath(this.ctx.config.dataDir, done.row.path), startMs);
    else if (!done.rebased && !this.rebaseFailed) {
      this.rebaseFailed = true; // once per channel start: the segment is kept with the encoder's own timestamps
      this.ctx.log.warn('segment not rebased onto the channel timeline', { channel: this.ch.id, input: name, rendition: r });
    }
  }

  /** Applies feed/status/recording changes in one transaction with their events. */
  private setState(feed: Feed, status: 'waiting' | 'live' | 'failed' | undefined, reason: string): void {
    if (this.stopped) return;
    const prev = this.store.anyById(this.ch.id);
    if (!prev) return;
    const st = status ?? (feed === 'none' ? 'waiting' : 'live');
    const nextStatus = feed !== 'none' ? 'live' : st;
    const recording = !this.ch.recording_enabled ? 'off' : feed === 'none' ? 'gap' : 'on';
    if (prev.feed === feed && prev.status === nextStatus && prev.recording === recording && this.feed === feed) return;
    const oldFeed = this.feed;
    this.feed = feed;
    if (feed === 'none') void this.monitor?.stop(); // no signal to judge: its conditions end (feed_down says the rest); the next segment restarts it
    const now = this.ctx.clock.now();
    const info = feed === 'none' ? {} : this.inputs[feed].info;
    const warnings = feed === 'none' ? [] : this.inputs[feed].info.warnings ?? [];
    if (feed !== 'none' && prev.feed !== feed) this.warned = JSON.stringify(warnings); // announced with this feed change
    tx(this.ctx.db, () => {
      this.store.update(this.ch.id, { feed, status: nextStatus, recording, feed_info: JSON.stringify(info) }, now);
      const base = { channel_id: this.ch.id, slug: this.ch.slug };
      if (prev.feed !== feed) emitEvent(this.ctx.db, this.ch.tenant_id, 'channel.feed_changed', { ...base, feed, previous: prev.feed, reason, warnings }, now);
      if (oldFeed !== 'none' && feed !== 'none' && oldFeed !== feed) emitEvent(this.ctx.db, this.ch.tenant_id, 'channel.ingest_failover', { ...base, from: oldFeed, to: feed, reason }, now);
      if (prev.recording !== recording) emitEvent(this.ctx.db, this.ch.tenant_id, 'channel.recording_status', { ...base, recording, previous: prev.recording, at: new Date(now).toISOString() }, now);
    });
  }
}
