import { libreTranslateEngine } from './libretranslate';
import { openAiChatEngine } from './openai-chat';
import { TranslateError, type TranslateEngine } from './types';

/** Translation settings (kernel config `mt`: `VS_MT_KIND`, `VS_MT_URL`, `VS_MT_MODEL`, `VS_MT_API_KEY`). */
export interface TranslateSettings { kind: 'openai' | 'libretranslate'; url: string | null; model: string; apiKey: string | null }

/** The configured engine, or TranslateError `no_engine` (permanent) saying how to configure one. */
export function translateEngine(s: TranslateSettings): TranslateEngine {
  if (!s.url) throw new TranslateError('no_engine', 'no translation engine is configured: set VS_MT_URL to an OpenAI-compatible chat server (VS_MT_MODEL names the model) or, with VS_MT_KIND=libretranslate, to a LibreTranslate server (see docs/subtitles.md)', true);
  return s.kind === 'libretranslate'
    ? libreTranslateEngine({ url: s.url, apiKey: s.apiKey })
    : openAiChatEngine({ url: s.url, model: s.model, apiKey: s.apiKey });
}

