/**
 * Live subtitles (issue 43): the live audio of every channel and language a tenant turned on is recognised as it is
 * recorded, in chunks of a few segments (live-cues.ts says which), each read by ffmpeg straight from the recording
 * files and recognised by the tenant's engine for the language (the built-in pocketsphinx for English), niced below
 * ingest and delivery (LIVE_ASR_NICE). The cues are built by the cue builder, corrected by the glossary and
 * appended to the channel's hourly recording track of the language (published, ready: catch-up, start-over, search
 * and the cue editor see them as they come); the live subtitle rendition (live-delivery.ts) lists a segment once
 * its audio is recognised. Lag (wall time from the audio to its cue being available) and state are kept per language.
 *
 * Chunked, not one long-running decoder: every engine behind the boundary takes it (the speech service too), a crash
 * loses one chunk, and on this box it measured a lag of a few segments (docs/subtitles.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { newId } from '../../kernel/ids';
import { asrEngines, asrSettings, engineFor } from '../../engines/asr/select';
import { AsrError, type AsrEngine } from '../../engines/asr/types';
import { recordingSpeechAudioArgs } from '../../media/args/recording-speech-audio';
import { locateFfmpeg } from '../../media/locate';
import { runTool } from '../../media/process';
import { channelById, initFile, recordedRenditions, segmentFile, segmentsInRange } from '../channels/service';
import type { SegmentRow } from '../channels/store';
import { SubtitleSettingsService } from './settings-service';
import { ChannelTrackStore } from './channel-store';
import { correctCues } from './glossary-service';
import { byHour, joinCues, keepWords, medianOf, nextChunk, wallCues, MAX_BEHIND_MS, type WallWord } from './live-cues';
import { LiveSubsStore, type LiveSubsRow } from './live-store';

const TICK_MS = 250;
/** Chunks recognised at once over every channel. */
const PARALLEL = 2;
/** Lags kept per channel and language for the median. */
const LAG_WINDOW = 20;
/**
 * CPU niceness of live recognition: below live ingest and delivery (0), above batch work such as VOD encodes and
 * recognition jobs (10): a live cue is worth less the later it comes.
 */
export const LIVE_ASR_NICE = 5;

/** The engine for live recognition of `language` (the tenant's choice, as for recordings), run at LIVE_ASR_NICE; AsrError when none. */
export function liveEngineFor(ctx: AppContext, tenantId: string, language: string): { engine: AsrEngine; readingSpeed: number } {
  const settings = new SubtitleSettingsService(ctx).get(tenantId);
  const base = asrSettings(ctx.config.asr);
  const engines = asrEngines({ ...base, pocketsphinx: base.pocketsphinx === false ? false : { ...base.pocketsphinx, nice: LIVE_ASR_NICE } });
  return { engine: engineFor(engines, language, settings.default_engine === 'auto' ? null : settings.default_engine), readingSpeed: settings.reading_speed };
}

/** The recogniser loop of live subtitles (one per appliance). */
export class LiveRecogniser {
  private readonly store: LiveSubsStore;
  private readonly busy = new Set<string>();
  private readonly lags = new Map<string, number[]>();
  private stopped = false;
  private readonly abort = new AbortController();
  constructor(private readonly ctx: AppContext) { this.store = new LiveSubsStore(ctx.db); }

  /** One pass: starts a chunk for each language whose next chunk is recorded (at most PARALLEL running). */
  tick(): void {
    if (this.stopped) return;
    for (const row of this.store.all()) {
      const key = `${row.channel_id}|${row.language}`;
      if (this.busy.has(key) || this.busy.size >= PARALLEL) continue;
      this.busy.add(key);
      this.step(row).catch((e) => {
        this.ctx.log.error('live subtitles: chunk failed', { channel: row.channel_id, language: row.language, error: String(e) });
        this.store.update(row.channel_id, row.language, { error: String(e).slice(0, 300) }, this.ctx.clock.now());
      }).finally(() => this.busy.delete(key));
    }
  }

  /** Stops the loop and any running recognition. */
  stop(): void { this.stopped = true; this.abort.abort(); }

