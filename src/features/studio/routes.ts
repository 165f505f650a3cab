import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { hidden } from '../../kernel/http/plugin';
import { cookieValue, SESSION_COOKIE } from '../../kernel/http/auth';
import { notFound } from '../../kernel/errors';
import { StudioFiles, type StudioFile } from './bundle';
import { STUDIO_CSP, firstLang, studioHtml } from './page';

const SIGN_IN = '/studio/sign-in';

/** The studio single-page app: `/` and `/studio/*` (page), `/studio/assets/<hashed file>` (bundle). Hidden from the API documents. */
export function studioRoutes(ctx: AppContext) {
  const files = new StudioFiles();
  const signedIn = (req: Request): boolean => {
    const token = cookieValue(req.headers.get('cookie'), SESSION_COOKIE);
    if (!token) return false;
    try { return ctx.keys.session(token) !== null; } catch { return false; }
  };
  const redirect = (to: string) => new Response(null, { status: 302, headers: { location: to, 'cache-control': 'no-store' } });
  const page = async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === '/studio') return redirect('/studio/');
    // Signed-out people land on the sign-in page (with where they were going); the API itself refuses them anyway.
    if (path !== SIGN_IN && !signedIn(request)) return redirect(`${SIGN_IN}?next=${encodeURIComponent(path)}`);
    const html = studioHtml(await files.get(), firstLang(request.headers.get('cookie'), request.headers.get('accept-language')));
    return new Response(html, {
      headers: {
        'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'x-frame-options': 'DENY',
        'referrer-policy': 'same-origin', 'x-content-type-options': 'nosniff', 'content-security-policy': STUDIO_CSP,
      },
    });
  };
  const asset = (f: StudioFile, request: Request): Response => {
    const headers: Record<string, string> = {
      'content-type': f.type, etag: f.etag, 'cache-control': 'public, max-age=31536000, immutable', vary: 'accept-encoding', 'x-content-type-options': 'nosniff',
    };
    if (request.headers.get('if-none-match') === f.etag) return new Response(null, { status: 304, headers });
    if (/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) return new Response(f.gzip as BodyInit, { headers: { ...headers, 'content-encoding': 'gzip' } });
    return new Response(f.body as BodyInit, { headers });
  };
  return new Elysia()
    .get('/', ({ request }) => redirect(signedIn(request) ? '/studio/' : SIGN_IN), { detail: hidden })
    // Without strict paths /studio and /studio/ are one route: the page handler sends /studio on to /studio/.
    .get('/studio/', ({ request }) => page(request), { detail: hidden })
    .get('/studio/assets/:file', async ({ params, request }) => {
      const f = (await files.get()).files.get(params.file);
      if (!f) throw notFound('studio file');
      return asset(f, request);
    }, { params: t.Object({ file: t.String({ maxLength: 200 }) }), detail: hidden })
    .get('/studio/*', ({ request }) => page(request), { detail: hidden });
}
