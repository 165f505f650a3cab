import { createHash } from 'node:crypto';
import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId, randomToken } from '../../kernel/ids';
import { tx } from '../../kernel/db/sqlite';
import { slotKey } from '../../kernel/slots';
import { SiteStore, type SiteRow } from './store';
import type { CreateSiteBody, PatchSiteBody, PreviewBody, ThemeBody } from './model';

/** Per-site change counters (bumped by every write: the delivery answer cache keys on them). */
const GENERATIONS = slotKey<Map<string, number>>('sites.generations');
/** The slot's first value (one function, not a closure per call: `generation` runs on the fast lane's path). */
const newGenerations = () => new Map<string, number>();

/** Parses a stored JSON document (the store only ever writes valid JSON). */
export function parse<T = Record<string, unknown>>(s: string | null): T { return (s ? JSON.parse(s) : {}) as T; }

/** SHA-256 hex of a secret (preview tokens and domain tokens are looked up by it). */
export function sha256(s: string): string { return createHash('sha256').update(s).digest('hex'); }

/** A time zone Intl knows, or a 422 on `field`. */
export function checkZone(field: string, tz: string): string {
  try { new Intl.DateTimeFormat('en', { timeZone: tz }); } catch { throw invalid(field, 'unknown IANA time zone'); }
  return tz;
}

/** Sites: create, read, change, delete; theme draft and publish; preview tokens. Every write bumps the site's generation. */
export class SiteService {
  readonly store: SiteStore;
  constructor(readonly ctx: AppContext) { this.store = new SiteStore(ctx.db); }

  /** The tenant whose site holds `hostname` as a verified custom domain, or null (CDN distributions may not take another tenant's). */
  verifiedDomainTenant(hostname: string): string | null {
    const d = this.store.domain(hostname);
    return d?.verified_at ? this.store.siteById(d.site_id)?.tenant_id ?? null : null;
  }

  /** The app's change counters (one map per app, in its slots; read per Sites Delivery request). */
  private gens: Map<string, number> | null = null;

  /** The change counter of a site (0 before any write in this process). */
  generation(siteId: string): number { return (this.gens ??= this.ctx.slots.get(GENERATIONS, newGenerations)).get(siteId) ?? 0; }
  /** Marks a site changed (its cached delivery answers are rebuilt on next read). */
  bump(siteId: string): void {
    const m = this.ctx.slots.get(GENERATIONS, newGenerations);
    m.set(siteId, (m.get(siteId) ?? 0) + 1);
    this.store.touchSite(siteId, this.ctx.clock.now());
  }

  /** A site of the tenant or 404. */
  get(tenantId: string, id: string): SiteRow {
    const s = this.store.site(tenantId, id);
    if (!s) throw notFound('site');
    return s;
  }

  /** POST /v1/sites: slug unique on the appliance (409). */
  create(tenantId: string, b: typeof CreateSiteBody.static): SiteRow {
    const now = this.ctx.clock.now();
    const row = {
      id: newId(), tenant_id: tenantId, slug: b.slug, name: b.name, status: b.status ?? 'active',
      time_zone: checkZone('time_zone', b.time_zone ?? 'Asia/Jerusalem'), settings: JSON.stringify(b.settings ?? {}),
      theme_draft: '{}', theme_live: '{}', created_at: now, updated_at: now,
    };
    tx(this.ctx.db, () => {
      if (this.store.slugTaken(b.slug)) throw new AppError('conflict', `site slug "${b.slug}" is taken`);
      this.store.insertSite(row);
    });
    return { seq: 0, ...row };
  }

