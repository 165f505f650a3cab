import { invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { tx } from '../../kernel/db/sqlite';
import type { AppContext } from '../../kernel/context';
import { laddersOf } from '../transcode/ladders';
import { SettingsStore } from './store';

/** Stored settings (JSON in the tenant row). */
interface Stored {
  logo_url?: string | null; colors?: Record<string, string>; time_zone?: string; default_ladder?: string;
  auto_publish?: boolean; default_languages?: string[]; updated_at?: number;
}

/** Settings as the API shows them (defaults filled in). */
export interface SettingsOut {
  name: string; slug: string; logo_url: string | null; colors: { primary: string; accent: string; background: string; text: string };
  time_zone: string; default_ladder: string; auto_publish: boolean; default_languages: string[]; updated_at: string | null;
}

/** A change of settings (PATCH body). */
export type SettingsPatchIn = Partial<Omit<SettingsOut, 'slug' | 'updated_at' | 'colors'> & { colors: Partial<SettingsOut['colors']> }>;

const DEFAULT_COLORS = { primary: '#1f6feb', accent: '#f0883e', background: '#ffffff', text: '#1f2328' };

/** Tenant settings and branding: name, logo, colours, time zone, default ladder, auto-publish, default languages. */
export class SettingsService {
  private store: SettingsStore;
  constructor(private ctx: AppContext) { this.store = new SettingsStore(ctx.db); }

  private read(tenantId: string): { name: string; slug: string; s: Stored } {
    const r = this.store.get(tenantId);
    if (!r) throw notFound('tenant');
    return { name: r.name, slug: r.slug, s: JSON.parse(r.settings || '{}') as Stored };
  }

  /** The tenant's settings with defaults. */
  get(tenantId: string): SettingsOut {
    const { name, slug, s } = this.read(tenantId);
    return {
      name, slug, logo_url: s.logo_url ?? null, colors: { ...DEFAULT_COLORS, ...s.colors }, time_zone: s.time_zone ?? 'Asia/Jerusalem',
      default_ladder: s.default_ladder ?? laddersOf(this.ctx).default, auto_publish: s.auto_publish ?? false,
      default_languages: s.default_languages ?? ['he'], updated_at: s.updated_at ? iso(s.updated_at) : null,
    };
  }

  /** Applies a change; returns the new settings and the fields that changed (before → after). */
  patch(tenantId: string, p: SettingsPatchIn): { out: SettingsOut; changed: Record<string, { from: unknown; to: unknown }> } {
    if (p.name !== undefined && !p.name.trim()) throw invalid('name', 'must not be blank');
    if (p.logo_url) {
      let u: URL | null = null;
      try { u = new URL(p.logo_url); } catch { /* refused below */ }
      if (!u || u.protocol !== 'https:' || u.username || u.password) throw invalid('logo_url', 'an https address without user info');
    }
    if (p.time_zone !== undefined) {
      try { new Intl.DateTimeFormat('en', { timeZone: p.time_zone }); } catch { throw invalid('time_zone', `unknown IANA time zone "${p.time_zone}"`); }
    }
    if (p.default_ladder !== undefined) {
      const names = Object.keys(laddersOf(this.ctx).ladders);
      if (!names.includes(p.default_ladder)) throw invalid('default_ladder', `unknown ladder; one of ${names.join(', ')}`);
    }
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    tx(this.ctx.db, () => {
      const before = this.get(tenantId);
      const { name, s } = this.read(tenantId);
      const next: Stored = { ...s };
      if (p.logo_url !== undefined) next.logo_url = p.logo_url;
      if (p.colors !== undefined) next.colors = { ...s.colors, ...p.colors };
      if (p.time_zone !== undefined) next.time_zone = p.time_zone;
      if (p.default_ladder !== undefined) next.default_ladder = p.default_ladder;
      if (p.auto_publish !== undefined) next.auto_publish = p.auto_publish;
      if (p.default_languages !== undefined) next.default_languages = [...new Set(p.default_languages)];
      next.updated_at = this.ctx.clock.now();
      this.store.put(tenantId, p.name?.trim() ?? name, JSON.stringify(next));
      const after = this.get(tenantId);
      for (const k of Object.keys(p) as (keyof SettingsOut)[]) {
        if (JSON.stringify(before[k]) !== JSON.stringify(after[k])) changed[k] = { from: before[k], to: after[k] };
      }
    });
    // The tenant's name is part of cached principals (keys and sessions): drop them so /v1/me shows the new name.
    if (changed.name) this.ctx.keys.invalidateTenant(tenantId);
    return { out: this.get(tenantId), changed };
  }
}
