import { retryOnce, languageName, postJson, TranslateError, type GlossaryTerm, type TranslateEngine, type TranslateRequest } from './types';

/** Settings of an OpenAI-compatible chat server (llama.cpp server, Ollama, vLLM, any `/v1/chat/completions`). */
export interface OpenAiChatOptions {
  /** Base URL (`http://gpu-box:8080`, `.../v1`) or the full `.../v1/chat/completions` address. */
  url: string;
  /** Model name sent as `model`. */
  model: string;
  apiKey?: string | null;
  /** Deadline of one request (ms; default 10 min). */
  timeoutMs?: number;
  /** Sentences per request (default 40): bounded prompts, progress between batches. */
  batch?: number;
}

/** The chat endpoint for a configured URL. */
export function chatCompletionsUrl(url: string): string {
  const u = url.replace(/\/+$/, '');
  if (/\/chat\/completions$/.test(u)) return u;
  return /\/v1$/.test(u) ? `${u}/chat/completions` : `${u}/v1/chat/completions`;
}

/** The JSON schema the answer must follow: `{translations: string[n]}`. */
export function translationSchema(n: number) {
  return {
    type: 'object',
    properties: { translations: { type: 'array', items: { type: 'string' }, minItems: n, maxItems: n } },
    required: ['translations'],
    additionalProperties: false,
  };
}

/** The system prompt: the task, the subtitle register, the glossary terms that must be kept as given. */
export function systemPrompt(from: string, to: string, glossary: GlossaryTerm[]): string {
  const lines = [
    `You translate broadcast subtitles from ${languageName(from)} (${from}) to ${languageName(to)} (${to}).`,
    'You receive a JSON array of whole sentences. Answer with a JSON object {"translations": [...]} holding exactly one translation per sentence, in the same order; never merge, split, add or drop sentences.',
    'Translate faithfully and concisely, in the register of television subtitles. Plain text only: no notes, no markup, no quotes around sentences.',
  ];
  const terms = glossary.filter((g) => g.term.trim());
  if (terms.length) {
    lines.push('Glossary (names, places and programme names; use these renderings exactly):');
    for (const g of terms) lines.push(`- ${g.term.trim()}${g.translation?.trim() ? ` => ${g.translation.trim()}` : ' (keep as a name; transliterate, do not translate)'}`);
  }
  return lines.join('\n');
}

/** The request body of one batch (OpenAI chat completions with `response_format: json_schema`). */
export function chatRequest(model: string, req: TranslateRequest, sentences: string[]) {
  return {
    model,
    temperature: 0,
    messages: [
      { role: 'system', content: systemPrompt(req.from, req.to, req.glossary ?? []) },
      { role: 'user', content: JSON.stringify(sentences) },
    ],
    response_format: { type: 'json_schema', json_schema: { name: 'subtitle_translation', strict: true, schema: translationSchema(sentences.length) } },
  };
}

/** The translations of a chat answer; TranslateError `bad_response` when it is not `n` strings. */
export function parseChatAnswer(body: unknown, n: number): string[] {
  const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new TranslateError('bad_response', 'the chat server answered without choices[0].message.content', false);
  let parsed: unknown;
  // Some servers wrap JSON in a code fence even when asked for a schema.
  const raw = content.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  try { parsed = JSON.parse(raw); } catch { throw new TranslateError('bad_response', `the chat model's answer is not JSON: ${content.slice(0, 120)}`, false); }
  const list = (parsed as { translations?: unknown })?.translations;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) throw new TranslateError('bad_response', 'the chat model\'s answer has no "translations" array of strings', false);
  if (list.length !== n) throw new TranslateError('bad_response', `the chat model returned ${list.length} sentences for ${n}`, false);
  return list as string[];
}

/** OpenAI-compatible chat engine: batches of sentences, JSON-schema output, the glossary in the system prompt. */
export function openAiChatEngine(o: OpenAiChatOptions): TranslateEngine {
  const endpoint = chatCompletionsUrl(o.url);
  const size = Math.max(1, o.batch ?? 40);
  return {
    name: 'openai-chat',
    async translate(req: TranslateRequest): Promise<string[]> {
      const out: string[] = [];
      for (let i = 0; i < req.sentences.length; i += size) {
        const part = req.sentences.slice(i, i + size);
        out.push(...await retryOnce(async () => parseChatAnswer(await postJson(endpoint, chatRequest(o.model, req, part), {
          headers: o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}, timeoutMs: o.timeoutMs ?? 10 * 60_000, maxBytes: 16 * 1024 * 1024, signal: req.signal, what: 'chat server',
        }), part.length), req.onRetry));
        req.onProgress?.(out.length, req.sentences.length);
      }
      return out;
    },
  };
}
