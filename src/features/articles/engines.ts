import type { Config } from '../../kernel/config/schema';
import { invalid } from '../../kernel/errors';
import { chatArticleEngine } from '../../engines/article/openai-chat';
import { extractiveEngine } from '../../engines/article/extractive';
import { ArticleEngineError, type ArticleDraft, type ArticleEngine, type ArticleInput, type DraftOptions } from '../../engines/article/types';
import { PermanentJobError } from '../../jobs/errors';

/** An engine name a request may ask for. */
export type EngineName = 'extractive' | 'llm';

/** The engine a request gets: the one asked for, else `llm` with a chat endpoint configured (or forced), else extractive; 422 for llm without an endpoint. */
export function chooseEngine(cfg: Config['articles'], wanted?: EngineName): EngineName {
  const name = wanted ?? (cfg.engine === 'auto' ? (cfg.llmUrl ? 'llm' : 'extractive') : cfg.engine);
  if (name === 'llm' && !cfg.llmUrl) throw invalid('engine', 'no chat endpoint is configured (VS_LLM_URL); use engine "extractive"');
  return name;
}

/** The engine instance for a job. */
export function articleEngine(cfg: Config['articles'], name: EngineName): ArticleEngine {
  if (name === 'extractive') return extractiveEngine();
  if (!cfg.llmUrl) throw new Error('no chat endpoint is configured (VS_LLM_URL)');
  return chatArticleEngine({ url: cfg.llmUrl, model: cfg.llmModel, apiKey: cfg.llmApiKey });
}

/**
 * Drafts with the named engine, as a job runs it (on this node or on a worker, with that machine's settings): an
 * engine's permanent failure, or `llm` without a chat endpoint, is a PermanentJobError (no retry); others are retried.
 */
export async function draftWithEngine(cfg: Config['articles'], name: EngineName, input: ArticleInput, o: DraftOptions): Promise<ArticleDraft> {
  if (name === 'llm' && !cfg.llmUrl) throw new PermanentJobError('no chat endpoint is configured here (VS_LLM_URL)');
  try {
    return await articleEngine(cfg, name).draft(input, o);
  } catch (e) {
    if (e instanceof ArticleEngineError && e.permanent) throw new PermanentJobError(e.message);
    throw e;
  }
}
