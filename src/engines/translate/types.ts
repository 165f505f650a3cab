/**
 * The machine-translation engine boundary (issue 43): whole sentences in, the same number of translated sentences
 * out, in order. Engines run outside our process (an OpenAI-compatible chat server such as llama.cpp, Ollama or vLLM;
 * a LibreTranslate server) and are given their settings as options.
 */

/** A glossary entry: a term that must be kept (names, places, programme names), with its fixed rendering if any. */
export interface GlossaryTerm { term: string; translation?: string | null }

/** What one translation needs. */
export interface TranslateRequest {
  /** Whole sentences, plain text in logical order. */
  sentences: string[];
  /** BCP 47 source and target languages (`he`, `en`, `ar`, `ru`). */
  from: string;
  to: string;
  /** Terms passed to engines that take them (the chat engine's prompt). */
  glossary?: GlossaryTerm[];
  signal?: AbortSignal;
  /** Called after each batch with the sentences done so far (progress). */
  onProgress?: (done: number, total: number) => void;
  /** Called when a batch is asked again after a failure that a retry can help (see `retryOnce`). */
  onRetry?: (e: TranslateError) => void;
}

/** A translation engine. */
export interface TranslateEngine {
  /** Stable name recorded with each translated track (`openai-chat`, `libretranslate`). */
  readonly name: string;
  /** Translates `sentences`; the answer has exactly as many entries, in order. Throws TranslateError. */
  translate(req: TranslateRequest): Promise<string[]>;
}

/** Why a translation failed. */
export type TranslateErrorCode = 'no_engine' | 'engine_failed' | 'engine_unreachable' | 'bad_response' | 'aborted';

/** A translation failure with a stable code and a readable reason; `permanent` when retrying cannot help. */
export class TranslateError extends Error {
  constructor(readonly code: TranslateErrorCode, message: string, readonly permanent: boolean) {
    super(message);
    this.name = 'TranslateError';
  }
}

const NAMES: Record<string, string> = { he: 'Hebrew', en: 'English', ar: 'Arabic', ru: 'Russian', fr: 'French', es: 'Spanish', de: 'German', am: 'Amharic', uk: 'Ukrainian', fa: 'Persian', yi: 'Yiddish' };
/** The primary subtag of a BCP 47 tag, lower-cased (`en-US` -> `en`). */
export const baseLang = (tag: string) => tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
/** An English name of a language for prompts (`he` -> `Hebrew`; unknown tags as given). */
export const languageName = (tag: string) => NAMES[baseLang(tag)] ?? tag;

/** POSTs JSON with a deadline and reads a bounded answer; network failures and non-2xx answers become TranslateError. */
export async function postJson(url: string, body: unknown, o: { headers?: Record<string, string>; timeoutMs: number; maxBytes: number; signal?: AbortSignal; what: string }): Promise<unknown> {
  const deadline = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, deadline]) : deadline;
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', body: JSON.stringify(body), signal, headers: { 'content-type': 'application/json', ...o.headers } });
  } catch (e) {
    if (o.signal?.aborted) throw new TranslateError('aborted', 'translation was cancelled', false);
    throw new TranslateError('engine_unreachable', `${o.what} at ${url} did not answer: ${(e as Error).message}`, false);
  }
  const text = await res.text();
  if (text.length > o.maxBytes) throw new TranslateError('bad_response', `${o.what} answer is larger than ${o.maxBytes} bytes`, false);
  if (!res.ok) throw new TranslateError('engine_failed', `${o.what} answered ${res.status}: ${text.slice(0, 300)}`, res.status >= 400 && res.status < 500 && res.status !== 429 && res.status !== 408);
  try { return JSON.parse(text); } catch { throw new TranslateError('bad_response', `${o.what} answered something other than JSON: ${text.slice(0, 120)}`, false); }
}

/**
 * Runs one batch with one retry: an answer that is not valid JSON or has the wrong number of sentences, an engine
 * error that is not permanent, or an unreachable engine is asked once more; a second failure is thrown.
 */
export async function retryOnce<T>(fn: () => Promise<T>, onRetry?: (e: TranslateError) => void): Promise<T> {
  try { return await fn(); } catch (e) {
    if (!(e instanceof TranslateError) || e.permanent || e.code === 'aborted') throw e;
    onRetry?.(e);
    return await fn();
  }
}
