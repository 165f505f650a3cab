import { Elysia, type AnyElysia } from 'elysia';
import { stringify as toYaml } from 'yaml';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { hidden } from '../../kernel/http/plugin';
import { buildOpenApi, type DocOptions } from './openapi';
import { DOCS_HTML } from './docs-page';

/** The OpenAPI version of this service. */
export const API_VERSION = '0.2.0';

const PUBLIC_DOC = { 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' };

/** /healthz, /docs and the OpenAPI documents (built lazily from the finished app). */
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
  return new Elysia()
    .get('/healthz', ({ set }) => {
      set.headers['cache-control'] = 'no-store';
      return { status: 'ok' };
    }, { detail: { tags: ['Meta'], summary: 'Liveness', 'x-summary-he': 'בדיקת חיות', description: 'Checks no dependency.' } as never })
    // The router treats /docs and /docs/ alike; tell them apart by the raw path.
    .get('/docs', ({ request }) => (new URL(request.url).pathname.endsWith('/')
      ? new Response(DOCS_HTML, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=300' } })
      : new Response(null, { status: 301, headers: { location: '/docs/' } })), { detail: hidden })
    .get('/openapi.json', () => docRoute('openapi.json'), { detail: hidden })
    .get('/openapi.yaml', () => docRoute('openapi.yaml'), { detail: hidden })
    .get('/openapi.he.json', () => docRoute('openapi.he.json'), { detail: hidden })
    .get('/openapi.he.yaml', () => docRoute('openapi.he.yaml'), { detail: hidden })
    .get('/openapi/:file', ({ params }) => docRoute(params.file), { detail: hidden });
}
