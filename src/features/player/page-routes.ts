import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { hidden } from '../../kernel/http/plugin';
import { AppError } from '../../kernel/errors';
import { PlayerResolver, type TitleData } from './resolve';
import { PlayerFiles } from './bundle';
import { acceptedLang, renderPage, refusalPage } from './pages';
import { PLAYER_VERSION, PLAYER_VERSIONS } from './defaults';
import { librarySkin } from './skins';

const JS = 'text/javascript; charset=utf-8';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const LANGS = new Set(['he', 'en', 'ru', 'ar']);
const PageQuery = t.Object({ start: t.Optional(t.String()), lang: t.Optional(t.String()), config: t.Optional(t.String()), autoplay: t.Optional(t.String()) });

/** True when the page host matches one of the allowed domains (`example.com` or `*.example.com`). */
export function hostAllowed(host: string, allowed: string[]): boolean {
  const h = host.toLowerCase();
  return allowed.some((d) => (d.startsWith('*.') ? h.endsWith(d.slice(1)) || h === d.slice(2) : h === d));
}

/** The loader (/embed.js and immutable /embed/<version>/…), library skins, and the hosted watch and iframe pages. */
export function playerPageRoutes(ctx: AppContext) {
  const files = new PlayerFiles();
  const resolver = new PlayerResolver(ctx);
  const version = (v: string) => { if (!(PLAYER_VERSIONS as readonly string[]).includes(v)) throw new AppError('not_found', 'no such player version'); };
  const page = (kind: 'w' | 'e') => ({ params, query, request }: { params: { tenant: string; kind: string; id: string }; query: Record<string, string | undefined>; request: Request }) => {
    if (!['live', 'vod', 'clip'].includes(params.kind)) throw new AppError('not_found', 'kind must be live, vod or clip');
    // ?lang= wins; otherwise the viewer's browser language (a Hebrew browser gets the Hebrew page), else the defaults.
    const lang = query.lang && LANGS.has(query.lang) ? query.lang : acceptedLang(request.headers.get('accept-language'), LANGS);
    const resolved = query.config ? { ...resolver.named(params.tenant, query.config), title: resolver.title(resolver.tenant(params.tenant), params.kind, params.id) } : resolver.resolve(params.tenant, params.kind, params.id);
    const config = resolved.config as { embed?: { allowed_domains?: string[] } };
    const allowed = config.embed?.allowed_domains ?? [];
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=60', 'referrer-policy': 'strict-origin-when-cross-origin', vary: 'accept-language' };
    if (allowed.length) {
      headers['content-security-policy'] = `frame-ancestors 'self' ${allowed.join(' ')}`;
      const ref = request.headers.get('referer');
      let refHost: string | null = null;
      try { refHost = ref ? new URL(ref).host : null; } catch { refHost = 'invalid'; }
      const self = new URL(ctx.config.playerUrl).host;
      if (refHost && refHost !== self && !hostAllowed(refHost.replace(/:\d+$/, ''), allowed) && !hostAllowed(refHost, allowed)) {
        // The refusal itself may be framed (no frame-ancestors) so the viewer reads why nothing plays.
        const { 'content-security-policy': _csp, ...plain } = headers;
        return new Response(refusalPage(lang), { status: 403, headers: { ...plain, 'cache-control': 'no-store' } });
      }
    }
    const start = query.start !== undefined && /^\d+(\.\d+)?$/.test(query.start) ? Number(query.start) : null;
    const html = renderPage({
      kind, tenant: params.tenant, contentKind: params.kind, title: (resolved as { title?: TitleData }).title!, playerUrl: ctx.config.playerUrl, cdnUrl: ctx.config.cdnBaseUrl,
      version: resolved.player.version, configName: resolved.name, config: resolved.config, lang, start, autoplay: kind === 'e' && query.autoplay === '1',
      pageUrl: `${ctx.config.playerUrl}/${kind}/${params.tenant}/${params.kind}/${encodeURIComponent(params.id)}`,
    });
    return new Response(html, { headers });
  };
  return new Elysia()
    .get('/embed.js', async () => new Response(await files.embedJs(), { headers: { 'content-type': JS, 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' } }), { detail: hidden })
    .get('/embed/:version/:file', async ({ params }) => {
      version(params.version);
      if (params.file === 'embed.js') return new Response(await files.embedJs(), { headers: { 'content-type': JS, 'cache-control': IMMUTABLE, 'access-control-allow-origin': '*' } });
      const path = files.engine(params.file);
      if (!path) throw new AppError('not_found', 'no such player file');
      return new Response(Bun.file(path), { headers: { 'content-type': JS, 'cache-control': IMMUTABLE, 'access-control-allow-origin': '*' } });
    }, { detail: hidden })
    .get('/embed/:version/skins/:file', ({ params }) => {
      version(params.version);
      const s = librarySkin(params.file.replace(/\.json$/, ''));
      if (!s) throw new AppError('not_found', 'no such skin');
      return new Response(JSON.stringify(s), { headers: { 'content-type': 'application/json', 'cache-control': IMMUTABLE, 'access-control-allow-origin': '*' } });
    }, { detail: hidden })
    .get('/w/:tenant/:kind/:id', page('w'), { query: PageQuery, detail: hidden })
    .get('/e/:tenant/:kind/:id', page('e'), { query: PageQuery, detail: hidden });
}

export { PLAYER_VERSION };
