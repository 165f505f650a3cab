import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import { tx } from '../../kernel/db/sqlite';
import { DEFAULT_CUE_RULES } from '../../text/cue-builder';
import { SubtitleSettingsStore } from './settings-store';

/** Which engine recognises a tenant's speech by default. */
export type DefaultEngine = 'auto' | 'openai' | 'pocketsphinx';

/** A tenant's subtitle settings (defaults filled in). */
export interface SubtitleSettings {
  auto_subtitles: { assets: string[]; recordings: string[] };
  reading_speed: number;
  default_engine: DefaultEngine;
  updated_at: string | null;
}

/** A change of subtitle settings (PATCH body). */
export interface SubtitleSettingsPatchIn {
  auto_subtitles?: { assets?: string[]; recordings?: string[] };
  reading_speed?: number;
  default_engine?: DefaultEngine;
}

type Stored = Partial<Omit<SubtitleSettings, 'updated_at'>>;

/** Per-tenant subtitle settings: auto-subtitle languages (assets, recordings), reading speed, default engine. */
export class SubtitleSettingsService {
  private readonly store: SubtitleSettingsStore;
  constructor(private readonly ctx: AppContext) { this.store = new SubtitleSettingsStore(ctx.db); }

  /** The tenant's settings with defaults: no auto subtitles, 17 characters a second, engine `auto`. */
  get(tenantId: string): SubtitleSettings {
    const r = this.store.get(tenantId);
    const s = (r ? JSON.parse(r.settings) : {}) as Stored;
    return {
      auto_subtitles: { assets: s.auto_subtitles?.assets ?? [], recordings: s.auto_subtitles?.recordings ?? [] },
      reading_speed: s.reading_speed ?? DEFAULT_CUE_RULES.maxCharsPerSecond,
      default_engine: s.default_engine ?? 'auto',
      updated_at: r ? iso(r.updated_at) : null,
    };
  }

  /** Applies a change; returns the settings and the fields that changed (before → after) for the audit log. */
  patch(tenantId: string, p: SubtitleSettingsPatchIn): { out: SubtitleSettings; changed: Record<string, { from: unknown; to: unknown }> } {
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    tx(this.ctx.db, () => {
      const cur = this.get(tenantId);
      const next: Stored = {
        auto_subtitles: {
          assets: p.auto_subtitles?.assets ? [...new Set(p.auto_subtitles.assets)] : cur.auto_subtitles.assets,
          recordings: p.auto_subtitles?.recordings ? [...new Set(p.auto_subtitles.recordings)] : cur.auto_subtitles.recordings,
        },
        reading_speed: p.reading_speed ?? cur.reading_speed,
        default_engine: p.default_engine ?? cur.default_engine,
      };
      for (const k of ['auto_subtitles', 'reading_speed', 'default_engine'] as const) {
        if (JSON.stringify(cur[k]) !== JSON.stringify(next[k])) changed[k] = { from: cur[k], to: next[k] };
      }
      this.store.put(tenantId, JSON.stringify(next), this.ctx.clock.now());
    });
    return { out: this.get(tenantId), changed };
  }

  /** The tenant's reading speed limit (characters per second). */
  readingSpeed(tenantId: string): number {
    return this.get(tenantId).reading_speed;
  }
}

/**
 * Languages the tenant has recognised automatically for new `assets` (when one turns ready) or channel
 * `recordings` (when a programme has been recorded): one recognition track per language.
 */
export function autoLanguages(ctx: AppContext, tenantId: string, kind: 'assets' | 'recordings'): string[] {
  return new SubtitleSettingsService(ctx).get(tenantId).auto_subtitles[kind];
}
