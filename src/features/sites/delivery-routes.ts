import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { doc } from '../../kernel/http/plugin';
import { fastLanes, type FastLaneHandler } from '../../kernel/http/fast-lane';
import { slotKey } from '../../kernel/slots';
import { answers, mediaAnswer } from '../meta/model';
import { SiteDelivery } from './delivery';
import { catalogue } from './catalogue';
import { answer, respond, send, siteProblem, type SiteAnswer } from './http-cache';
import { imageFile } from './images';
import { podcastFeed, robots, sitemap, SITEMAPS } from './feeds';
import type { Scope } from './items';
import type { SiteRow } from './store';
import { AnyObject } from './model';

const T = 'Sites Delivery';
const JSON_TYPE = 'application/json';
const Q = (names: string[]) => t.Object(Object.fromEntries(names.map((n) => [n, t.Optional(t.String())])), { additionalProperties: true });
const json = (body: unknown, tags: string[], changeAt: number | null = null, priv = false) => answer(JSON.stringify(body), JSON_TYPE, priv ? 'private' : 'page', tags, changeAt);

type Build = (s: Scope, q: URLSearchParams) => SiteAnswer | Promise<SiteAnswer>;
/**
 * A kept answer: the site generation and catalogue snapshot it was built from, when, for which site, and the CORS
 * verdicts reached for it (Origin header -> allowed origin or null; a site's domains change its generation).
 */
interface Kept { gen: number; cat: object; at: number; a: SiteAnswer; site: SiteRow; origins: Map<string, string | null> | null }
/** How long a kept answer is served (answers depend on the clock: guide, availability, scheduled changes). */
const KEPT_MS = 1000;
const SERVER = slotKey<ReturnType<typeof makeServer>>('sites.server');

