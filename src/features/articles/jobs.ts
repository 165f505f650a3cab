/**
 * `article.draft`: reads the programme's transcript (transcript.ts), runs the engine chosen when the draft was
 * asked for (extractive, or the chat model) with progress, and stores the draft artifact with the repairs made
 * (`warnings`). An engine that cannot produce a usable draft fails the job with the reason; nothing is stored.
 */
import type { AppContext } from '../../kernel/context';
import { newId } from '../../kernel/ids';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRun } from '../../jobs/types';
import { ArticleEngineError } from '../../engines/article/types';
import { programmeById } from '../guide/service';
import { articleEngine } from './engines';
import { ArtifactStore } from './store';
import { playWindow, programmeTranscript } from './transcript';

async function draft(ctx: AppContext, job: JobRun<'article.draft'>): Promise<void> {
  const store = new ArtifactStore(ctx.db);
  if (store.byJob(job.id)) return; // stored before a crash: the job is done
  const p = programmeById(ctx, job.tenantId, job.payload.programmeId);
  if (!p) throw new PermanentJobError('the programme was deleted');
  const tr = programmeTranscript(ctx, p, job.payload.language);
  if (!tr) throw new PermanentJobError('the programme has no ready subtitle track any more');
  const { from, to } = playWindow(p);
  job.progress(5);
  const t0 = performance.now();
  let out;
  try {
    out = await articleEngine(ctx.config.articles, job.payload.engine).draft(
      { title: p.title, description: p.description, language: tr.source.language, durationMs: to - from, cues: tr.cues },
      { signal: job.signal, progress: (pct) => job.progress(5 + Math.round(pct * 0.9)) },
    );
  } catch (e) {
    if (e instanceof ArticleEngineError && e.permanent) throw new PermanentJobError(e.message);
    throw e;
  }
  const now = ctx.clock.now(), id = newId();
  store.insert({
    id, tenant_id: p.tenant_id, kind: 'article', status: 'draft', subject_kind: 'programme', subject_id: p.id, channel_id: p.channel_id,
    engine: out.engine, model: out.model ?? null, language: tr.source.language, source_kind: tr.source.kind, source_id: tr.source.id,
    body: JSON.stringify(out.body), warnings: JSON.stringify(out.warnings), job_id: job.id, created_at: now, updated_at: now,
  });
  job.setResult({
    artifact_id: id, engine: out.engine, ...(out.model ? { model: out.model, calls: out.calls } : {}), cues: tr.cues.length,
    chapters: out.body.chapters.length, quotes: out.body.quotes.length, warnings: out.warnings.length,
    draft_s: Math.round((performance.now() - t0) / 10) / 100,
  });
  job.progress(100);
}

/** The feature's job handlers. */
export const articleJobHandlers: FeatureHandlers<'article.draft'> = { 'article.draft': draft };
