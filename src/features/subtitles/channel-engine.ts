import type { AppContext } from '../../kernel/context';
import { asrEngines, asrSettings, engineFor } from '../../engines/asr/select';
import type { AsrEngine } from '../../engines/asr/types';
import { autoLanguages, SubtitleSettingsService } from './settings-service';

/**
 * The speech engine for a channel track in `language`: the same choice as for asset tracks (the tenant's default
 * engine, else the configured OpenAI-compatible service, then the built-in English engine); AsrError `no_engine`
 * (permanent) when none takes it. Also the tenant's reading speed for the cue builder.
 */
export function speechEngineFor(ctx: AppContext, tenantId: string, language: string): { engine: AsrEngine; readingSpeed: number } {
  const settings = new SubtitleSettingsService(ctx).get(tenantId);
  const engine = engineFor(asrEngines(asrSettings(ctx.config.asr)), language, settings.default_engine === 'auto' ? null : settings.default_engine);
  return { engine, readingSpeed: settings.reading_speed };
}

/** Languages a tenant has asked to recognise automatically for ended, recorded programmes (`auto_subtitles.recordings`). */
export function autoRecordingLanguages(ctx: AppContext, tenantId: string): string[] {
  return autoLanguages(ctx, tenantId, 'recordings');
}
