import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { slotKey } from '../../kernel/slots';
import { identityService } from '../identity/service';
import { offersCatchup } from './catalogue';
import { entity, itemOf, publishedShows, scopeOf, type Scope } from './items';
import { epgDay, resolveSection } from './sections';
import { decodeCursor, encodeCursor, SearchIndex, type SearchDoc } from './search';
import { parse, SiteService } from './service';
import type { Doc, Schedule } from './pages';
import { PageService } from './pages';
import type { PageRow, SiteRow } from './store';
import { ITEM_TYPES, type ItemType } from './model';

type Json = Record<string, unknown>;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const INDEXES = slotKey<Map<string, { key: string; index: SearchIndex }>>('sites.search');
const TENANT_SLUGS = slotKey<Map<string, string>>('sites.tenant-slugs');
const SITE_ROWS = slotKey<Map<string, { row: SiteRow; gen: number; at: number }>>('sites.rows');

/** Built-in paths and the entity type each names. */
const BUILTIN: Record<string, ItemType | 'podcast' | 'category'> = { show: 'show', podcast: 'podcast', v: 'video', c: 'clip', p: 'programme', live: 'channel', person: 'person', category: 'category' };

/** A path from `?path=`: starts with `/`, at most 2048 characters, no control characters; trailing slashes dropped. */
export function normalisePath(raw: string | null | undefined): string {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.length > 2048 || /[\u0000-\u001f\u007f\\]/.test(raw)) throw invalid('path', 'a site path starting with /');
  const p = raw.split(/[?#]/)[0]!.replace(/\/{2,}/g, '/');
  return p.length > 1 ? p.replace(/\/+$/, '') || '/' : p;
}

/** Matches a route-table pattern (`/news/:slug`) against a path; the parameters or null. */
function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const a = pattern.split('/'), b = path.split('/');
  if (a.length !== b.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.startsWith(':') && b[i]) out[a[i]!.slice(1)] = b[i]!;
    else if (a[i] !== b[i]) return null;
  }
  return out;
}

/** The Sites Delivery reads (everything public: only published content unless a valid preview token is given). */
export class SiteDelivery {
  readonly sites: SiteService;
  readonly pages: PageService;
  constructor(readonly ctx: AppContext) { this.sites = new SiteService(ctx); this.pages = new PageService(this.sites); }

  /** An active site by slug; unknown, malformed or suspended answers 404. */
  site(slug: string): SiteRow {
    // Rows are kept per slug while their site's generation is unchanged (every write bumps it), at most a second.
    const m = this.ctx.slots.get(SITE_ROWS, () => new Map());
    const now = this.ctx.clock.now();
    const c = m.get(slug);
    let s: SiteRow | null;
    if (c && c.gen === this.sites.generation(c.row.id) && now - c.at < 1000 && now >= c.at) s = c.row;
    else {
      s = SLUG.test(slug) ? this.sites.store.siteBySlug(slug) : null;
      if (s) { if (m.size > 1000) m.clear(); m.set(slug, { row: s, gen: this.sites.generation(s.id), at: now }); }
    }
    if (!s || s.status !== 'active') throw notFound('site');
    return s;
  }

  /** The read scope of a site (catalogue snapshot, time). */
  scope(site: SiteRow): Scope {
    const m = this.ctx.slots.get(TENANT_SLUGS, () => new Map<string, string>());
    let slug = m.get(site.tenant_id);
    if (!slug) { slug = identityService(this.ctx).tenant(site.tenant_id).slug as string; m.set(site.tenant_id, slug); }
    return scopeOf(this.ctx, site, slug, this.sites.store);
  }

  /** GET /config. */
  config(s: Scope): Json {
    const st = parse<Json & { player?: Json; seo?: Json }>(s.site.settings);
    const menus = Object.fromEntries(this.sites.store.items(s.site.id, 'menu').filter((m) => m.live).map((m) => [m.slug, parse<unknown[]>(m.live)]));
    const cdnHost = new URL(this.ctx.config.cdnBaseUrl).host;
    return {
      site: s.site.slug, name: s.site.name, time_zone: s.site.time_zone, language: st.language ?? 'he', theme: parse(s.site.theme_live), menus,
      dictionary: st.dictionary ?? {}, scripts: st.scripts ?? [], consent: st.consent ?? {}, accessibility: st.accessibility ?? {}, seo: st.seo ?? {},
      player: { tenant: s.tenantSlug, config: 'default', cdn_hostname: cdnHost, ...(st.player ?? {}) },
      guide: st.guide ?? {}, ai_crawler_mode: st.ai_crawler_mode ?? 'allow',
    };
  }