  private async step(row: LiveSubsRow): Promise<void> {
    const now = this.ctx.clock.now();
    const ch = channelById(this.ctx, row.tenant_id, row.channel_id);
    const rendition = ch ? recordedRenditions(this.ctx, ch.id)[0] : undefined;
    if (!ch || !rendition) { if (row.state !== 'waiting' && row.state !== 'failed') this.store.update(row.channel_id, row.language, { state: 'waiting' }, now); return; }
    const wall = Date.now();
    const segs = segmentsInRange(this.ctx, ch.id, rendition, (row.until_ms ?? wall - 30_000) - 30_000, wall + 60_000);
    const edge = segs.length ? segs[segs.length - 1]!.start_ms + segs[segs.length - 1]!.duration_ms : null;
    // The feed ended (nothing new for three segments) or the channel stopped: what is recorded is taken as it is.
    const flush = edge !== null && (ch.desired !== 'started' || wall - edge > 3 * ch.segment_s * 1000 + 1000);
    // The first pass starts at the live edge: the newest segment's start is where recognition begins.
    if (row.until_ms === null && segs.length && !flush) {
      this.store.update(row.channel_id, row.language, { state: 'starting', until_ms: segs[segs.length - 1]!.start_ms, behind_ms: 0 }, now);
      return;
    }
    const chunk = nextChunk(segs, row.until_ms, flush);
    if (!chunk) {
      const state = ch.desired !== 'started' || flush || edge === null ? 'waiting' : row.until_ms === null ? 'starting' : row.state === 'waiting' ? 'running' : row.state;
      if (state !== row.state && row.state !== 'failed') this.store.update(row.channel_id, row.language, { state, behind_ms: edge !== null && row.until_ms !== null ? Math.max(0, edge - row.until_ms) : null }, now);
      return;
    }
    let engine, readingSpeed;
    try { ({ engine, readingSpeed } = liveEngineFor(this.ctx, row.tenant_id, row.language)); } catch (e) {
      if (!(e instanceof AsrError)) throw e;
      this.store.update(row.channel_id, row.language, { state: 'failed', error: e.message }, now);
      return;
    }
    const words = await this.recognise(ch, rendition, chunk.segs, row.language, engine);
    if (words === null) return;
    const final = flush && chunk.endMs === edge;
    const kept = keepWords(words, chunk.fromMs, chunk.endMs, final);
    const built = correctCues(this.ctx, row.tenant_id, row.language, wallCues(kept.words, chunk.audioStartMs, readingSpeed)).cues;
    const trackId = this.commit(row, built, engine.name);
    // Lag: from the start of each cue's speech (wall clock) to the moment its cue is stored.
    const at = Date.now();
    const chunkLags = built.map((c) => at - c.startMs);
    const key = `${row.channel_id}|${row.language}`;
    const lags = (this.lags.get(key) ?? []).concat(chunkLags).slice(-LAG_WINDOW);
    this.lags.set(key, lags);
    const newest = segmentsInRange(this.ctx, ch.id, rendition, kept.untilMs, Date.now() + 60_000).pop();
    const behind = Math.max(0, (newest ? newest.start_ms + newest.duration_ms : kept.untilMs) - kept.untilMs);
    this.store.update(row.channel_id, row.language, {
      state: behind > MAX_BEHIND_MS / 2 ? 'behind' : 'running', engine: engine.name, error: null, until_ms: kept.untilMs,
      lag_ms: medianOf(lags), lag_max_ms: chunkLags.length ? Math.max(...chunkLags) : row.lag_max_ms, behind_ms: behind,
      track_id: trackId ?? row.track_id, addChunks: 1, addCues: built.length, addSkipped: chunk.skippedMs,
    }, this.ctx.clock.now());
  }

  /** The chunk's speech as wall-clock words (null when stopped). */
  private async recognise(ch: { id: string; tenant_id: string }, rendition: string, segs: SegmentRow[], language: string, engine: AsrEngine): Promise<WallWord[] | null> {
    const tools = locateFfmpeg({ ffmpeg: this.ctx.config.ffmpegPath, ffprobe: this.ctx.config.ffprobePath });
    if (!tools) throw new Error('ffmpeg not found');
    const work = mkdtempSync(join(tmpdir(), 'vs-live-asr-'));
    try {
      const wav = join(work, 'chunk.wav');
      const chRow = channelById(this.ctx, ch.tenant_id, ch.id);
      if (!chRow) return null;
      const files = [initFile(this.ctx, chRow, rendition, segs[0]!.init_ms), ...segs.map((s) => segmentFile(this.ctx, s))];
      // Below live ingest and delivery, above batch work (LIVE_ASR_NICE), lowest best-effort disk priority.
      const x = await runTool(recordingSpeechAudioArgs(tools.ffmpeg, files, wav), { stallMs: 30_000, stderrIsProgress: true, nice: LIVE_ASR_NICE, ioNice: 7, signal: this.abort.signal }).done;
      if (this.stopped) return null;
      if (x.code !== 0) throw new Error(`no audio could be read from the recording: ${x.stderrTail.slice(-2).join(' ').slice(0, 200) || `ffmpeg exited with ${x.code ?? x.signal}`}`);
      const segments = await engine.transcribe({ wavPath: wav, language, signal: this.abort.signal });
      if (this.stopped) return null;
      const base = segs[0]!.start_ms;
      return segments.flatMap((s) => s.words).map((w) => ({ startMs: w.startMs + base, endMs: w.endMs + base, text: w.text }));
    } catch (e) {
      if (this.stopped) return null;
      throw e;
    } finally { rmSync(work, { recursive: true, force: true }); }
  }

  /** Appends wall-clock cues to the channel's hourly live tracks of the language (made on first use); the last track id. */
  private commit(row: LiveSubsRow, cues: { startMs: number; endMs: number; text: string }[], engineName: string): string | null {
    if (!cues.length) return null;
    const now = this.ctx.clock.now();
    const tracks = new ChannelTrackStore(this.ctx.db);
    let last: string | null = null;
    tx(this.ctx.db, () => {
      for (const [hour, list] of byHour(cues)) {
        let id = this.store.hourTrack(row.tenant_id, row.channel_id, row.language, hour);
        if (!id) {
          id = newId();
          tracks.insert({ id, tenant_id: row.tenant_id, channel_id: row.channel_id, range_start_ms: hour, range_end_ms: hour + 3_600_000, programme_id: null, language: row.language, kind: row.kind, label: null, source: 'asr', status: 'ready', job_id: null, now });
          this.ctx.db.query('UPDATE subtitle_tracks SET published = 1, engine = ? WHERE id = ?').run(engineName, id);
        }
        const prev = this.store.lastCue(id);
        const joined = joinCues(prev, list);
        this.store.appendCues(id, joined.cues, now, prev && joined.prevEnd !== null ? { seq: prev.seq, endMs: joined.prevEnd } : undefined);
        last = id;
      }
    });
    return last;
  }
}

/** Runs the live-subtitle recogniser until shutdown. */
export function startLiveSubtitles(ctx: AppContext): LiveRecogniser {
  const r = new LiveRecogniser(ctx);
  const timer = setInterval(() => {
    try { r.tick(); } catch (e) { ctx.log.error('live subtitles failed', { error: String(e) }); }
  }, TICK_MS);
  ctx.onStop(() => { clearInterval(timer); r.stop(); });
  return r;
}
