/**
 * `subtitles.recognise_channel`: the speech of a channel recording range becomes a channel track's cues. The
 * recorded segments of the range (one rendition, the first recorded) are read in runs that share an init segment and
 * follow each other without a gap; ffmpeg extracts each run's audio as 16 kHz mono WAV straight from the recording
 * files (media/args/recording-speech-audio.ts); the engine for the track's language recognises it; word times are
 * moved onto the range (relative to its start), words outside the range dropped, and the cues built from them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRow, JobRun } from '../../jobs/types';
import { AsrError, type AsrWord } from '../../engines/asr/types';
import { recordingSpeechAudioArgs } from '../../media/args/recording-speech-audio';
import { locateFfmpeg } from '../../media/locate';
import { runTool } from '../../media/process';
import { buildCues } from '../../text/cue-builder';
import { channelById, holdSegments, initFile, recordedRenditions, segmentFile, segmentsInRange } from '../channels/service';
import type { SegmentRow } from '../channels/store';
import { speechEngineFor } from './channel-engine';
import { CueStore } from './cues-store';
import { correctCues, GlossaryService } from './glossary-service';
import { SubtitleStore } from './store';

/** Segments per ffmpeg run (one `concat:` argument stays far below Linux's 128 KiB per-argument limit). */
const RUN_MAX = 200;

/** Consecutive segments sharing one init, split at gaps (a lost segment) and every RUN_MAX segments. */
export function audioRuns(segs: SegmentRow[]): SegmentRow[][] {
  const runs: SegmentRow[][] = [];
  for (const s of segs) {
    const cur = runs[runs.length - 1];
    const prev = cur?.[cur.length - 1];
    if (cur && prev && prev.init_ms === s.init_ms && !s.discontinuity && Math.abs(prev.start_ms + prev.duration_ms - s.start_ms) <= 250 && cur.length < RUN_MAX) cur.push(s);
    else runs.push([s]);
  }
  return runs;
}

async function recogniseChannel(ctx: AppContext, job: JobRun<'subtitles.recognise_channel'>): Promise<void> {
  const store = new SubtitleStore(ctx.db);
  const track = store.byId(job.payload.trackId);
  if (!track || !track.channel_id) throw new PermanentJobError('the subtitle track was deleted');
  const ch = channelById(ctx, track.tenant_id, track.channel_id);
  if (!ch) throw new PermanentJobError('the channel was deleted');
  const from = track.range_start_ms!, to = track.range_end_ms!;
  const rendition = recordedRenditions(ctx, ch.id)[0];
  const segs = rendition ? segmentsInRange(ctx, ch.id, rendition, from, to) : [];
  if (!segs.length) throw new PermanentJobError('nothing is recorded in the range (or retention removed it)');
  let engine, readingSpeed;
  try { ({ engine, readingSpeed } = speechEngineFor(ctx, track.tenant_id, track.language)); } catch (e) {
    throw e instanceof AsrError ? new PermanentJobError(e.message) : e;
  }
  // The tenant glossary is the engine's prompt (with the request's own words) and corrects the result.
  const prompt = [job.payload.prompt, new GlossaryService(ctx).prompt(track.tenant_id, track.language)].filter(Boolean).join(', ') || undefined;
  store.setStatus(track.id, 'running', ctx.clock.now(), { engine: engine.name });
  const tools = locateFfmpeg({ ffmpeg: ctx.config.ffmpegPath, ffprobe: ctx.config.ffprobePath });
  if (!tools) throw new PermanentJobError('ffmpeg not found');
  const work = mkdtempSync(join(tmpdir(), 'vs-asr-ch-'));
  const runs = audioRuns(segs);
  const words: AsrWord[] = [];
  const t0 = performance.now();
  try {
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i]!;
      const wav = join(work, `run-${i}.wav`);
      // Hours in a bucket media store: local copies, held until ffmpeg has read them (the spool removes none meanwhile).
      const release = await holdSegments(ctx, ch, rendition!, run, [run[0]!.init_ms]);
      let x;
      try {
        const files = [initFile(ctx, ch, rendition!, run[0]!.init_ms), ...run.map((s) => segmentFile(ctx, s))];
        // Niced like VOD encodes (SCHED_BATCH, lowest best-effort disk priority): spare cycles only, below live work.
        x = await runTool(recordingSpeechAudioArgs(tools.ffmpeg, files, wav), { stallMs: 60_000, stderrIsProgress: true, nice: 10, batch: true, ioNice: 7, signal: job.signal }).done;
      } finally { release(); }
      if (x.code !== 0) throw new PermanentJobError(`no audio could be read from the recording: ${x.stderrTail.slice(-2).join(' ').slice(0, 300) || `ffmpeg exited with ${x.code ?? x.signal}`}`);
      let segments;
      try {
        segments = await engine.transcribe({ wavPath: wav, language: track.language, prompt, signal: job.signal });
      } catch (e) {
        if (e instanceof AsrError && e.permanent) throw new PermanentJobError(e.message);
        throw e;
      }
      // The run's audio starts with its first segment: word times move onto the range, words outside it are dropped.
      const offset = run[0]!.start_ms - from;
      for (const w of segments.flatMap((s) => s.words)) {
        const s = w.startMs + offset, e = w.endMs + offset;
        if ((s + e) / 2 < 0 || (s + e) / 2 >= to - from) continue;
        words.push({ startMs: Math.max(0, s), endMs: Math.min(to - from, e), text: w.text });
      }
      rmSync(wav, { force: true });
      job.progress(5 + (90 * (i + 1)) / runs.length);
    }
  } finally { rmSync(work, { recursive: true, force: true }); }
  const { cues, corrections } = correctCues(ctx, track.tenant_id, track.language, buildCues(words, { maxCharsPerSecond: readingSpeed }));
  if (!store.byId(track.id)) throw new PermanentJobError('the subtitle track was deleted');
  tx(ctx.db, () => {
    store.replaceCues(track.id, cues, ctx.clock.now());
    new CueStore(ctx.db).setGlossaryCorrections(track.id, corrections);
    store.setStatus(track.id, 'ready', ctx.clock.now(), { engine: engine.name });
  });
  job.setResult({ engine: engine.name, cues: cues.length, words: words.length, runs: runs.length, segments: segs.length, rendition, recognition_s: Math.round((performance.now() - t0) / 10) / 100, audio_s: (to - from) / 1000, compute: engine.compute, gpu: engine.compute === 'remote' ? 'remote' : engine.compute === 'gpu', glossary: corrections });
  job.progress(100);
}

/** The channel recognition job's handler. */
export const channelJobHandlers: FeatureHandlers<'subtitles.recognise_channel'> = { 'subtitles.recognise_channel': recogniseChannel };

/** A channel recognition that failed for good leaves its track `failed` with the reason. */
export function failChannelTrackOfJob(ctx: AppContext, job: JobRow, error: string): void {
  if (job.type !== 'subtitles.recognise_channel' || job.subject_kind !== 'subtitle_track' || !job.subject_id) return;
  new SubtitleStore(ctx.db).setStatus(job.subject_id, 'failed', ctx.clock.now(), { error });
}
