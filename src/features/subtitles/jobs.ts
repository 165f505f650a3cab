/**
 * `subtitles.recognise`: the asset's first audio stream is extracted by ffmpeg as 16 kHz mono WAV, recognised by the
 * engine configured for the track's language, and the cues are built from the word timings (src/text/cue-builder),
 * never taken from the engine's segments. No engine for the language: the job fails for good with the reason.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { containedPath } from '../../kernel/fs/contain';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRow, JobRun } from '../../jobs/types';
import { AsrError, type AsrSegment } from '../../engines/asr/types';
import { asrEngines, asrSettings, engineFor } from '../../engines/asr/select';
import { speechAudioArgs } from '../../media/args/speech-audio';
import { locateFfmpeg } from '../../media/locate';
import { runTool } from '../../media/process';
import { buildCues } from '../../text/cue-builder';
import { AssetService } from '../assets/service';
import { CueStore } from './cues-store';
import { correctCues, GlossaryService } from './glossary-service';
import { SubtitleSettingsService } from './settings-service';
import { SubtitleStore } from './store';

async function recognise(ctx: AppContext, job: JobRun<'subtitles.recognise'>): Promise<void> {
  const store = new SubtitleStore(ctx.db);
  const track = store.byId(job.payload.trackId);
  if (!track) throw new PermanentJobError('the subtitle track was deleted');
  const asset = new AssetService(ctx).get(track.tenant_id, track.asset_id);
  const source = asset.source_path ? containedPath(ctx.config.dataDir, asset.source_path) : null;
  if (!source) throw new PermanentJobError('the asset has no source file to recognise');
  // The tenant's default engine and reading speed; its glossary is the engine's prompt and corrects the result.
  const settings = new SubtitleSettingsService(ctx).get(track.tenant_id);
  let engine;
  try { engine = engineFor(asrEngines(asrSettings(ctx.config.asr)), track.language, settings.default_engine === 'auto' ? null : settings.default_engine); } catch (e) {
    throw e instanceof AsrError ? new PermanentJobError(e.message) : e;
  }
  store.setStatus(track.id, 'running', ctx.clock.now(), { engine: engine.name });
  const tools = locateFfmpeg({ ffmpeg: ctx.config.ffmpegPath, ffprobe: ctx.config.ffprobePath });
  if (!tools) throw new PermanentJobError('ffmpeg not found');
  const work = mkdtempSync(join(tmpdir(), 'vs-asr-'));
  try {
    const wav = join(work, 'speech.wav');
    // Niced like VOD encodes (and SCHED_BATCH, lowest best-effort disk priority): spare cycles only, below live
    // ingest and delivery.
    const x = await runTool(speechAudioArgs(tools.ffmpeg, source, wav), { stallMs: 60_000, stderrIsProgress: true, nice: 10, batch: true, ioNice: 7, signal: job.signal }).done;
    if (x.code !== 0) throw new PermanentJobError(`no audio could be extracted: ${x.stderrTail.slice(-2).join(' ').slice(0, 300) || `ffmpeg exited with ${x.code ?? x.signal}`}`);
    job.progress(10);
    const t0 = performance.now();
    let segments;
    try {
      segments = await engine.transcribe({ wavPath: wav, language: track.language, prompt: recognitionPrompt(ctx, job, track) || undefined, signal: job.signal });
    } catch (e) {
      if (e instanceof AsrError && e.permanent) throw new PermanentJobError(e.message);
      throw e;
    }
    applyRecognition(ctx, job, track, { engine: engine.name, compute: engine.compute, segments, seconds: (performance.now() - t0) / 1000, audioS: asset.duration_s });
  } finally { rmSync(work, { recursive: true, force: true }); }
}

/** The engine prompt of a recognition: the job's own words and the tenant's glossary for the track's language. */
export function recognitionPrompt(ctx: AppContext, job: JobRun<'subtitles.recognise'>, track: { tenant_id: string; language: string }): string {
  return [job.payload.prompt, new GlossaryService(ctx).prompt(track.tenant_id, track.language)].filter(Boolean).join(', ');
}

/**
 * Stores what an engine recognised (here or on a worker machine): cues built from the word timings at the tenant's
 * reading speed, glossary corrections, the track `ready`, and the job's result facts.
 */
export function applyRecognition(ctx: AppContext, job: JobRun<'subtitles.recognise'>, track: { id: string; tenant_id: string; language: string },
  r: { engine: string; compute: string; segments: AsrSegment[]; seconds: number; audioS: number | null; worker?: string | null }): void {
  const store = new SubtitleStore(ctx.db);
  const settings = new SubtitleSettingsService(ctx).get(track.tenant_id);
  const { cues, corrections } = correctCues(ctx, track.tenant_id, track.language, buildCues(r.segments.flatMap((s) => s.words), { maxCharsPerSecond: settings.reading_speed }));
  if (!store.byId(track.id)) throw new PermanentJobError('the subtitle track was deleted');
  store.replaceCues(track.id, cues, ctx.clock.now());
  new CueStore(ctx.db).setGlossaryCorrections(track.id, corrections);
  store.setStatus(track.id, 'ready', ctx.clock.now(), { engine: r.engine });
  job.setResult({ engine: r.engine, cues: cues.length, words: r.segments.reduce((n, s) => n + s.words.length, 0), recognition_s: Math.round(r.seconds * 100) / 100, audio_s: r.audioS, compute: r.compute, gpu: r.compute === 'remote' ? 'remote' : r.compute === 'gpu', glossary: corrections, ...(r.worker !== undefined ? { worker: r.worker } : {}) });
  job.progress(100);
}

/** The feature's job handlers. */
export const subtitleJobHandlers: FeatureHandlers<'subtitles.recognise'> = { 'subtitles.recognise': recognise };

/** A recognition job that failed for good leaves its track `failed` with the reason. */
export function failTrackOfJob(ctx: AppContext, job: JobRow, error: string): void {
  if (job.type !== 'subtitles.recognise' || job.subject_kind !== 'subtitle_track' || !job.subject_id) return;
  new SubtitleStore(ctx.db).setStatus(job.subject_id, 'failed', ctx.clock.now(), { error });
}
