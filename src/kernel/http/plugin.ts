import { Elysia, type AnyElysia } from 'elysia';
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
  // The principal is kept on the request's Elysia context (one object per request, shared by its hooks and handler).
  // Hooks read the context only as `c.request` / `c.principal`: Elysia infers from their source what to prepare for
  // a route, and a context handed whole to another function makes it parse cookies, headers and query on every call.
  return new Elysia({ name: 'vs-http' }).macro({
    auth: (rule: AuthRule) => ({
      parse: (c: AuthContext & { contentType: string }) => {
        c.principal ??= authenticate(c.request, rule, keys, limiter);
        // Multipart routes leave the body to Elysia's form-data parser (still after authentication).
        if (rule.multipart && /^multipart\/form-data/i.test(c.contentType ?? '')) return undefined;
        return readJsonBody(c.request, c.contentType, jsonLimit);
      },
      transform: (c: AuthContext) => { c.principal ??= authenticate(c.request, rule, keys, limiter); },
      resolve: (c): { principal: Principal } => ({ principal: (c as AuthContext).principal ??= authenticate(c.request, rule, keys, limiter) }),
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

/** What the auth hooks read and write on Elysia's per-request context. */
interface AuthContext { request: Request; principal?: Principal }

/**
 * Drops parse hooks from GET and HEAD routes. Elysia never runs parse for them (they have no body), but any parse
 * hook (the auth macro adds one to every route) compiles the route as an async function: without it a synchronous
 * route answers without a promise or a microtask.
 */
export function dropBodylessParse(app: AnyElysia): void {
  for (const r of app.routes) {
    const hooks = r.hooks as { parse?: unknown } | undefined;
    if ((r.method === 'GET' || r.method === 'HEAD') && hooks?.parse) hooks.parse = undefined;
  }
}

/** The Elysia plugin type features `use` to get the auth macro. */
export type HttpPlugin = ReturnType<typeof createHttpPlugin>;

/** OpenAPI detail for one operation: English summary, Hebrew summary, tag and optional description. */
export function doc(tag: string, summary: string, he: string, description?: string, extra: Record<string, unknown> = {}) {
  return { tags: [tag], summary, 'x-summary-he': he, ...(description ? { description } : {}), ...extra } as Record<string, unknown> & { summary: string };
}

/** OpenAPI detail for a route omitted from the public documents (internal, studio-only, delivery). */
export const hidden = { hide: true } as const;
