import { Elysia } from 'elysia';
import { authenticate, type AuthRule, type KeyCache, type Principal } from './auth';
import type { RateLimiter } from './rate-limit';

/** Builds the per-route auth macro: `{ auth: { scope: 'assets:read' } }` resolves `principal` and documents the scope. */
export function createHttpPlugin(keys: KeyCache, limiter: RateLimiter) {
  return new Elysia({ name: 'vs-http' }).macro({
    auth: (rule: AuthRule) => ({
      resolve: ({ request }): { principal: Principal } => ({ principal: authenticate(request, rule, keys, limiter) }),
      detail: {
        security: [{ apiKey: [] }],
        'x-required-scope': rule.scope ?? (rule.anyOf ? rule.anyOf.join(' | ') : 'none'),
        ...(rule.platform ? { 'x-platform-only': true } : {}),
      } as Record<string, unknown>,
    }),
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
