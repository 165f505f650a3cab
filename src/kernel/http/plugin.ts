import { Elysia } from 'elysia';
import { authenticate, type AuthRule, type KeyCache, type Principal } from './auth';
import type { RateLimiter } from './rate-limit';
import { readJsonBody } from './body';

/**
 * Builds the per-route macros. `{ auth: { scope } }` authenticates in the route's first hook (parse for methods
 * with a body, transform otherwise): key (or, without an Authorization header, a studio session cookie plus its CSRF
 * header on writes; refused where the rule says `sessions: false` and on /mcp) → rate limit → scope → CDN-only, all
 * before the body is read or validated,
 * so a caller without a key learns nothing about the body schema and every refused call spends its rate limit.
 * It then reads a JSON body itself (415 for other content types). `{ publicJson: true }` reads a JSON body the same
 * way on routes without a key.
 */
export function createHttpPlugin(keys: KeyCache, limiter: RateLimiter, jsonLimit: number) {
  const principals = new WeakMap<Request, Principal>();
  const ensure = (request: Request, rule: AuthRule): Principal => {
    let p = principals.get(request);
    if (!p) { p = authenticate(request, rule, keys, limiter); principals.set(request, p); }
    return p;
  };
  return new Elysia({ name: 'vs-http' }).macro({
    auth: (rule: AuthRule) => ({
      parse: ({ request, contentType }: { request: Request; contentType: string }) => {
        ensure(request, rule);
        // Multipart routes leave the body to Elysia's form-data parser (still after authentication).
        if (rule.multipart && /^multipart\/form-data/i.test(contentType ?? '')) return undefined;
        return readJsonBody(request, contentType, jsonLimit);
      },
      transform: ({ request }: { request: Request }) => { ensure(request, rule); },
      resolve: ({ request }): { principal: Principal } => ({ principal: ensure(request, rule) }),
      detail: {
        security: [{ apiKey: [] }],
        'x-required-scope': rule.scope ?? (rule.anyOf ? rule.anyOf.join(' | ') : 'none'),
        ...(rule.platform ? { 'x-platform-only': true } : {}),
      } as Record<string, unknown>,
    }),
    publicJson: (on: boolean) => (on ? {
      parse: ({ request, contentType }: { request: Request; contentType: string }) => readJsonBody(request, contentType, jsonLimit),
      detail: { security: [] } as Record<string, unknown>,
    } : {}),
  });
}

/** The Elysia plugin type features `use` to get the auth macro. */
export type HttpPlugin = ReturnType<typeof createHttpPlugin>;

/** OpenAPI detail for one operation: English summary, Hebrew summary, tag and optional description. */
export function doc(tag: string, summary: string, he: string, description?: string, extra: Record<string, unknown> = {}) {
  return { tags: [tag], summary, 'x-summary-he': he, ...(description ? { description } : {}), ...extra } as Record<string, unknown> & { summary: string };
}

/** OpenAPI detail for a route omitted from the public documents (internal, studio-only, delivery). */
export const hidden = { hide: true } as const;
