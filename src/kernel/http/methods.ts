import type { AnyElysia } from 'elysia';
import { splitUrl } from './url';

/** Methods this service serves at all; anything else (TRACE, CONNECT, PROPFIND...) is always refused. */
const KNOWN = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Which methods a path is served with, from the app's own route table (built once, on the first miss): lets a
 * request with an unsupported method answer 405 with `Allow` instead of 404.
 */
export function methodTable(app: () => AnyElysia) {
  let table: { re: RegExp; method: string }[] | null = null;
  const build = () => app().routes.map((r) => ({
    method: r.method.toUpperCase(),
    re: new RegExp(`^${r.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '[^/]+').replace(/\*/g, '.*')}$`),
  }));
  return {
    /** The `Allow` value for a request whose method is not served at its path; null when the path is unknown. */
    allowed(req: Request): string | null {
      table ??= build();
      const { path } = splitUrl(req.url);
      const set = new Set<string>();
      for (const r of table) if (r.re.test(path)) set.add(r.method);
      if (set.has('GET')) set.add('HEAD');
      if (!set.size || (set.has(req.method) && KNOWN.has(req.method))) return null;
      return [...set].filter((m) => KNOWN.has(m)).sort().join(', ');
    },
  };
}
