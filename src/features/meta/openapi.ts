import type { AnyElysia } from 'elysia';
import { toOpenAPISchema } from '@elysiajs/openapi';

type Op = Record<string, unknown> & { summary?: string; description?: string; responses?: Record<string, unknown>; security?: unknown; parameters?: unknown[] };
/** Which document: the management API or the Sites Delivery API; English or Hebrew. */
export interface DocOptions { lang: 'en' | 'he'; part: 'management' | 'sites'; baseUrl: string; version: string }

const PROBLEM = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'request_id'],
  properties: {
    type: { type: 'string', format: 'uri', description: '{problems_base}/<code>' },
    title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' }, request_id: { type: 'string' },
    errors: { type: 'array', items: { type: 'object', required: ['field', 'detail'], properties: { field: { type: 'string' }, detail: { type: 'string' } } } },
  },
};

const problemRef = (description: string) => ({ description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });

const HE_INTRO = 'ממשק הניהול של ViewStream. כל בקשה נושאת Authorization: Bearer <API_KEY>; שגיאות מוחזרות כפרטי בעיה (RFC 9457).';
const EN_INTRO = 'The ViewStream management API. Every request carries `Authorization: Bearer <API_KEY>`; errors are RFC 9457 problem details with a stable `type` code and `request_id`. Lists use opaque cursors (`{items, next_cursor}`), newest first. Unknown body fields answer 400; invalid values 422 with `errors[]`; 20 requests/s per key, burst 100 (429 with `Retry-After`).';

/** Builds a public OpenAPI 3.1 document from the app's route schemas (internal routes are hidden by `detail.hide`). */
export function buildOpenApi(app: AnyElysia, o: DocOptions): Record<string, unknown> {
  const { paths, components } = toOpenAPISchema(app);
  const out: Record<string, Record<string, Op>> = {};
  for (const [path, item] of Object.entries(paths as Record<string, Record<string, Op>>)) {
    const isSites = path.startsWith('/s/v1');
    if ((o.part === 'sites') !== isSites) continue;
    if (!isSites && !path.startsWith('/v1') && path !== '/mcp' && path !== '/healthz') continue;
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== 'object' || !op) continue;
      const scope = op['x-required-scope'] as string | undefined;
      const he = op['x-summary-he'] as string | undefined;
      delete op['x-summary-he'];
      if (o.lang === 'he' && he) op.summary = he;
      op.responses = {
        ...(op.responses ?? {}),
        ...(scope ? { 401: problemRef('invalid_credentials'), 403: problemRef('insufficient_scope / feature_disabled'), 429: problemRef('rate_limited') } : {}),
        ...(['post', 'patch', 'put'].includes(method) ? { 400: problemRef('unknown field or invalid JSON'), 413: problemRef('body too large') } : {}),
        422: problemRef('validation_error'),
        500: problemRef('internal_error'),
      };
      if (scope) op.description = `${op.description ? `${op.description}\n\n` : ''}Required scope: \`${scope}\`.`;
      (out[path] ??= {})[method] = op;
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: o.part === 'sites' ? 'ViewStream Sites Delivery API' : 'ViewStream Management API',
      version: o.version,
      description: o.lang === 'he' ? HE_INTRO : EN_INTRO,
      ...(o.lang === 'he' ? { 'x-language': 'he' } : { 'x-language': 'en' }),
    },
    servers: [{ url: o.baseUrl }],
    security: o.part === 'sites' ? [] : [{ apiKey: [] }],
    paths: out,
    components: {
      ...(components ?? {}),
      schemas: { ...((components as { schemas?: object })?.schemas ?? {}), Problem: PROBLEM },
      securitySchemes: o.part === 'sites' ? {} : { apiKey: { type: 'http', scheme: 'bearer', description: 'API key (`vs_...`) created with POST /v1/api-keys or `viewstream key create`.' } },
    },
  };
}
