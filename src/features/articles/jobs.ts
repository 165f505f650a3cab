/**
 * `article.draft`: reads the programme's transcript (transcript.ts), runs the engine chosen when the draft was
 * asked for (extractive, or the chat model) with progress, and stores the draft artifact with the repairs made
 * (`warnings`). An engine that cannot produce a usable draft fails the job with the reason; nothing is stored.
 * With a job cluster (`VS_NATS_URL`) the engine runs on a worker (cluster/remote-article.ts) and the draft it sends
 * back is stored here all the same (draftSource / storeDraft): this node stays the one writer.
 */
import type { AppContext } from '../../kernel/context';
import { newId } from '../../kernel/ids';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRun } from '../../jobs/types';
import type { ArticleDraft, ArticleInput } from '../../engines/article/types';
import { programmeById } from '../guide/service';
import type { ProgrammeRow } from '../guide/store';
import { draftWithEngine } from './engines';
import { ArtifactStore } from './store';
import { playWindow, programmeTranscript, type Transcript } from './transcript';

/** What a draft is made from: the programme, its transcript, and the engine's input built from both. */
export interface DraftSource { programme: ProgrammeRow; transcript: Transcript; input: ArticleInput }

/**
 * The source of an `article.draft` job: null when the job already stored its artifact (stored before a crash: the job
 * is done); permanent failures when the programme or its transcript is gone.
 */
export function draftSource(ctx: AppContext, job: JobRun<'article.draft'>): DraftSource | null {
  if (new ArtifactStore(ctx.db).byJob(job.id)) return null;
  const p = programmeById(ctx, job.tenantId, job.payload.programmeId);
  if (!p) throw new PermanentJobError('the programme was deleted');
  const tr = programmeTranscript(ctx, p, job.payload.language);
  if (!tr) throw new PermanentJobError('the programme has no ready subtitle track any more');
  const { from, to } = playWindow(p);
  return { programme: p, transcript: tr, input: { title: p.title, description: p.description, language: tr.source.language, durationMs: to - from, cues: tr.cues } };
}

/**
 * Stores an engine's draft as the job's artifact and sets the job's result: the one writer, whether the engine ran
 * here or on a worker (`worker`: its name; `draftS`: the engine's seconds).
 */
export function storeDraft(ctx: AppContext, job: JobRun<'article.draft'>, src: DraftSource, out: ArticleDraft, draftS: number, worker?: string | null): void {
  const p = src.programme, tr = src.transcript;
  const now = ctx.clock.now(), id = newId();
  new ArtifactStore(ctx.db).insert({
    id, tenant_id: p.tenant_id, kind: 'article', status: 'draft', subject_kind: 'programme', subject_id: p.id, channel_id: p.channel_id,
    engine: out.engine, model: out.model ?? null, language: tr.source.language, source_kind: tr.source.kind, source_id: tr.source.id,
    body: JSON.stringify(out.body), warnings: JSON.stringify(out.warnings), job_id: job.id, created_at: now, updated_at: now,
  });
  job.setResult({
    artifact_id: id, engine: out.engine, ...(out.model ? { model: out.model, calls: out.calls } : {}), cues: tr.cues.length,
    chapters: out.body.chapters.length, quotes: out.body.quotes.length, warnings: out.warnings.length,
    draft_s: Math.round(draftS * 100) / 100, ...(worker ? { worker } : {}),
  });
  job.progress(100);
}

async function draft(ctx: AppContext, job: JobRun<'article.draft'>): Promise<void> {
  const src = draftSource(ctx, job);
  if (!src) return;
  job.progress(5);
  const t0 = performance.now();
  const out = await draftWithEngine(ctx.config.articles, job.payload.engine, src.input, { signal: job.signal, progress: (pct) => job.progress(5 + Math.round(pct * 0.9)) });
  storeDraft(ctx, job, src, out, (performance.now() - t0) / 1000);
}

/** The feature's job handlers. */
export const articleJobHandlers: FeatureHandlers<'article.draft'> = { 'article.draft': draft };