/** The serving machinery shared by the Elysia routes and the direct entry: one per app. */
function makeServer(ctx: AppContext) {
  const d = new SiteDelivery(ctx);
  /**
   * Kept answers by canonical path (still percent-encoded), then raw query ('' for none): the fast lane finds one from
   * the path and query the kernel already split, with no key string built per request.
   */
  const cache = new Map<string, Map<string, Kept>>();
  let keptCount = 0;
  const keep = (path: string, query: string, k: Kept) => {
    if (keptCount >= 5000) { cache.clear(); keptCount = 0; }
    let m = cache.get(path);
    if (m === undefined) cache.set(path, m = new Map());
    if (!m.has(query)) keptCount++;
    m.set(query, k);
  };
  /**
   * True while a kept answer may be served: younger than KEPT_MS, same site generation, same catalogue snapshot (the
   * cheapest check first; the catalogue is looked at only for an answer young enough).
   */
  const fresh = (k: Kept, now: number) => now - k.at < KEPT_MS && now >= k.at && k.gen === d.sites.generation(k.site.id) && k.cat === catalogue(ctx, k.site.tenant_id);
  const remember = (k: Kept, o: string, verdict: string | null) => {
    const m = k.origins ??= new Map();
    if (m.size < 16) m.set(o, verdict);
  };
  const fail = (e: unknown, origin: string | null) => {
    const err = e instanceof AppError ? e : new AppError('internal_error', 'internal error');
    if (!(e instanceof AppError)) ctx.log.error('sites delivery error', { error: String((e as Error)?.stack ?? e) });
    return siteProblem(err, ctx.config.problemsBase, origin);
  };
  /**
   * Serves one public read: 503 when sites are off, 404 for unknown or suspended sites, cached answers, problems.
   * Synchronous unless the build is (sitemaps, images): a cached answer (or its 304) leaves with no promise, no SQL,
   * no serialising, its headers built once per answer.
   */
  const serve = (request: Request, slug: string, build: Build): Response | Promise<Response> => {
    let site: SiteRow | null = null;
    let origin: string | null = null;
    try {
      if (!ctx.config.sites.enabled) throw new AppError('not_ready', 'sites are switched off on this deployment', { status: 503 });
      site = d.site(slug);
      const o = request.headers.get('origin');
      origin = o ? d.allowedOrigin(site, o) : null;
      const url = request.url;
      const now = ctx.clock.now();
      // The path and raw query as the kernel splits them for the fast lane (canonical request: path from /s/v1/).
      const at = url.indexOf('/s/v1/');
      const qi = url.indexOf('?', at);
      const path = qi < 0 ? url.slice(at) : url.slice(at, qi);
      const query = qi < 0 ? '' : url.slice(qi + 1);
      const preview = query.includes('preview=');
      const gen = d.sites.generation(site.id);
      // A kept answer (the fast lane answers these before the router; here when it could not: a new CORS origin).
      const hit = preview ? undefined : cache.get(path)?.get(query);
      if (hit && fresh(hit, now)) {
        if (o) remember(hit, o, origin);
        return send(request, hit.a, now, origin);
      }
      const q = new URLSearchParams(query);
      const s = d.scope(site);
      const siteRow = site;
      const keepAndSend = (a: SiteAnswer) => {
        // Never kept: previews (a token's draft) and private answers.
        if (a.kind !== 'private' && !preview) {
          const k: Kept = { gen, cat: s.cat, at: now, a, site: siteRow, origins: null };
          if (o) remember(k, o, origin);
          keep(path, query, k);
        }
        return send(request, a, now, origin);
      };
      const a = build(s, q);
      return a instanceof Promise ? a.then(keepAndSend, (e: unknown) => fail(e, origin)) : keepAndSend(a);
    } catch (e) { return fail(e, origin); }
  };
  /**
   * The fast lane (kernel, before the router; the raw-target and canonical checks ran first): a kept answer or its
   * 304, exactly as `serve` sends it, for a GET or HEAD of the same target while it is fresh and the request's
   * Origin (if any) was judged for it already; undefined otherwise (the app then answers, as before).
   */
  const lane: FastLaneHandler = (request, path, query, id) => {
    const m = request.method;
    if ((m !== 'GET' && m !== 'HEAD') || !ctx.config.sites.enabled) return undefined;
    const k = cache.get(path)?.get(query);
    if (k === undefined) return undefined;
    const now = ctx.clock.now();
    if (!fresh(k, now)) return undefined;
    const o = request.headers.get('origin');
    let origin: string | null = null;
    if (o !== null) {
      const v = k.origins?.get(o);
      if (v === undefined) return undefined;
      origin = v;
    }
    return respond(request, k.a, now, origin, id);
  };
  const tags = (s: Scope, ...more: string[]) => [`site-${s.site.slug}`, ...more];
  const str = (q: URLSearchParams, k: string) => q.get(k) ?? undefined;
  const host = (request: Request) => {
    try {
      if (!ctx.config.sites.enabled) throw new AppError('not_ready', 'sites are switched off on this deployment', { status: 503 });
      const q = new URL(request.url).searchParams;
      return send(request, json(d.host(q.get('hostname') ?? request.headers.get('x-forwarded-host') ?? undefined), []), ctx.clock.now(), null);
    } catch (e) { return fail(e, null); }
  };
  /** What each route builds, by name, from its path parameters. */
  const build = {
    config: (): Build => (s) => json(d.config(s), tags(s, `config-${s.site.slug}`)),
    route: (): Build => (s, q) => {
      const r = d.route(s, str(q, 'path'));
      return json(r, tags(s, ...(r.page_id ? [`page-${String(r.page_id)}`] : []), ...(r.entity ? [`${(r.entity as { type: string }).type}-${(r.entity as { slug: string }).slug}`] : [])));
    },
    page: (id: string): Build => (s, q) => {
      const r = d.page(s, id, { sections: str(q, 'sections'), entity: str(q, 'entity'), preview: str(q, 'preview') });
      return json(r.body, tags(s, `page-${id}`, ...r.tags), r.changeAt, r.preview);
    },
    sections: (id: string): Build => (s, q) => {
      const r = d.sections(s, id, { cursor: str(q, 'cursor'), count: str(q, 'count'), preview: str(q, 'preview') });
      return json(r.body, tags(s, `page-${id}`), r.changeAt, r.preview);
    },
    entity: (type: string, slug: string): Build => (s) => json(d.entity(s, type, slug), tags(s, `${type}-${slug}`)),
    epg: (): Build => (s, q) => { const r = d.epg(s, str(q, 'channel'), str(q, 'day')); return json(r, tags(s, `epg-${String(r.channel)}`)); },
    search: (): Build => (s, q) => json(d.search(s, str(q, 'q'), str(q, 'type'), str(q, 'cursor')), tags(s, 'search')),
    suggest: (): Build => (s, q) => json(d.suggest(s, str(q, 'q')), tags(s, 'search')),
    sitemap: (file: string): Build => async (s) => {
      const m = /^([a-z]+)\.xml$/.exec(file);
      if (!m || !(SITEMAPS as readonly string[]).includes(m[1]!)) throw new AppError('not_found', 'no such sitemap');
      return answer(await sitemap(s, m[1]!), 'application/xml; charset=utf-8', 'sitemap', tags(s, `sitemap-${m[1]}`));
    },
    robots: (): Build => (s) => answer(robots(s), 'text/plain; charset=utf-8', 'robots', tags(s, 'robots')),
    podcast: (slug: string): Build => (s) => answer(podcastFeed(s, slug), 'application/rss+xml; charset=utf-8', 'page', tags(s, `show-${slug}`)),
    image: (asset: string, file: string): Build => async (s) => {
      const f = await imageFile(s, asset, file);
      return answer(new Uint8Array(await Bun.file(f.path).arrayBuffer()), f.type, 'page', tags(s, `image-${asset}`));
    },
  };
  /**
   * The direct entry (as /t/ has): a GET or HEAD of a Sites Delivery read is answered without the router's pass; null
   * for anything else (the router then answers it: unknown paths, other methods, undecodable segments).
   */
  const entry = (request: Request): Promise<Response> | Response | null => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    const url = request.url;
    const at = url.indexOf('/s/v1/');
    const qi = url.indexOf('?', at);
    const raw = url.slice(at + 6, qi < 0 ? undefined : qi);
    let seg = raw.split('/');
    // Segments are decoded only when something is encoded (most requests: nothing is).
    if (raw.includes('%')) { try { seg = seg.map((x) => decodeURIComponent(x)); } catch { return null; } }
    const [site, a, b, c] = seg;
    if (!site) return null;
    if (seg.length === 1) return site === '_host' ? host(request) : null;
    let f: Build | null = null;
    if (seg.length === 2) f = a === 'config' ? build.config() : a === 'route' ? build.route() : a === 'epg' ? build.epg() : a === 'search' ? build.search() : a === 'suggest' ? build.suggest() : a === 'robots' ? build.robots() : null;
    else if (seg.length === 3 && b) f = a === 'pages' ? build.page(b) : a === 'sitemap' ? build.sitemap(b) : null;
    else if (seg.length === 4 && b && c) {
      f = a === 'pages' && c === 'sections' ? build.sections(b) : a === 'entities' ? build.entity(b, c) : a === 'images' ? build.image(b, c) : a === 'podcast' && c === 'feed.xml' ? build.podcast(b) : null;
    }
    return f ? serve(request, site, f) : null;
  };
  return { d, serve, fail, host, build, entry, lane };
}

