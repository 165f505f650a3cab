import type { Principal } from '../../kernel/http/auth';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId, randomToken } from '../../kernel/ids';
import { tx } from '../../kernel/db/sqlite';
import { parse, type SiteService } from './service';
import type { PageRow } from './store';
import type { CreatePageBody, PageDoc, PatchPageBody } from './model';

/** A page document. */
export type Doc = typeof PageDoc.static;
/** A pending scheduled change of a page. */
export interface Schedule { action: 'publish' | 'unpublish'; at: number; doc?: Doc }
/** A pending review request of a page's draft: who asked (person or key id; a person's name) and when. */
export interface Review { by: string; name: string | null; at: number }

/** Sections keep their ids; new ones get a short random id. */
function withIds(sections: Doc['sections'] | undefined): Doc['sections'] {
  return (sections ?? []).map((s) => ({ ...s, id: s.id ?? `s_${randomToken(6)}` }));
}

/** Pages: drafts, publish and unpublish (now or scheduled), versions and rollback. */
export class PageService {
  constructor(private sites: SiteService) {}
  private get store() { return this.sites.store; }
  private now() { return this.sites.ctx.clock.now(); }

  /** A page of a site of the tenant (scheduled changes that are due applied first) or 404. */
  get(tenantId: string, siteId: string, pageId: string): PageRow {
    const s = this.sites.get(tenantId, siteId);
    const p = this.store.page(s.id, pageId);
    if (!p) throw notFound('page');
    return this.settle(p);
  }

  /** Applies a scheduled change whose time has come (on read: no clock worker is needed for correctness). */
  settle(p: PageRow): PageRow {
    const sc = p.schedule ? parse<Schedule>(p.schedule) : null;
    if (!sc || sc.at > this.now()) return p;
    tx(this.sites.ctx.db, () => {
      const cur = this.store.page(p.site_id, p.id);
      if (!cur || cur.schedule !== p.schedule) return;
      if (sc.action === 'publish') this.goLive(cur, sc.doc ?? parse<Doc>(cur.draft), null, sc.at);
      else this.store.updatePage(cur.id, { live: null, live_version: null, schedule: null }, sc.at);
    });
    this.sites.bump(p.site_id);
    return this.store.page(p.site_id, p.id) ?? p;
  }

  private assertPathFree(siteId: string, path: string, exceptId: string | null): void {
    const other = this.store.pageByPath(siteId, path);
    if ((other && other.id !== exceptId) || this.store.routePathTaken(siteId, path)) throw new AppError('conflict', `path "${path}" is taken on this site`);
  }

  /** POST /v1/sites/{id}/pages: a page at a path, or the template page of an entity type (exactly one of them). */
  create(tenantId: string, siteId: string, b: typeof CreatePageBody.static): PageRow {
    const s = this.sites.get(tenantId, siteId);
    if (!!b.path === !!b.template_for) throw invalid(b.path ? 'template_for' : 'path', 'give exactly one of path and template_for');
    const now = this.now();
    const draft: Doc = { title: b.title, ...(b.description ? { description: b.description } : {}), ...(b.seo ? { seo: b.seo } : {}), sections: withIds(b.sections) };
    const row = { id: newId(), site_id: s.id, path: b.path ?? null, template_for: b.template_for ?? null, draft: JSON.stringify(draft), live: null, live_version: null, versions: 0, schedule: null, review: null, created_at: now, updated_at: now };
    tx(this.sites.ctx.db, () => {
      if (b.path) this.assertPathFree(s.id, b.path, null);
      if (b.template_for && this.store.pageByTemplate(s.id, b.template_for)) throw new AppError('conflict', `a template page for "${b.template_for}" exists`);
      this.store.insertPage(row);
    });
    this.sites.bump(s.id);
    return { seq: 0, ...row };
  }

  /** PATCH: edits the draft (live stays until publish); `path` moves the page at once. */
  patch(tenantId: string, siteId: string, pageId: string, b: typeof PatchPageBody.static): PageRow {
    const p = this.get(tenantId, siteId, pageId);
    const d = parse<Doc>(p.draft);
    const draft: Doc = {
      ...d, ...(b.title !== undefined ? { title: b.title } : {}), ...(b.description !== undefined ? { description: b.description } : {}),
      ...(b.seo !== undefined ? { seo: b.seo } : {}), ...(b.sections !== undefined ? { sections: withIds(b.sections) } : {}),
    };
    tx(this.sites.ctx.db, () => {
      if (b.path !== undefined && b.path !== p.path) {
        if (p.template_for) throw invalid('path', 'a template page has no path');
        this.assertPathFree(p.site_id, b.path, p.id);
      }
      // A changed draft is not the one sent for review: the request is withdrawn.
      const changed = JSON.stringify(draft) !== p.draft;
      this.store.updatePage(p.id, { draft: JSON.stringify(draft), ...(changed ? { review: null } : {}), ...(b.path !== undefined && !p.template_for ? { path: b.path } : {}) }, this.now());
    });
    this.sites.bump(p.site_id);
    return this.store.page(p.site_id, p.id)!;
  }

