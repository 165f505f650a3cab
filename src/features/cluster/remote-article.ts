import type { AppContext } from '../../kernel/context';
import type { Handler, JobRun } from '../../jobs/types';
import { draftSource, storeDraft } from '../articles/jobs';
import type { ClusterLink } from './link';
import { encode, SUBJECTS, type ArticleJobMsg, type ArticleOutput } from './protocol';
import { runRemoteJob } from './remote-job';

/**
 * Largest job message sent (bytes): NATS refuses payloads over its `max_payload` (1 MiB by default). A transcript
 * too long for one message (hours of dense speech) is drafted on this node instead.
 */
const MAX_MESSAGE = 900_000;

/** The subject of a draft with this engine: the built-in extractive engine on any worker, the chat engine on workers with `llm`. */
export function articleSubject(engine: 'extractive' | 'llm'): string {
  return SUBJECTS.job('article', engine === 'llm' ? 'llm' : 'any');
}

/**
 * `article.draft` on the cluster: the programme's transcript is read here (as the local job reads it) and sent with
 * the title, description, language and length — no database ids — to `vs.jobs.article.any` (extractive: every worker
 * has it) or `vs.jobs.article.llm` (the chat engine: only workers whose own `VS_LLM_URL` is set take it; the job
 * waits in the stream until one joins). The worker runs the engine with progress and sends the draft back; this node
 * stores the artifact exactly as the local job does. Redelivery, cancel and permanent failures are runRemoteJob's.
 */
export async function remoteDraft(ctx: AppContext, job: JobRun<'article.draft'>, link: ClusterLink, local: Handler<'article.draft'>): Promise<void> {
  const src = draftSource(ctx, job);
  if (!src) return; // stored before a crash: done
  const make = (gen: number): ArticleJobMsg => ({ kind: 'article', jobId: job.id, gen, tenantId: job.tenantId, engine: job.payload.engine, input: src.input });
  if (encode(make(1)).length > MAX_MESSAGE) {
    job.note('cluster_local', { reason: 'transcript too long for one job message' });
    return local(ctx, job);
  }
  job.progress(5);
  const t0 = performance.now();
  const end = await runRemoteJob<ArticleOutput>(ctx, job, link, articleSubject(job.payload.engine), make);
  storeDraft(ctx, job, src, end.output, end.ms / 1000 || (performance.now() - t0) / 1000, end.worker);
}
