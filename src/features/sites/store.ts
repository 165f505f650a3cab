import type { Db } from '../../kernel/db/sqlite';

/** A site row. */
export interface SiteRow {
  seq: number; id: string; tenant_id: string; slug: string; name: string; status: string; time_zone: string;
  settings: string; theme_draft: string; theme_live: string; created_at: number; updated_at: number;
}
/** A custom domain of a site. */
export interface DomainRow { hostname: string; site_id: string; token: string; verified_at: number | null; method: string | null; created_at: number }
/** A page row (draft and live documents as JSON). */
export interface PageRow {
  seq: number; id: string; site_id: string; path: string | null; template_for: string | null; draft: string; live: string | null;
  live_version: number | null; versions: number; schedule: string | null; review: string | null; created_at: number; updated_at: number;
}
/** A show, person or menu (`kind`), its document and (menus) the live copy. */
export interface ItemRow { seq: number; id: string; site_id: string; kind: string; slug: string; data: string; live: string | null; created_at: number; updated_at: number }
/** A route table entry or redirect. */
export interface RouteRow { seq: number; id: string; site_id: string; kind: string; path: string; target: string; created_at: number }
/** A preview token (hashed). */
export interface PreviewRow { hash: string; id: string; site_id: string; page_id: string | null; expires_at: number; created_at: number }

function insert(db: Db, table: string, row: Record<string, unknown>): void {
  const cols = Object.keys(row);
  db.query(`INSERT INTO ${table} (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`).run(...(Object.values(row) as never[]));
}

/** The only place the sites feature's SQL lives. */
export class SiteStore {
  constructor(readonly db: Db) {}

