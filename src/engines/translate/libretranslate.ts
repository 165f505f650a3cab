import { retryOnce, baseLang, postJson, TranslateError, type TranslateEngine, type TranslateRequest } from './types';

/** Settings of a LibreTranslate server (run apart: the server is AGPL). */
export interface LibreTranslateOptions {
  /** Base URL (`http://mt-box:5000`) or the full `.../translate` address. */
  url: string;
  apiKey?: string | null;
  timeoutMs?: number;
  /** Sentences per request (default 50). */
  batch?: number;
}

/** The translate endpoint for a configured URL. */
export function libreTranslateUrl(url: string): string {
  const u = url.replace(/\/+$/, '');
  return /\/translate$/.test(u) ? u : `${u}/translate`;
}

/** The request body of one batch: `q` as an array, `source`, `target`, `format: text`, `api_key` when configured. */
export function libreRequest(req: TranslateRequest, sentences: string[], apiKey?: string | null) {
  return { q: sentences, source: baseLang(req.from), target: baseLang(req.to), format: 'text', ...(apiKey ? { api_key: apiKey } : {}) };
}

/** The translations of an answer `{translatedText: string[]}`; TranslateError when it is not `n` strings. */
export function parseLibreAnswer(body: unknown, n: number): string[] {
  const t = (body as { translatedText?: unknown; error?: unknown })?.translatedText;
  if (typeof (body as { error?: unknown })?.error === 'string') throw new TranslateError('engine_failed', `LibreTranslate: ${(body as { error: string }).error}`, true);
  const list = typeof t === 'string' && n === 1 ? [t] : t;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) throw new TranslateError('bad_response', 'LibreTranslate answered without a translatedText array of strings', false);
  if (list.length !== n) throw new TranslateError('bad_response', `LibreTranslate returned ${list.length} sentences for ${n}`, false);
  return list as string[];
}

/**
 * The LibreTranslate API (`POST /translate`). It has no glossary parameter: glossary terms are not sent (the chat
 * engine takes them); whole-word glossary corrections on the result are the glossary feature's.
 */
export function libreTranslateEngine(o: LibreTranslateOptions): TranslateEngine {
  const endpoint = libreTranslateUrl(o.url);
  const size = Math.max(1, o.batch ?? 50);
  return {
    name: 'libretranslate',
    async translate(req: TranslateRequest): Promise<string[]> {
      const out: string[] = [];
      for (let i = 0; i < req.sentences.length; i += size) {
        const part = req.sentences.slice(i, i + size);
        out.push(...await retryOnce(async () => parseLibreAnswer(await postJson(endpoint, libreRequest(req, part, o.apiKey), { timeoutMs: o.timeoutMs ?? 10 * 60_000, maxBytes: 16 * 1024 * 1024, signal: req.signal, what: 'LibreTranslate' }), part.length), req.onRetry));
        req.onProgress?.(out.length, req.sentences.length);
      }
      return out;
    },
  };
}
