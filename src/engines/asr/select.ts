import { AsrError, type AsrEngine } from './types';
import { openAiAsrEngine, type OpenAiAsrOptions } from './openai';
import { pocketsphinxEngine, type PocketsphinxOptions } from './pocketsphinx';

/** Engine settings: the OpenAI-compatible service when configured, and the built-in engine. */
export interface AsrSettings {
  openai?: OpenAiAsrOptions | null;
  pocketsphinx?: PocketsphinxOptions | false;
}

/** The configured engines in order of preference: the service first, then the built-in English engine. */
export function asrEngines(s: AsrSettings): AsrEngine[] {
  const out: AsrEngine[] = [];
  if (s.openai?.url) out.push(openAiAsrEngine(s.openai));
  if (s.pocketsphinx !== false) out.push(pocketsphinxEngine(s.pocketsphinx ?? {}));
  return out;
}

/**
 * The first engine that recognises `language` (only the engine named `prefer` when given, e.g. a tenant's default
 * engine), or AsrError `no_engine` saying what is configured.
 */
export function engineFor(engines: AsrEngine[], language: string, prefer?: string | null): AsrEngine {
  const e = engines.find((x) => (!prefer || x.name === prefer) && x.supports(language));
  if (e) return e;
  if (prefer && engines.some((x) => x.supports(language))) {
    throw new AsrError('no_engine', `the tenant's default speech engine "${prefer}" does not recognise language "${language}" or is not configured (configured: ${engines.map((x) => x.name).join(', ') || 'none'}); choose another default_engine in /v1/settings/subtitles`, true);
  }
  const have = engines.filter((x) => x.supports('en')).map((x) => x.name);
  throw new AsrError('no_engine', `no speech engine is configured for language "${language}" (configured: ${engines.map((x) => x.name).join(', ') || 'none'}${have.length ? `; English: ${have.join(', ')}` : ''}). Set VS_ASR_URL to an OpenAI-compatible transcription service (see docs/subtitles.md).`, true);
}

/**
 * Settings from the environment: `VS_ASR_URL`, `VS_ASR_MODEL` (default `whisper-1`), `VS_ASR_API_KEY`,
 * `VS_ASR_LANGUAGES` (comma list; empty: all), `VS_ASR_POCKETSPHINX` (`off` disables the built-in engine).
 */
export function asrSettingsFromEnv(env: Record<string, string | undefined>): AsrSettings {
  const url = env.VS_ASR_URL?.trim();
  return {
    openai: url ? {
      url,
      model: env.VS_ASR_MODEL?.trim() || 'whisper-1',
      apiKey: env.VS_ASR_API_KEY?.trim() || null,
      languages: (env.VS_ASR_LANGUAGES ?? '').split(',').map((x) => x.trim()).filter(Boolean),
    } : null,
    pocketsphinx: env.VS_ASR_POCKETSPHINX === 'off' ? false : {},
  };
}

/** Engine settings from the service configuration (`config.asr`, read from the same `VS_ASR_*` variables). */
export function asrSettings(c: { url: string | null; model: string; apiKey: string | null; languages: string[]; pocketsphinx: boolean }): AsrSettings {
  return {
    openai: c.url ? { url: c.url, model: c.model, apiKey: c.apiKey, languages: c.languages } : null,
    pocketsphinx: c.pocketsphinx ? {} : false,
  };
}