  insertSite(r: Omit<SiteRow, 'seq'>): void { insert(this.db, 'sites', r); }
  site(tenantId: string, id: string): SiteRow | null {
    return this.db.query<SiteRow, [string, string]>('SELECT * FROM sites WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }
  siteById(id: string): SiteRow | null { return this.db.query<SiteRow, [string]>('SELECT * FROM sites WHERE id = ?').get(id); }
  siteBySlug(slug: string): SiteRow | null { return this.db.query<SiteRow, [string]>('SELECT * FROM sites WHERE slug = ?').get(slug); }
  slugTaken(slug: string): boolean { return !!this.db.query('SELECT 1 FROM sites WHERE slug = ?').get(slug); }
  sites(tenantId: string, afterSeq: number, limit: number): SiteRow[] {
    return this.db.query<SiteRow, [string, number, number]>('SELECT * FROM sites WHERE tenant_id = ? AND seq > ? ORDER BY seq LIMIT ?').all(tenantId, afterSeq, limit + 1);
  }
  firstSiteOfTenant(tenantId: string): SiteRow | null {
    return this.db.query<SiteRow, [string]>("SELECT * FROM sites WHERE tenant_id = ? AND status = 'active' ORDER BY seq LIMIT 1").get(tenantId);
  }
  updateSite(id: string, f: Partial<Pick<SiteRow, 'name' | 'status' | 'time_zone' | 'settings' | 'theme_draft' | 'theme_live'>>, now: number): void {
    const cols = Object.keys(f);
    this.db.query(`UPDATE sites SET ${cols.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`).run(...(Object.values(f) as never[]), now, id);
  }
  touchSite(id: string, now: number): void { this.db.query('UPDATE sites SET updated_at = ? WHERE id = ?').run(now, id); }
  deleteSite(id: string): void { this.db.query('DELETE FROM sites WHERE id = ?').run(id); }

  insertDomain(r: DomainRow): void { insert(this.db, 'site_domains', r as unknown as Record<string, unknown>); }
  domain(hostname: string): DomainRow | null { return this.db.query<DomainRow, [string]>('SELECT * FROM site_domains WHERE hostname = ?').get(hostname); }
  domains(siteId: string): DomainRow[] { return this.db.query<DomainRow, [string]>('SELECT * FROM site_domains WHERE site_id = ? ORDER BY created_at, hostname').all(siteId); }
  verifyDomain(hostname: string, method: string, now: number): void {
    this.db.query('UPDATE site_domains SET verified_at = ?, method = ? WHERE hostname = ?').run(now, method, hostname);
  }
  deleteDomain(hostname: string): void { this.db.query('DELETE FROM site_domains WHERE hostname = ?').run(hostname); }

  insertPage(r: Omit<PageRow, 'seq'>): void { insert(this.db, 'site_pages', r); }
  page(siteId: string, id: string): PageRow | null { return this.db.query<PageRow, [string, string]>('SELECT * FROM site_pages WHERE site_id = ? AND id = ?').get(siteId, id); }
  pageByPath(siteId: string, path: string): PageRow | null { return this.db.query<PageRow, [string, string]>('SELECT * FROM site_pages WHERE site_id = ? AND path = ?').get(siteId, path); }
  pageByTemplate(siteId: string, type: string): PageRow | null {
    return this.db.query<PageRow, [string, string]>('SELECT * FROM site_pages WHERE site_id = ? AND template_for = ?').get(siteId, type);
  }
  pages(siteId: string): PageRow[] { return this.db.query<PageRow, [string]>('SELECT * FROM site_pages WHERE site_id = ? ORDER BY seq').all(siteId); }
  updatePage(id: string, f: Partial<Pick<PageRow, 'path' | 'draft' | 'live' | 'live_version' | 'versions' | 'schedule' | 'review'>>, now: number): void {
    const cols = Object.keys(f);
    this.db.query(`UPDATE site_pages SET ${cols.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`).run(...(Object.values(f) as never[]), now, id);
  }
  deletePage(id: string): void { this.db.query('DELETE FROM site_pages WHERE id = ?').run(id); }
  insertVersion(pageId: string, version: number, doc: string, actor: string | null, now: number): void {
    this.db.query('INSERT INTO site_page_versions (page_id, version, doc, actor, created_at) VALUES (?, ?, ?, ?, ?)').run(pageId, version, doc, actor, now);
  }
  versions(pageId: string): { version: number; actor: string | null; created_at: number }[] {
    return this.db.query<{ version: number; actor: string | null; created_at: number }, [string]>('SELECT version, actor, created_at FROM site_page_versions WHERE page_id = ? ORDER BY version DESC').all(pageId);
  }
  version(pageId: string, v: number): string | null {
    return this.db.query<{ doc: string }, [string, number]>('SELECT doc FROM site_page_versions WHERE page_id = ? AND version = ?').get(pageId, v)?.doc ?? null;
  }

  insertItem(r: Omit<ItemRow, 'seq'>): void { insert(this.db, 'site_items', r); }
  item(siteId: string, kind: string, idOrSlug: string): ItemRow | null {
    return this.db.query<ItemRow, [string, string, string, string]>('SELECT * FROM site_items WHERE site_id = ? AND kind = ? AND (id = ? OR slug = ?)').get(siteId, kind, idOrSlug, idOrSlug);
  }
  items(siteId: string, kind: string): ItemRow[] { return this.db.query<ItemRow, [string, string]>('SELECT * FROM site_items WHERE site_id = ? AND kind = ? ORDER BY seq').all(siteId, kind); }
  itemSlugTaken(siteId: string, kind: string, slug: string, exceptId: string): boolean {
    return !!this.db.query('SELECT 1 FROM site_items WHERE site_id = ? AND kind = ? AND slug = ? AND id <> ?').get(siteId, kind, slug, exceptId);
  }
  updateItem(id: string, f: Partial<Pick<ItemRow, 'slug' | 'data' | 'live'>>, now: number): void {
    const cols = Object.keys(f);
    this.db.query(`UPDATE site_items SET ${cols.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`).run(...(Object.values(f) as never[]), now, id);
  }
  deleteItem(id: string): void { this.db.query('DELETE FROM site_items WHERE id = ?').run(id); }

  insertRoute(r: Omit<RouteRow, 'seq'>): void { insert(this.db, 'site_routes', r); }
  routes(siteId: string): RouteRow[] { return this.db.query<RouteRow, [string]>('SELECT * FROM site_routes WHERE site_id = ? ORDER BY seq').all(siteId); }
  route(siteId: string, id: string): RouteRow | null { return this.db.query<RouteRow, [string, string]>('SELECT * FROM site_routes WHERE site_id = ? AND id = ?').get(siteId, id); }
  routePathTaken(siteId: string, path: string): boolean { return !!this.db.query('SELECT 1 FROM site_routes WHERE site_id = ? AND path = ?').get(siteId, path); }
  deleteRoute(id: string): void { this.db.query('DELETE FROM site_routes WHERE id = ?').run(id); }

  insertPreview(r: PreviewRow): void { insert(this.db, 'site_preview_tokens', r as unknown as Record<string, unknown>); }
  preview(hash: string): PreviewRow | null { return this.db.query<PreviewRow, [string]>('SELECT * FROM site_preview_tokens WHERE hash = ?').get(hash); }
  deletePreview(siteId: string, id: string): boolean { return this.db.query('DELETE FROM site_preview_tokens WHERE site_id = ? AND id = ?').run(siteId, id).changes > 0; }
  dropExpiredPreviews(now: number): void { this.db.query('DELETE FROM site_preview_tokens WHERE expires_at <= ?').run(now); }
}