  /** PATCH /v1/sites/{id}: settings keys named replace the stored ones. */
  patch(tenantId: string, id: string, b: typeof PatchSiteBody.static): SiteRow {
    const s = this.get(tenantId, id);
    const settings = b.settings ? JSON.stringify({ ...parse(s.settings), ...b.settings }) : undefined;
    this.store.updateSite(s.id, {
      ...(b.name !== undefined ? { name: b.name } : {}), ...(b.status ? { status: b.status } : {}),
      ...(b.time_zone ? { time_zone: checkZone('time_zone', b.time_zone) } : {}), ...(settings ? { settings } : {}),
    }, this.ctx.clock.now());
    this.bump(s.id);
    return this.get(tenantId, id);
  }

  /** DELETE /v1/sites/{id}: the site and everything of it. */
  remove(tenantId: string, id: string): void { const s = this.get(tenantId, id); this.store.deleteSite(s.id); this.bump(s.id); }

  /** PUT /v1/sites/{id}/theme: replaces the draft theme's keys given. */
  setTheme(tenantId: string, id: string, b: typeof ThemeBody.static): Record<string, unknown> {
    const s = this.get(tenantId, id);
    const draft = { ...parse(s.theme_draft), ...(b.tokens ? { tokens: b.tokens } : {}), ...(b.css !== undefined ? { css: b.css } : {}) };
    this.store.updateSite(s.id, { theme_draft: JSON.stringify(draft) }, this.ctx.clock.now());
    this.bump(s.id);
    return this.themeView(this.get(tenantId, id));
  }

  /** POST /v1/sites/{id}/theme/publish: the draft theme goes live. */
  publishTheme(tenantId: string, id: string): Record<string, unknown> {
    const s = this.get(tenantId, id);
    this.store.updateSite(s.id, { theme_live: s.theme_draft }, this.ctx.clock.now());
    this.bump(s.id);
    return this.themeView(this.get(tenantId, id));
  }

  /** The theme as answered: draft and live. */
  themeView(s: SiteRow): Record<string, unknown> { return { draft: parse(s.theme_draft), live: parse(s.theme_live) }; }

  /** A site as answered. */
  view(s: SiteRow): Record<string, unknown> {
    return {
      id: s.id, slug: s.slug, name: s.name, status: s.status, time_zone: s.time_zone, settings: parse(s.settings),
      theme: this.themeView(s), domains: this.store.domains(s.id).map((d) => ({ hostname: d.hostname, verified: d.verified_at !== null })),
      delivery_url: `${this.ctx.config.baseUrl}/s/v1/${s.slug}`, created_at: iso(s.created_at), updated_at: iso(s.updated_at),
    };
  }

  /** POST /v1/sites/{id}/preview-tokens: a token (shown once) that opens drafts of the site (or one page) until it expires. */
  createPreview(tenantId: string, id: string, b: typeof PreviewBody.static): Record<string, unknown> {
    const s = this.get(tenantId, id);
    if (b.page_id && !this.store.page(s.id, b.page_id)) throw notFound('page');
    const token = `vsp_${randomToken(24)}`;
    const now = this.ctx.clock.now();
    const row = { hash: sha256(token), id: newId(), site_id: s.id, page_id: b.page_id ?? null, expires_at: now + (b.ttl_s ?? 3600) * 1000, created_at: now };
    this.store.dropExpiredPreviews(now);
    this.store.insertPreview(row);
    return { id: row.id, token, page_id: row.page_id, expires_at: iso(row.expires_at) };
  }

  /** DELETE /v1/sites/{id}/preview-tokens/{token_id}. */
  revokePreview(tenantId: string, id: string, tokenId: string): void {
    const s = this.get(tenantId, id);
    if (!this.store.deletePreview(s.id, tokenId)) throw notFound('preview token');
  }

  /** True when `token` opens drafts of `pageId` (or of every page) of the site now. */
  previewValid(siteId: string, token: string, pageId: string | null): boolean {
    if (!/^vsp_[A-Za-z0-9_-]{20,64}$/.test(token)) return false;
    const r = this.store.preview(sha256(token));
    return !!r && r.site_id === siteId && r.expires_at > this.ctx.clock.now() && (r.page_id === null || pageId === null || r.page_id === pageId);
  }
}