  private goLive(p: PageRow, doc: Doc, actor: string | null, at: number): void {
    const v = p.versions + 1;
    const json = JSON.stringify(doc);
    this.store.insertVersion(p.id, v, json, actor, at);
    this.store.updatePage(p.id, { live: json, live_version: v, versions: v, schedule: null, review: null }, at);
  }

  /** POST .../publish: the draft goes live now (a new version), or at `at` (the draft as it is now; replaces a pending change). */
  publish(tenantId: string, siteId: string, pageId: string, at: string | undefined, by: Principal): PageRow {
    return this.change(tenantId, siteId, pageId, 'publish', at, by);
  }
  /** POST .../unpublish: the page leaves the public site now or at `at`. */
  unpublish(tenantId: string, siteId: string, pageId: string, at: string | undefined, by: Principal): PageRow {
    return this.change(tenantId, siteId, pageId, 'unpublish', at, by);
  }

  private change(tenantId: string, siteId: string, pageId: string, action: Schedule['action'], at: string | undefined, by: Principal): PageRow {
    const p = this.get(tenantId, siteId, pageId);
    const now = this.now();
    const when = at === undefined ? now : Date.parse(at);
    if (!Number.isFinite(when)) throw invalid('at', 'RFC 3339 date-time');
    tx(this.sites.ctx.db, () => {
      const cur = this.store.page(p.site_id, p.id)!;
      if (when > now) {
        const sc: Schedule = action === 'publish' ? { action, at: when, doc: parse<Doc>(cur.draft) } : { action, at: when };
        this.store.updatePage(cur.id, { schedule: JSON.stringify(sc) }, now);
      } else if (action === 'publish') this.goLive(cur, parse<Doc>(cur.draft), by.keyId, now);
      else this.store.updatePage(cur.id, { live: null, live_version: null, schedule: null }, now);
    });
    this.sites.bump(p.site_id);
    return this.store.page(p.site_id, p.id)!;
  }

  /** POST .../review: the draft as it is now is sent for review (a publisher publishes it); replaces an earlier request. */
  requestReview(tenantId: string, siteId: string, pageId: string, by: Principal): PageRow {
    const p = this.get(tenantId, siteId, pageId);
    const r: Review = { by: by.userId ?? by.keyId, name: by.session ? by.session.user.name || by.session.user.email : null, at: this.now() };
    this.store.updatePage(p.id, { review: JSON.stringify(r) }, this.now());
    return this.store.page(p.site_id, p.id)!;
  }

  /** DELETE .../review: the review request is withdrawn (or declined). */
  withdrawReview(tenantId: string, siteId: string, pageId: string): PageRow {
    const p = this.get(tenantId, siteId, pageId);
    this.store.updatePage(p.id, { review: null }, this.now());
    return this.store.page(p.site_id, p.id)!;
  }

  /** DELETE .../schedule: drops the pending change. */
  cancelSchedule(tenantId: string, siteId: string, pageId: string): PageRow {
    const p = this.get(tenantId, siteId, pageId);
    this.store.updatePage(p.id, { schedule: null }, this.now());
    this.sites.bump(p.site_id);
    return this.store.page(p.site_id, p.id)!;
  }

  /** GET .../versions: published versions, newest first. */
  history(tenantId: string, siteId: string, pageId: string) {
    const p = this.get(tenantId, siteId, pageId);
    return { items: this.store.versions(p.id).map((v) => ({ version: v.version, published_at: iso(v.created_at), by: v.actor, live: v.version === p.live_version })) };
  }

  /** POST .../rollback: version `v` goes live again as a new version, and becomes the draft. */
  rollback(tenantId: string, siteId: string, pageId: string, v: number, by: Principal): PageRow {
    const p = this.get(tenantId, siteId, pageId);
    const doc = this.store.version(p.id, v);
    if (!doc) throw notFound(`page version ${v}`);
    tx(this.sites.ctx.db, () => {
      const cur = this.store.page(p.site_id, p.id)!;
      this.goLive(cur, JSON.parse(doc) as Doc, by.keyId, this.now());
      this.store.updatePage(cur.id, { draft: doc }, this.now());
    });
    this.sites.bump(p.site_id);
    return this.store.page(p.site_id, p.id)!;
  }

  /** DELETE a page. */
  remove(tenantId: string, siteId: string, pageId: string): void {
    const p = this.get(tenantId, siteId, pageId);
    this.store.deletePage(p.id);
    this.sites.bump(p.site_id);
  }

  /** A page as answered (management). */
  view(p: PageRow): Record<string, unknown> {
    const sc = p.schedule ? parse<Schedule>(p.schedule) : null;
    const rv = p.review ? parse<Review>(p.review) : null;
    return {
      id: p.id, path: p.path, template_for: p.template_for, draft: parse(p.draft), live: p.live ? parse(p.live) : null,
      live_version: p.live_version, status: p.live ? 'published' : 'draft',
      schedule: sc ? { action: sc.action, at: iso(sc.at) } : null, review: rv ? { requested_by: rv.by, requested_by_name: rv.name ?? null, requested_at: iso(rv.at) } : null, created_at: iso(p.created_at), updated_at: iso(p.updated_at),
    };
  }
}