/** The direct Sites Delivery entry for the app's fetch (see makeServer's `entry`). */
export function siteDeliveryEntry(ctx: AppContext): (r: Request) => Promise<Response> | Response | null {
  return ctx.slots.get(SERVER, () => makeServer(ctx)).entry;
}

/** /s/v1: the public, read-only Sites Delivery API (no key). */
export function siteDeliveryRoutes(ctx: AppContext) {
  const { d, serve, fail, host, build, lane } = ctx.slots.get(SERVER, () => makeServer(ctx));
  // Kept answers and their 304s leave from the kernel's fast lane, before the token entry and the router.
  fastLanes(ctx).add('/s/v1/', lane);
  return new Elysia({ prefix: '/s/v1' })
    .get('/_host', ({ request }) => host(request), { query: Q(['hostname']), detail: doc(T, 'Find the site of a domain', 'איתור האתר של דומיין', 'A verified custom domain (`hostname`, or the `X-Forwarded-Host` header) to its site slug and delivery address. Unknown or unverified: 404.', answers({ 200: AnyObject })) })
    .get('/:site/config', ({ request, params }) => serve(request, params.site, build.config()), {
      detail: doc(T, 'Site configuration', 'תצורת האתר', 'Live theme tokens and CSS, published menus, dictionary, scripts, consent, accessibility, SEO defaults, player settings `{tenant, config, cdn_hostname}`, guide settings, time zone and AI crawler mode.', answers({ 200: AnyObject })) })
    .get('/:site/route', ({ request, params }) => serve(request, params.site, build.route()), { query: Q(['path']), detail: doc(T, 'Resolve a site path', 'פענוח נתיב באתר', '`{kind: page|template|redirect|not_found, page_id?, template_for?, entity?, redirect?}`. Order: redirects, page paths, the route table, built-in paths (`/show/:slug`, `/podcast/:slug`, `/v/:slug`, `/c/:slug`, `/p/:slug`, `/live/:slug`, `/person/:slug`, `/category/:slug`, `/search`, `/epg`). A path that is not a site path: 422.', answers({ 200: AnyObject })) })
    .get('/:site/pages/:id', ({ request, params }) => serve(request, params.site, build.page(params.id)), { query: Q(['sections', 'entity', 'preview']), detail: doc(T, 'Get a public page', 'עמוד ציבורי של האתר', 'The live version with its first `sections` (default 6, at most 50) resolved (`items`, `more`), `next_cursor` for the rest, and with `entity=<type>:<slug>` the entity a template page shows. `preview=<token>`: the draft (`private, no-store`; a token that is not valid: 403). A page with a scheduled change is cached only until that moment.', answers({ 200: AnyObject })) })
    .get('/:site/pages/:id/sections', ({ request, params }) => serve(request, params.site, build.sections(params.id)), { query: Q(['cursor', 'count', 'preview']), detail: doc(T, 'Get more sections of a page', 'מקטעים נוספים של עמוד', 'The sections after `cursor` (a page\'s `next_cursor`), `count` of them (default 6, at most 50).', answers({ 200: AnyObject })) })
    .get('/:site/entities/:type/:slug', ({ request, params }) => serve(request, params.site, build.entity(params.type, params.slug)), {
      detail: doc(T, 'Get a site entity', 'ישות באתר', 'A show, video, clip, programme, channel or person with `playback {mode, src, tenant, channel?, kind}`, a channel\'s `now`/`next`, series and people. Only what is public: videos ready and published, clips ready or final, programmes not excluded.', answers({ 200: AnyObject })) })
    .get('/:site/epg', ({ request, params }) => serve(request, params.site, build.epg()), { query: Q(['channel', 'day']), detail: doc(T, 'Get a public guide day', 'יום בלוח השידורים של האתר', 'One day (`day=YYYY-MM-DD`, default today in the site\'s time zone, Asia/Jerusalem unless set) of a channel the site shows, each programme with `catchup` (ended, inside retention, recorded, not excluded), `start_over` (airing and its start recorded), `start_over_src` and `series`.', answers({ 200: AnyObject })) })
    .get('/:site/search', ({ request, params }) => serve(request, params.site, build.search()), {
      query: Q(['q', 'type', 'cursor']), detail: doc(T, 'Search a site', 'חיפוש באתר', 'Hebrew-aware search over shows, videos and catch-up programmes (niqqud ignored, final letters folded, prefix letters ו ה ב כ ל מ ש as alternatives, geresh ignored). Exact words rank first; 20 a page with `next_cursor`. `type`: show, video or programme.', answers({ 200: AnyObject })) })
    .get('/:site/suggest', ({ request, params }) => serve(request, params.site, build.suggest()), {
      query: Q(['q']), detail: doc(T, 'Suggest titles', 'הצעות השלמה', 'Up to 8 titles whose words start with what was typed.', answers({ 200: AnyObject })) })
    .get('/:site/sitemap/:file', ({ request, params }) => serve(request, params.site, build.sitemap(params.file)), { detail: doc(T, 'Get a sitemap', 'מפת אתר', '`index.xml`, `pages.xml`, `shows.xml`, `videos.xml` (with the Google video extension) or `programmes.xml` (catch-up). Cached 600 s.', mediaAnswer(200, 'application/xml', t.String(), 'a sitemap')) })
    .get('/:site/robots', ({ request, params }) => serve(request, params.site, build.robots()), {
      detail: doc(T, 'Get robots.txt', 'קובץ robots.txt', 'Per the AI crawler mode: `allow`, `block_training` (GPTBot, Google-Extended, CCBot and other training crawlers disallowed) or `block` (AI assistants too); names the sitemap index. Cached 3600 s.', mediaAnswer(200, 'text/plain', t.String(), 'robots.txt')) })
    .get('/:site/podcast/:slug/feed.xml', ({ request, params }) => serve(request, params.site, build.podcast(params.slug)), {
      detail: doc(T, 'Get a podcast feed', 'פיד פודקאסט', 'RSS 2.0 of a show with podcast enabled: Apple\'s required tags (`itunes:image` 1400 px square JPEG, `itunes:category`, `itunes:explicit`, `language`, enclosures with length and type) and Podcasting 2.0 `podcast:guid`.', mediaAnswer(200, 'application/rss+xml', t.String(), 'an RSS feed')) })
    .get('/:site/images/:asset/:file', ({ request, params }) => serve(request, params.site, build.image(params.asset, params.file)), { detail: doc(T, 'Get a site image', 'תמונה של האתר', 'An item image in WebP: `tile_16x9` (640x360), `tile_16x9_320`, `tile_1x1`, `tile_2x3`, `poster` (1280x720), `hero_16x9` (1920x1080); `podcast.jpg` is 1400x1400 JPEG artwork. Made once per source by ffmpeg, then cached.', mediaAnswer(200, 'image/webp', t.String({ format: 'binary' }), 'the image')) })
    .options('/*', ({ request }) => {
      const m = /^\/s\/v1\/([^/]+)/.exec(new URL(request.url).pathname);
      let site: SiteRow | null = null;
      try { site = m ? d.site(m[1]!) : null; } catch { site = null; }
      const origin = d.allowedOrigin(site, request.headers.get('origin'));
      const h: Record<string, string> = { vary: 'Origin', 'x-vs-sites-api': '1', 'cache-control': 'no-store' };
      if (origin) Object.assign(h, { 'access-control-allow-origin': origin, 'access-control-allow-methods': 'GET, HEAD', 'access-control-allow-headers': 'If-None-Match', 'access-control-max-age': '600' });
      return new Response(null, { status: 204, headers: h });
    }, { detail: { hide: true } })
    .get('/*', () => fail(ctx.config.sites.enabled ? new AppError('not_found', 'no such Sites Delivery route') : new AppError('not_ready', 'sites are switched off on this deployment', { status: 503 }), null), { detail: { hide: true } });
}

/** True for a request whose path starts with /s/v1/ (checked on the raw URL, before any parsing). */
export function isSitesRequest(r: Request): boolean {
  const u = r.url;
  return u.startsWith('/s/v1/', u.indexOf('/', u.indexOf('//') + 2));
}
