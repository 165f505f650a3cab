import type { Principal } from '../../kernel/http/auth';
import { requireScope } from '../../kernel/http/auth';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId } from '../../kernel/ids';
import { tx } from '../../kernel/db/sqlite';
import { parse, type SiteService } from './service';
import type { ItemRow, RouteRow } from './store';
import type { RouteBody } from './model';

/** The kinds kept as site items. */
export type ItemKind = 'show' | 'person';

/** Shows, people, menus and the route table of a site. */
export class ContentService {
  constructor(private sites: SiteService) {}
  private get store() { return this.sites.store; }
  private now() { return this.sites.ctx.clock.now(); }

  /** A show or person of the site or 404. */
  item(tenantId: string, siteId: string, kind: ItemKind, idOrSlug: string): ItemRow {
    const s = this.sites.get(tenantId, siteId);
    const r = this.store.item(s.id, kind, idOrSlug);
    if (!r) throw notFound(kind);
    return r;
  }

  /** Creates a show or person; a slug clash is 409; `published: true` needs sites:publish. */
  createItem(p: Principal, siteId: string, kind: ItemKind, body: { slug: string; published?: boolean } & Record<string, unknown>): ItemRow {
    if (body.published !== undefined) requireScope(p, 'sites:publish');
    const s = this.sites.get(p.tenantId, siteId);
    const now = this.now();
    const row = { id: newId(), site_id: s.id, kind, slug: body.slug, data: JSON.stringify({ ...body, published: body.published ?? false }), live: null, created_at: now, updated_at: now };
    tx(this.sites.ctx.db, () => {
      if (this.store.item(s.id, kind, body.slug)) throw new AppError('conflict', `${kind} slug "${body.slug}" is taken on this site`);
      this.store.insertItem(row);
    });
    this.sites.bump(s.id);
    return { seq: 0, ...row };
  }

  /** Changes the fields given. */
  patchItem(p: Principal, siteId: string, kind: ItemKind, idOrSlug: string, body: Record<string, unknown>): ItemRow {
    if (body.published !== undefined) requireScope(p, 'sites:publish');
    const cur = this.item(p.tenantId, siteId, kind, idOrSlug);
    const data = { ...parse(cur.data), ...body };
    tx(this.sites.ctx.db, () => {
      if (typeof body.slug === 'string' && this.store.itemSlugTaken(cur.site_id, kind, body.slug, cur.id)) throw new AppError('conflict', `${kind} slug "${body.slug}" is taken on this site`);
      this.store.updateItem(cur.id, { data: JSON.stringify(data), slug: String(data.slug) }, this.now());
    });
    this.sites.bump(cur.site_id);
    return this.store.item(cur.site_id, kind, cur.id)!;
  }

  /** Deletes a show or person. */
  removeItem(tenantId: string, siteId: string, kind: ItemKind, idOrSlug: string): void {
    const cur = this.item(tenantId, siteId, kind, idOrSlug);
    this.store.deleteItem(cur.id);
    this.sites.bump(cur.site_id);
  }

  /** A show or person as answered. */
  itemView(r: ItemRow): Record<string, unknown> {
    return { id: r.id, ...parse(r.data), slug: r.slug, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
  }

  /** PUT .../menus/{name}: the draft of a menu (created on first put). */
  putMenu(tenantId: string, siteId: string, name: string, items: unknown[]): Record<string, unknown> {
    const s = this.sites.get(tenantId, siteId);
    const now = this.now();
    const cur = this.store.item(s.id, 'menu', name);
    if (cur) this.store.updateItem(cur.id, { data: JSON.stringify(items) }, now);
    else this.store.insertItem({ id: newId(), site_id: s.id, kind: 'menu', slug: name, data: JSON.stringify(items), live: null, created_at: now, updated_at: now });
    this.sites.bump(s.id);
    return this.menuView(this.store.item(s.id, 'menu', name)!);
  }

  /** POST .../menus/{name}/publish: the draft goes live. */
  publishMenu(tenantId: string, siteId: string, name: string): Record<string, unknown> {
    const s = this.sites.get(tenantId, siteId);
    const cur = this.store.item(s.id, 'menu', name);
    if (!cur) throw notFound('menu');
    this.store.updateItem(cur.id, { live: cur.data }, this.now());
    this.sites.bump(s.id);
    return this.menuView(this.store.item(s.id, 'menu', name)!);
  }

  /** A menu as answered (draft and live items). */
  menuView(r: ItemRow): Record<string, unknown> {
    return { name: r.slug, draft: parse<unknown[]>(r.data), live: r.live ? parse<unknown[]>(r.live) : null, updated_at: iso(r.updated_at) };
  }

  /** POST .../routes: a path answered by a page (`:param` segments allowed) or a redirect; a path in use is 409. */
  addRoute(tenantId: string, siteId: string, b: typeof RouteBody.static): RouteRow {
    const s = this.sites.get(tenantId, siteId);
    if (b.kind === 'route' && (!b.page_id || !this.store.page(s.id, b.page_id))) throw invalid('page_id', 'a page of this site');
    if (b.kind === 'redirect' && !b.location) throw invalid('location', 'required for a redirect');
    if (b.kind === 'redirect' && !/^(\/(?!\/)|https?:\/\/)/.test(b.location!)) throw invalid('location', 'a site path or an http(s) URL');
    const target = b.kind === 'route' ? { page_id: b.page_id } : { location: b.location, status: b.status ?? 301 };
    const row = { id: newId(), site_id: s.id, kind: b.kind, path: b.path, target: JSON.stringify(target), created_at: this.now() };
    tx(this.sites.ctx.db, () => {
      if (this.store.routePathTaken(s.id, b.path) || this.store.pageByPath(s.id, b.path)) throw new AppError('conflict', `path "${b.path}" is taken on this site`);
      this.store.insertRoute(row);
    });
    this.sites.bump(s.id);
    return { seq: 0, ...row };
  }

  /** DELETE .../routes/{route_id}. */
  removeRoute(tenantId: string, siteId: string, routeId: string): void {
    const s = this.sites.get(tenantId, siteId);
    if (!this.store.route(s.id, routeId)) throw notFound('route');
    this.store.deleteRoute(routeId);
    this.sites.bump(s.id);
  }

  /** A route as answered. */
  routeView(r: RouteRow): Record<string, unknown> { return { id: r.id, kind: r.kind, path: r.path, ...parse(r.target), created_at: iso(r.created_at) }; }
}
