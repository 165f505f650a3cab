import { Elysia, type AnyElysia } from 'elysia';
import { stringify as toYaml } from 'yaml';
// Embedded into the compiled binary (`bun build --compile` keeps `type: 'file'` imports); a path on disk in development.
import scalarJs from '../../../node_modules/@scalar/api-reference/dist/browser/standalone.js' with { type: 'file' };
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { doc, hidden } from '../../kernel/http/plugin';
import { buildOpenApi, type DocOptions } from './openapi';
import { docsHtml, SCALAR_JS_PATH } from './docs-page';
import { answers, Health } from './model';

/** The OpenAPI version of this service. */
export const API_VERSION = '0.2.0';

const PUBLIC_DOC = { 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' };
const HTML = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=300' };

/** /healthz, /docs (English and Hebrew), the reference page's script and the OpenAPI documents (built lazily from the finished app). */
export function metaRoutes(ctx: AppContext, app: () => AnyElysia) {
  const cache = new Map<string, string>();
  const render = (o: Omit<DocOptions, 'baseUrl' | 'version'>, fmt: 'json' | 'yaml') => {
    const k = `${o.part}:${o.lang}:${fmt}`;
    let s = cache.get(k);
    if (!s) {
      const d = buildOpenApi(app(), { ...o, baseUrl: ctx.config.baseUrl, version: API_VERSION });
      s = fmt === 'json' ? JSON.stringify(d) : toYaml(d, { aliasDuplicateObjects: false });
      cache.set(k, s);
    }
    return new Response(s, { headers: { ...PUBLIC_DOC, 'content-type': fmt === 'json' ? 'application/json' : 'application/yaml; charset=utf-8' } });
  };
  const docRoute = (file: string) => {
    const m = /^(openapi|sites-delivery)(\.he)?\.(json|yaml)$/.exec(file);
    if (!m) throw new AppError('not_found', 'no such document');
    return render({ part: m[1] === 'openapi' ? 'management' : 'sites', lang: m[2] ? 'he' : 'en' }, m[3] as 'json' | 'yaml');
  };
  // The router treats /docs and /docs/ alike; tell them apart by the raw path (the page's relative links need the slash).
  const page = (lang: 'en' | 'he', home: string) => ({ request }: { request: Request }) => (new URL(request.url).pathname.endsWith('/')
    ? new Response(docsHtml(lang), { headers: HTML })
    : new Response(null, { status: 301, headers: { location: home } }));
  return new Elysia()
    .get('/healthz', ({ set }) => {
      set.headers['cache-control'] = 'no-store';
      return { status: 'ok' as const };
    }, { detail: doc('Meta', 'Liveness', 'בדיקת חיות', 'Public. Checks no dependency: 200 while the process serves HTTP.', answers({ 200: Health })) })
    .get('/docs', page('en', '/docs/'), { detail: hidden })
    .get('/docs/he', page('he', '/docs/he/'), { detail: hidden })
    .get(SCALAR_JS_PATH, () => new Response(Bun.file(scalarJs), {
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' },
    }), { detail: hidden })
    .get('/openapi.json', () => docRoute('openapi.json'), { detail: hidden })
    .get('/openapi.yaml', () => docRoute('openapi.yaml'), { detail: hidden })
    .get('/openapi.he.json', () => docRoute('openapi.he.json'), { detail: hidden })
    .get('/openapi.he.yaml', () => docRoute('openapi.he.yaml'), { detail: hidden })
    .get('/openapi/:file', ({ params }) => docRoute(params.file), { detail: hidden });
}
