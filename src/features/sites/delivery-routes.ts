import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { doc } from '../../kernel/http/plugin';
import { slotKey } from '../../kernel/slots';
import { answers, mediaAnswer } from '../meta/model';
import { SiteDelivery } from './delivery';
import { answer, send, siteProblem, type SiteAnswer } from './http-cache';
import { imageFile } from './images';
import { podcastFeed, robots, sitemap, SITEMAPS } from './feeds';
import type { Scope } from './items';
import type { SiteRow } from './store';
import { AnyObject } from './model';

const T = 'Sites Delivery';
const JSON_TYPE = 'application/json';
/** Answers kept in memory: per request target, valid while the site's generation and the catalogue snapshot are unchanged, at most 1 s. */
const CACHE = slotKey<Map<string, { gen: number; cat: object; at: number; a: SiteAnswer }>>('sites.answers');
const Q = (names: string[]) => t.Object(Object.fromEntries(names.map((n) => [n, t.Optional(t.String())])), { additionalProperties: true });
const json = (body: unknown, tags: string[], changeAt: number | null = null, priv = false) => answer(JSON.stringify(body), JSON_TYPE, priv ? 'private' : 'page', tags, changeAt);

/** /s/v1: the public, read-only Sites Delivery API (no key). */
export function siteDeliveryRoutes(ctx: AppContext) {
  const d = new SiteDelivery(ctx);
  const cache = () => ctx.slots.get(CACHE, () => new Map());
  const fail = (e: unknown, origin: string | null) => {
    const err = e instanceof AppError ? e : new AppError('internal_error', 'internal error');
    if (!(e instanceof AppError)) ctx.log.error('sites delivery error', { error: String((e as Error)?.stack ?? e) });
    return siteProblem(err, ctx.config.problemsBase, origin);
  };
  /** Serves one public read: 503 when sites are off, 404 for unknown or suspended sites, cached answers, problems. */
  const serve = async (request: Request, slug: string, build: (s: Scope, q: URLSearchParams) => SiteAnswer | Promise<SiteAnswer>): Promise<Response> => {
    let site: SiteRow | null = null;
    let origin: string | null = null;
    try {
      if (!ctx.config.sites.enabled) throw new AppError('not_ready', 'sites are switched off on this deployment', { status: 503 });
      site = d.site(slug);
      origin = d.allowedOrigin(site, request.headers.get('origin'));
      const url = new URL(request.url);
      const q = url.searchParams;
      const now = ctx.clock.now();
      const key = url.pathname + url.search;
      const s = d.scope(site);
      const gen = d.sites.generation(site.id);
      const hit = q.has('preview') ? undefined : cache().get(key);
      if (hit && hit.gen === gen && hit.cat === s.cat && now - hit.at < 1000 && now >= hit.at) return send(request, hit.a, now, origin);
      const a = await build(s, q);
      if (a.kind !== 'private') {
        const m = cache();
        if (m.size > 5000) m.clear();
        m.set(key, { gen, cat: s.cat, at: now, a });
      }
      return send(request, a, now, origin);
    } catch (e) { return fail(e, origin); }
  };
  const tags = (s: Scope, ...more: string[]) => [`site-${s.site.slug}`, ...more];
  const str = (q: URLSearchParams, k: string) => q.get(k) ?? undefined;
  return new Elysia({ prefix: '/s/v1' })
    .get('/_host', ({ request }) => {
      try {
        if (!ctx.config.sites.enabled) throw new AppError('not_ready', 'sites are switched off on this deployment', { status: 503 });
        const q = new URL(request.url).searchParams;
        return send(request, json(d.host(q.get('hostname') ?? request.headers.get('x-forwarded-host') ?? undefined), []), ctx.clock.now(), null);
      } catch (e) { return fail(e, null); }
    }, { query: Q(['hostname']), detail: doc(T, 'Find the site of a domain', 'איתור האתר של דומיין', 'A verified custom domain (`hostname`, or the `X-Forwarded-Host` header) to its site slug and delivery address. Unknown or unverified: 404.', answers({ 200: AnyObject })) })
    .get('/:site/config', ({ request, params }) => serve(request, params.site, (s) => json(d.config(s), tags(s, `config-${s.site.slug}`))), {
      detail: doc(T, 'Site configuration', 'תצורת האתר', 'Live theme tokens and CSS, published menus, dictionary, scripts, consent, accessibility, SEO defaults, player settings `{tenant, config, cdn_hostname}`, guide settings, time zone and AI crawler mode.', answers({ 200: AnyObject })) })
    .get('/:site/route', ({ request, params }) => serve(request, params.site, (s, q) => {
      const r = d.route(s, str(q, 'path'));
      return json(r, tags(s, ...(r.page_id ? [`page-${String(r.page_id)}`] : []), ...(r.entity ? [`${(r.entity as { type: string }).type}-${(r.entity as { slug: string }).slug}`] : [])));
    }), { query: Q(['path']), detail: doc(T, 'Resolve a site path', 'פענוח נתיב באתר', '`{kind: page|template|redirect|not_found, page_id?, template_for?, entity?, redirect?}`. Order: redirects, page paths, the route table, built-in paths (`/show/:slug`, `/podcast/:slug`, `/v/:slug`, `/c/:slug`, `/p/:slug`, `/live/:slug`, `/person/:slug`, `/category/:slug`, `/search`, `/epg`). A path that is not a site path: 422.', answers({ 200: AnyObject })) })
    .get('/:site/pages/:id', ({ request, params }) => serve(request, params.site, (s, q) => {
      const r = d.page(s, params.id, { sections: str(q, 'sections'), entity: str(q, 'entity'), preview: str(q, 'preview') });
      return json(r.body, tags(s, `page-${params.id}`, ...r.tags), r.changeAt, r.preview);
    }), { query: Q(['sections', 'entity', 'preview']), detail: doc(T, 'Get a public page', 'עמוד ציבורי של האתר', 'The live version with its first `sections` (default 6, at most 50) resolved (`items`, `more`), `next_cursor` for the rest, and with `entity=<type>:<slug>` the entity a template page shows. `preview=<token>`: the draft (`private, no-store`; a token that is not valid: 403). A page with a scheduled change is cached only until that moment.', answers({ 200: AnyObject })) })
    .get('/:site/pages/:id/sections', ({ request, params }) => serve(request, params.site, (s, q) => {
      const r = d.sections(s, params.id, { cursor: str(q, 'cursor'), count: str(q, 'count'), preview: str(q, 'preview') });
      return json(r.body, tags(s, `page-${params.id}`), r.changeAt, r.preview);
    }), { query: Q(['cursor', 'count', 'preview']), detail: doc(T, 'Get more sections of a page', 'מקטעים נוספים של עמוד', 'The sections after `cursor` (a page\'s `next_cursor`), `count` of them (default 6, at most 50).', answers({ 200: AnyObject })) })
    .get('/:site/entities/:type/:slug', ({ request, params }) => serve(request, params.site, (s) => json(d.entity(s, params.type, params.slug), tags(s, `${params.type}-${params.slug}`))), {
      detail: doc(T, 'Get a site entity', 'ישות באתר', 'A show, video, clip, programme, channel or person with `playback {mode, src, tenant, channel?, kind}`, a channel\'s `now`/`next`, series and people. Only what is public: videos ready and published, clips ready or final, programmes not excluded.', answers({ 200: AnyObject })) })
    .get('/:site/epg', ({ request, params }) => serve(request, params.site, (s, q) => {
      const r = d.epg(s, str(q, 'channel'), str(q, 'day'));
      return json(r, tags(s, `epg-${String(r.channel)}`));
    }), { query: Q(['channel', 'day']), detail: doc(T, 'Get a public guide day', 'יום בלוח השידורים של האתר', 'One day (`day=YYYY-MM-DD`, default today in the site\'s time zone, Asia/Jerusalem unless set) of a channel the site shows, each programme with `catchup` (ended, inside retention, recorded, not excluded), `start_over` (airing and its start recorded), `start_over_src` and `series`.', answers({ 200: AnyObject })) })
    .get('/:site/search', ({ request, params }) => serve(request, params.site, (s, q) => json(d.search(s, str(q, 'q'), str(q, 'type'), str(q, 'cursor')), tags(s, 'search'))), {
      query: Q(['q', 'type', 'cursor']), detail: doc(T, 'Search a site', 'חיפוש באתר', 'Hebrew-aware search over shows, videos and catch-up programmes (niqqud ignored, final letters folded, prefix letters ו ה ב כ ל מ ש as alternatives, geresh ignored). Exact words rank first; 20 a page with `next_cursor`. `type`: show, video or programme.', answers({ 200: AnyObject })) })
    .get('/:site/suggest', ({ request, params }) => serve(request, params.site, (s, q) => json(d.suggest(s, str(q, 'q')), tags(s, 'search'))), {
      query: Q(['q']), detail: doc(T, 'Suggest titles', 'הצעות השלמה', 'Up to 8 titles whose words start with what was typed.', answers({ 200: AnyObject })) })
    .get('/:site/sitemap/:file', ({ request, params }) => serve(request, params.site, async (s) => {
      const m = /^([a-z]+)\.xml$/.exec(params.file);
      if (!m || !(SITEMAPS as readonly string[]).includes(m[1]!)) throw new AppError('not_found', 'no such sitemap');
      return answer(await sitemap(s, m[1]!), 'application/xml; charset=utf-8', 'sitemap', tags(s, `sitemap-${m[1]}`));
    }), { detail: doc(T, 'Get a sitemap', 'מפת אתר', '`index.xml`, `pages.xml`, `shows.xml`, `videos.xml` (with the Google video extension) or `programmes.xml` (catch-up). Cached 600 s.', mediaAnswer(200, 'application/xml', t.String(), 'a sitemap')) })
    .get('/:site/robots', ({ request, params }) => serve(request, params.site, (s) => answer(robots(s), 'text/plain; charset=utf-8', 'robots', tags(s, 'robots'))), {
      detail: doc(T, 'Get robots.txt', 'קובץ robots.txt', 'Per the AI crawler mode: `allow`, `block_training` (GPTBot, Google-Extended, CCBot and other training crawlers disallowed) or `block` (AI assistants too); names the sitemap index. Cached 3600 s.', mediaAnswer(200, 'text/plain', t.String(), 'robots.txt')) })
    .get('/:site/podcast/:slug/feed.xml', ({ request, params }) => serve(request, params.site, (s) => answer(podcastFeed(s, params.slug), 'application/rss+xml; charset=utf-8', 'page', tags(s, `show-${params.slug}`))), {
      detail: doc(T, 'Get a podcast feed', 'פיד פודקאסט', 'RSS 2.0 of a show with podcast enabled: Apple\'s required tags (`itunes:image` 1400 px square JPEG, `itunes:category`, `itunes:explicit`, `language`, enclosures with length and type) and Podcasting 2.0 `podcast:guid`.', mediaAnswer(200, 'application/rss+xml', t.String(), 'an RSS feed')) })
    .get('/:site/images/:asset/:file', ({ request, params }) => serve(request, params.site, async (s) => {
      const f = await imageFile(s, params.asset, params.file);
      return answer(new Uint8Array(await Bun.file(f.path).arrayBuffer()), f.type, 'page', tags(s, `image-${params.asset}`));
    }), { detail: doc(T, 'Get a site image', 'תמונה של האתר', 'An item image in WebP: `tile_16x9` (640x360), `tile_16x9_320`, `tile_1x1`, `tile_2x3`, `poster` (1280x720), `hero_16x9` (1920x1080); `podcast.jpg` is 1400x1400 JPEG artwork. Made once per source by ffmpeg, then cached.', mediaAnswer(200, 'image/webp', t.String({ format: 'binary' }), 'the image')) })
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
