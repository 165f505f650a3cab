/**
 * The LLM article engine: any OpenAI-compatible chat endpoint (llama.cpp server, Ollama, vLLM) asked for JSON by
 * schema (`response_format: {type: json_schema}`). A long transcript is sent in chunks of whole cues, each answered
 * by the same schema and checked on its own (validate.ts); the chapters and quotes of the chunks are joined in order
 * and the lead (headline, standfirst, summary) is written in one more request from the chunks' leads. An answer that
 * is not JSON or cannot be repaired is asked again once with the reason; a second failure fails the draft for good.
 */
import { ARTICLE_SCHEMA, MERGE_SCHEMA, chunkPrompt, numberedCues, systemPrompt } from './llm-schema';
import { checkChunk, parseAnswer, type CheckedChunk } from './validate';
import { ArticleEngineError, type ArticleBody, type ArticleCue, type ArticleDraft, type ArticleEngine, type ArticleInput, type DraftOptions } from './types';

/** Settings of the chat endpoint. */
export interface ChatEngineOptions {
  /** Base URL (`http://box:8080`, `.../v1`) or the full `.../chat/completions` address. */
  url: string;
  /** Model name sent as `model`. */
  model: string;
  /** Bearer key, when the endpoint wants one. */
  apiKey?: string | null;
  /** Deadline of one request, ms (default 10 minutes: a local model on a CPU box is slow). */
  timeoutMs?: number;
  /** Largest transcript text of one request, characters (default 24,000: fits an 8k-token context with the answer). */
  chunkChars?: number;
}

interface Message { role: 'system' | 'user' | 'assistant'; content: string }

/** The chat completions endpoint for a configured URL. */
export function chatCompletionsUrl(url: string): string {
  const u = url.replace(/\/+$/, '');
  if (/\/chat\/completions$/.test(u)) return u;
  return /\/v1$/.test(u) ? `${u}/chat/completions` : `${u}/v1/chat/completions`;
}

/** Splits cues into chunks whose numbered text stays under `maxChars` (a chunk holds at least one cue). */
export function chunkCues(cues: ArticleCue[], maxChars: number): ArticleCue[][] {
  const out: ArticleCue[][] = [];
  let cur: ArticleCue[] = [], size = 0;
  for (const c of cues) {
    const n = numberedCues([c]).length + 1;
    if (cur.length && size + n > maxChars) { out.push(cur); cur = []; size = 0; }
    cur.push(c); size += n;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** The chat engine behind the article boundary. */
export function chatArticleEngine(o: ChatEngineOptions): ArticleEngine {
  const endpoint = chatCompletionsUrl(o.url);
  let calls = 0;

  async function complete(messages: Message[], name: string, schema: object, signal?: AbortSignal): Promise<string> {
    calls++;
    const timeout = AbortSignal.timeout(o.timeoutMs ?? 600_000);
    let res: Response;
    try {
      res = await fetch(endpoint, {
        method: 'POST', signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        headers: { 'content-type': 'application/json', ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}) },
        body: JSON.stringify({ model: o.model, temperature: 0, messages, response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } } }),
      });
    } catch (e) {
      throw new ArticleEngineError(`the chat endpoint ${endpoint} could not be reached: ${(e as Error).message}`, false);
    }
    const raw = await res.text();
    if (!res.ok) throw new ArticleEngineError(`the chat endpoint answered ${res.status}: ${raw.slice(0, 200)}`, res.status >= 400 && res.status < 500 && res.status !== 429);
    let content: unknown;
    try { content = (JSON.parse(raw) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content; } catch { content = undefined; }
    if (typeof content !== 'string') throw new ArticleEngineError(`the chat endpoint's answer has no message content: ${raw.slice(0, 200)}`, false);
    return content;
  }

  /** Asks, checks, and asks once more with the reason when the answer is broken; a second failure is permanent. */
  async function askChecked<T>(messages: Message[], name: string, schema: object, check: (a: Record<string, unknown>) => T, signal?: AbortSignal): Promise<T> {
    let first = '';
    for (let attempt = 1; ; attempt++) {
      const content = await complete(messages, name, schema, signal);
      try { return check(parseAnswer(content)); } catch (e) {
        if (!(e instanceof ArticleEngineError)) throw e;
        if (attempt >= 2) throw new ArticleEngineError(`the model's answer was unusable twice: ${first}; then: ${e.message}`, true);
        first = e.message;
        messages = [...messages, { role: 'assistant', content }, { role: 'user', content: `That answer cannot be used: ${e.message}. Answer again with JSON matching the schema only.` }];
      }
    }
  }

  return {
    name: 'llm',
    async draft(input: ArticleInput, d: DraftOptions = {}): Promise<ArticleDraft> {
      calls = 0;
      if (!input.cues.length) throw new ArticleEngineError('the transcript is empty', true);
      const fullText = input.cues.map((c) => c.text).join('\n');
      const parts = chunkCues(input.cues, o.chunkChars ?? 24_000);
      const system: Message = { role: 'system', content: systemPrompt(input.language) };
      const checked: CheckedChunk[] = [];
      for (const [i, part] of parts.entries()) {
        const msgs: Message[] = [system, { role: 'user', content: chunkPrompt(input, part, { index: i, of: parts.length }) }];
        const c = await askChecked(msgs, 'article', ARTICLE_SCHEMA, (a) => checkChunk(a, part, fullText), d.signal);
        checked.push(parts.length > 1 ? { ...c, warnings: c.warnings.map((w) => `part ${i + 1}: ${w}`) } : c);
        d.progress?.(Math.round(((i + 1) / (parts.length + (parts.length > 1 ? 1 : 0))) * 90));
      }
      let lead = { headline: checked[0]!.headline, standfirst: checked[0]!.standfirst, summary: checked[0]!.summary };
      if (checked.length > 1) {
        const notes = checked.map((c, i) => `Part ${i + 1}:\nHeadline: ${c.headline}\nStandfirst: ${c.standfirst}\nSummary: ${c.summary}`).join('\n\n');
        const msgs: Message[] = [system, { role: 'user', content: `Programme: ${input.title}\nWrite the headline, standfirst and summary of the whole programme from the summaries of its parts.\n\n${notes}` }];
        lead = await askChecked(msgs, 'article_lead', MERGE_SCHEMA, (a) => {
          const h = typeof a.headline === 'string' ? a.headline.trim() : '', s = typeof a.summary === 'string' ? a.summary.trim() : '';
          if (!h || !s) throw new ArticleEngineError('the merge answer has no headline or summary', false);
          return { headline: h, standfirst: typeof a.standfirst === 'string' ? a.standfirst.trim() : '', summary: s };
        }, d.signal);
      }
      const uniq = (xs: string[], n: number) => xs.filter((x, i) => xs.findIndex((y) => y.toLocaleLowerCase() === x.toLocaleLowerCase()) === i).slice(0, n);
      const body: ArticleBody = {
        ...lead,
        chapters: checked.flatMap((c) => c.chapters.map(({ from: _f, to: _t, ...ch }) => ch)),
        quotes: checked.flatMap((c) => c.quotes).slice(0, 12),
        entities: uniq(checked.flatMap((c) => c.entities), 30),
        tags: uniq(checked.flatMap((c) => c.tags), 10),
      };
      return { body, warnings: checked.flatMap((c) => c.warnings), engine: 'llm', model: o.model, calls };
    },
  };
}