  /** GET /route?path=: redirects, page paths, the route table, then the built-in paths. */
  route(s: Scope, raw: string | undefined): Json {
    const path = normalisePath(raw);
    const routes = this.sites.store.routes(s.site.id);
    const redirect = routes.find((r) => r.kind === 'redirect' && r.path === path);
    if (redirect) return { kind: 'redirect', redirect: parse(redirect.target) };
    const page = this.sites.store.pageByPath(s.site.id, path);
    if (page && this.pages.settle(page).live) return { kind: 'page', page_id: page.id };
    for (const r of routes) {
      if (r.kind !== 'route') continue;
      const params = matchPattern(r.path, path);
      const target = parse<{ page_id: string }>(r.target);
      const pg = params && this.sites.store.page(s.site.id, target.page_id);
      if (pg && this.pages.settle(pg).live) return { kind: 'page', page_id: pg.id, params };
    }
    const seg = path.split('/').filter(Boolean).map((x) => { try { return decodeURIComponent(x); } catch { return x; } });
    if (seg.length === 1 && (seg[0] === 'search' || seg[0] === 'epg')) return this.template(s, seg[0]!, null);
    if (seg.length === 2 && BUILTIN[seg[0]!]) {
      const t = BUILTIN[seg[0]!]!;
      const type: ItemType = t === 'podcast' ? 'show' : t === 'category' ? 'show' : t;
      if (t === 'category') return this.template(s, 'category', { type: 'category', slug: seg[1]! });
      const item = itemOf(s, type, seg[1]!);
      if (item && (t !== 'podcast' || (this.sites.store.item(s.site.id, 'show', seg[1]!) && parse<{ podcast?: { enabled?: boolean } }>(this.sites.store.item(s.site.id, 'show', seg[1]!)!.data).podcast?.enabled))) {
        return this.template(s, t, { type, slug: seg[1]! });
      }
    }
    return { kind: 'not_found' };
  }

  private template(s: Scope, kind: string, ent: { type: string; slug: string } | null): Json {
    const pg = this.sites.store.pageByTemplate(s.site.id, kind);
    const live = pg && this.pages.settle(pg).live ? pg.id : null;
    return { kind: 'template', template_for: kind, ...(live ? { page_id: live } : {}), ...(ent ? { entity: ent } : {}) };
  }

  /** A page's document to show: the live one, or the draft with a valid preview token (403 when the token is not). */
  pageDoc(s: Scope, id: string, preview: string | undefined): { page: PageRow; doc: Doc; preview: boolean; changeAt: number | null } {
    const row = id.length <= 64 ? this.sites.store.page(s.site.id, id) : null;
    if (!row) throw notFound('page');
    const page = this.pages.settle(row);
    if (preview !== undefined) {
      if (!this.sites.previewValid(s.site.id, preview, page.id)) throw new AppError('forbidden', 'preview token invalid or expired');
      return { page, doc: parse<Doc>(page.draft), preview: true, changeAt: null };
    }
    if (!page.live) throw notFound('page');
    const sc = page.schedule ? parse<Schedule>(page.schedule) : null;
    return { page, doc: parse<Doc>(page.live), preview: false, changeAt: sc?.at ?? null };
  }

  /** GET /pages/{id}: the first `n` sections resolved, `next_cursor` for the rest, the entity for templates. */
  page(s: Scope, id: string, q: { sections?: string; entity?: string; preview?: string }): { body: Json; preview: boolean; changeAt: number | null; tags: string[] } {
    const n = q.sections === undefined ? 6 : Number(q.sections);
    if (!Number.isInteger(n) || n < 0 || n > 50) throw invalid('sections', 'integer 0-50');
    const { page, doc, preview, changeAt } = this.pageDoc(s, id, q.preview);
    const tags: string[] = [];
    let ent: Json | null = null;
    if (q.entity !== undefined) {
      const m = /^([a-z]+):(.{1,200})$/s.exec(q.entity);
      if (!m || !(ITEM_TYPES as readonly string[]).includes(m[1]!)) throw invalid('entity', '<type>:<slug> with a known type');
      ent = entity(s, m[1] as ItemType, m[2]!);
      if (!ent) throw notFound('entity');
      tags.push(`${m[1]}-${m[2]}`);
    }
    const sections = doc.sections.slice(0, n).map((x) => resolveSection(s, x));
    const next = doc.sections.length > n ? encodeCursor(page.id, String(page.live_version ?? 0), n) : null;
    return {
      body: { id: page.id, path: page.path, template_for: page.template_for, version: preview ? null : page.live_version, preview, title: doc.title, description: doc.description ?? '', seo: doc.seo ?? {}, sections, next_cursor: next, ...(ent ? { entity: ent } : {}) },
      preview, changeAt, tags,
    };
  }

  /** GET /pages/{id}/sections?cursor=&count=: the following sections. */
  sections(s: Scope, id: string, q: { cursor?: string; count?: string; preview?: string }): { body: Json; preview: boolean; changeAt: number | null } {
    const { page, doc, preview, changeAt } = this.pageDoc(s, id, q.preview);
    const count = q.count === undefined ? 6 : Number(q.count);
    if (!Number.isInteger(count) || count < 1 || count > 50) throw invalid('count', 'integer 1-50');
    const from = decodeCursor(q.cursor, page.id, String(page.live_version ?? 0));
    const out = doc.sections.slice(from, from + count).map((x) => resolveSection(s, x));
    const next = doc.sections.length > from + count ? encodeCursor(page.id, String(page.live_version ?? 0), from + count) : null;
    return { body: { page_id: page.id, sections: out, next_cursor: next }, preview, changeAt };
  }

