/**
 * Translated subtitle tracks (issue 43): a new track of another language made from a ready source track by the
 * configured translation engine (src/engines/translate). The `subtitles.translate` job merges the source cues into
 * whole sentences (src/text/sentences), translates them with the tenant glossary in the prompt, and lays the
 * translations back onto the source times under the cue rules. No engine configured: the job fails for good with the
 * reason; an answer that is not JSON or has the wrong number of sentences is asked once more, then fails the job.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import { enqueueJob } from '../../jobs/enqueue';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRow, JobRun } from '../../jobs/types';
import { translateEngine } from '../../engines/translate/select';
import { TranslateError, baseLang } from '../../engines/translate/types';
import { mergeSentences, splitSentences } from '../../text/sentences';
import { SubtitleStore, type TrackRow } from './store';
import { GlossaryService } from './glossary-service';
import { SubtitleSettingsService } from './settings-service';
import { TranslateStore } from './translate-store';

/** What a translation request asks for. */
export interface TranslationRequest { language: string; kind?: 'subtitles' | 'captions'; label?: string | null }

const LANG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

/**
 * Queues a translation of `source` (a ready track the caller has already found for the tenant): a new `translation`
 * track, `queued`, of the same asset or channel range, with its `subtitles.translate` job, in one transaction.
 * 422 for a bad or identical language, 409 while the source is not ready.
 */
export function queueTranslation(ctx: AppContext, source: TrackRow, r: TranslationRequest): TrackRow {
  if (!LANG.test(r.language)) throw invalid('language', 'a BCP 47 language tag such as "en", "ar" or "ru"');
  if (baseLang(r.language) === baseLang(source.language)) throw invalid('language', `the source track is already in "${source.language}"`);
  if (source.status !== 'ready') throw new AppError('conflict', `the source track is ${source.status}; it can be translated once ready`);
  const id = newId(), now = ctx.clock.now();
  tx(ctx.db, () => {
    // Like recognition: below encodes, never ahead of live work.
    const job = enqueueJob(ctx.db, { tenantId: source.tenant_id, type: 'subtitles.translate', payload: { trackId: id }, subject: { kind: 'subtitle_track', id }, priority: -10, maxAttempts: 2 }, now);
    new TranslateStore(ctx.db).insertTranslation({ id, sourceId: source.id, language: r.language, kind: r.kind ?? source.kind, label: r.label ?? null, jobId: job, now });
  });
  return new SubtitleStore(ctx.db).byId(id)!;
}

async function translateJob(ctx: AppContext, job: JobRun<'subtitles.translate'>): Promise<void> {
  const store = new SubtitleStore(ctx.db);
  const track = store.byId(job.payload.trackId);
  if (!track) throw new PermanentJobError('the subtitle track was deleted');
  const source = track.source_track_id ? store.byId(track.source_track_id) : null;
  if (!source) throw new PermanentJobError('the source track was deleted');
  if (source.status !== 'ready') throw new PermanentJobError(`the source track is ${source.status}`);
  let engine;
  try { engine = translateEngine(ctx.config.mt); } catch (e) {
    throw e instanceof TranslateError ? new PermanentJobError(e.message) : e;
  }
  store.setStatus(track.id, 'running', ctx.clock.now(), { engine: engine.name });
  const cues = store.cues(source.id);
  const sentences = mergeSentences(cues);
  // The tenant glossary of the source language: its terms go into the chat engine's prompt (kept as names).
  const glossary = new GlossaryService(ctx).termsFor(track.tenant_id, source.language).map((g) => ({ term: g.term }));
  job.progress(5);
  let retries = 0;
  let translated: string[];
  try {
    translated = sentences.length ? await engine.translate({
      sentences: sentences.map((s) => s.text), from: source.language, to: track.language, glossary, signal: job.signal,
      onProgress: (done, total) => job.progress(5 + (90 * done) / total),
      onRetry: (e) => { retries++; job.note('translate.retry', { reason: e.message }); },
    }) : [];
  } catch (e) {
    // A second malformed answer, or a refusal, ends the job with the engine's reason; an unreachable engine is retried.
    if (e instanceof TranslateError && (e.permanent || e.code === 'bad_response')) throw new PermanentJobError(`translation failed: ${e.message}`);
    throw e;
  }
  const out = splitSentences(cues, sentences, translated, { maxCharsPerSecond: new SubtitleSettingsService(ctx).get(track.tenant_id).reading_speed });
  if (!store.byId(track.id)) throw new PermanentJobError('the subtitle track was deleted');
  tx(ctx.db, () => {
    store.replaceCues(track.id, out.cues, ctx.clock.now());
    store.setStatus(track.id, 'ready', ctx.clock.now(), { engine: engine.name });
  });
  job.setResult({ engine: engine.name, sentences: sentences.length, source_cues: cues.length, cues: out.cues.length, words_moved: out.moved, over_reading_speed: out.overReadingSpeed, retries, glossary_terms: glossary.length });
  job.progress(100);
}

/** The translation job's handler. */
export const translateJobHandlers: FeatureHandlers<'subtitles.translate'> = { 'subtitles.translate': translateJob };

/** A translation job that failed for good leaves its track `failed` with the reason. */
export function failTranslationOfJob(ctx: AppContext, job: JobRow, error: string): void {
  if (job.type !== 'subtitles.translate' || job.subject_kind !== 'subtitle_track' || !job.subject_id) return;
  new SubtitleStore(ctx.db).setStatus(job.subject_id, 'failed', ctx.clock.now(), { error });
}