  /** GET /entities/{type}/{slug}. */
  entity(s: Scope, type: string, slug: string): Json {
    if (!(ITEM_TYPES as readonly string[]).includes(type)) throw notFound('entity type');
    const e = slug.length <= 200 ? entity(s, type as ItemType, slug) : null;
    if (!e) throw notFound(type);
    return e;
  }

  /** GET /epg?channel=&day=. */
  epg(s: Scope, channel: string | undefined, day: string | undefined): Json {
    const slug = channel ?? s.cat.channels[0]?.slug;
    if (!slug || !SLUG.test(slug)) throw notFound('channel');
    return epgDay(s, slug, day);
  }

  /** The site's search index (brought up to date, changed documents only, when the catalogue snapshot or the site changed). */
  private index(s: Scope): SearchIndex {
    const m = this.ctx.slots.get(INDEXES, () => new Map());
    const key = `${s.cat.loadedAt}:${s.site.updated_at}:${this.sites.generation(s.site.id)}`;
    const cur = m.get(s.site.id);
    if (cur && cur.key === key) return cur.index;
    const docs: SearchDoc[] = [
      ...publishedShows(s).map((d): SearchDoc => ({ type: 'show', slug: String(d.slug), title: String(d.title), text: `${d.title} ${d.description ?? ''}`, time: Number(d._updated) })),
      ...s.cat.videos.map((v): SearchDoc => ({ type: 'video', slug: v.id, title: v.title, text: `${v.title} ${v.description} ${v.tags.join(' ')}`, time: v.published_at })),
      ...s.cat.programmes.filter((p) => !p.excluded).map((p): SearchDoc => ({ type: 'programme', slug: p.id, title: p.title, text: `${p.title} ${p.series ?? ''} ${p.description ?? ''}`, time: p.start_ms })),
    ];
    const index = cur ? cur.index : new SearchIndex(docs);
    if (cur) index.update(docs);
    m.set(s.site.id, { key, index });
    return index;
  }

  private keep(s: Scope, type: string | undefined) {
    return (d: SearchDoc) => {
      if (type && d.type !== type) return false;
      if (d.type !== 'programme') return true;
      const p = s.cat.progById.get(d.slug);
      return !!p && offersCatchup(p, s.cat.channelById.get(p.channel_id), s.now);
    };
  }

  private checkQ(q: string | undefined, type: string | undefined): string {
    const text = (q ?? '').trim();
    if (!text || [...text].length > 100) throw invalid('q', '1-100 characters');
    if (type !== undefined && !['show', 'video', 'programme'].includes(type)) throw invalid('type', 'show, video or programme');
    return text;
  }

  /** GET /search?q=&type=&cursor=: ranked (exact words first), 20 a page. */
  search(s: Scope, q: string | undefined, type: string | undefined, cursor: string | undefined): Json {
    const text = this.checkQ(q, type);
    const from = decodeCursor(cursor, text, type ?? '');
    const { total, hits } = this.index(s).page(text, this.keep(s, type), from, 20);
    return {
      q: text, total,
      items: hits.map((h) => ({ ...itemOf(s, h.doc.type, h.doc.slug), score: h.score })),
      next_cursor: total > from + 20 ? encodeCursor(text, type ?? '', from + 20) : null,
    };
  }

  /** GET /suggest?q=: at most 8 titles. */
  suggest(s: Scope, q: string | undefined): Json {
    const text = this.checkQ(q, undefined);
    return { q: text, items: this.index(s).suggest(text, this.keep(s, undefined), 8).map((d) => ({ type: d.type, slug: d.slug, title: d.title, url: itemOf(s, d.type, d.slug)?.url ?? null })) };
  }

  /** GET /s/v1/_host?hostname=: the site of a verified custom domain. */
  host(hostname: string | undefined): Json {
    const h = (hostname ?? '').toLowerCase().replace(/:\d+$/, '');
    if (!h || h.length > 253) throw invalid('hostname', 'a host name');
    const d = this.sites.store.domain(h);
    const site = d?.verified_at ? this.sites.store.siteById(d.site_id) : null;
    if (!site || site.status !== 'active') throw notFound('site for this host');
    return { hostname: h, site: site.slug, delivery_url: `${this.ctx.config.baseUrl}/s/v1/${site.slug}` };
  }

  /** Origins allowed to read the site from a browser: its verified domains (http and https) and the studio. */
  allowedOrigin(site: SiteRow | null, origin: string | null): string | null {
    if (!origin) return null;
    if (origin === new URL(this.ctx.config.baseUrl).origin) return origin;
    if (!site) return null;
    let host: string;
    try { const u = new URL(origin); if (u.protocol !== 'https:' && u.protocol !== 'http:') return null; host = u.hostname; } catch { return null; }
    const d = this.sites.store.domain(host);
    return d && d.site_id === site.id && d.verified_at ? origin : null;
  }
}
