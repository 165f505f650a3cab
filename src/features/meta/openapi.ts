import type { AnyElysia } from 'elysia';
import { buildOperation, templatePath, type OpText, type RouteLike } from './openapi-ops';
import { PROBLEM_SCHEMA, problemResponses } from './openapi-problems';
import { DELIVERY_URLS_EN, TAGS_EN, intro } from './document-text';
import { DELIVERY_URLS_HE, INTRO_HE, TAG_NAMES_HE, TAGS_HE } from './he/document';
import { HE_OPERATIONS } from './he/operations';

/** Which document: the management API or the Sites Delivery API; English or Hebrew. */
export interface DocOptions { lang: 'en' | 'he'; part: 'management' | 'sites'; baseUrl: string; version: string }

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** Hebrew for the success response descriptions the builder writes. */
const RESPONSE_HE: Record<string, string> = { success: 'הצלחה', 'done; no body': 'בוצע; ללא גוף', 'the event stream (open until the client disconnects)': 'זרם האירועים (פתוח עד שהלקוח מתנתק)' };

/** True for routes that belong in the document `part` (public management paths, or the Sites Delivery API). */
function inPart(path: string, part: DocOptions['part']): boolean {
  if (path.startsWith('/s/v1')) return part === 'sites';
  return part === 'management' && (path.startsWith('/v1/') || path === '/mcp' || path === '/healthz');
}

/** The Hebrew text of an operation (summary and description), falling back to the inline Hebrew summary. */
function hebrew(route: RouteLike) {
  return (id: string, en: OpText): OpText => {
    const he = HE_OPERATIONS[id];
    const inline = ((route.hooks as { detail?: Record<string, unknown> })?.detail?.['x-summary-he'] as string | undefined) ?? en.summary;
    return { summary: he?.summary ?? inline, description: he ? he.description : en.description };
  };
}

/**
 * Builds a public OpenAPI 3.1 document from the app's route table: paths without trailing slashes, typed path and
 * query parameters, JSON (or octet-stream / multipart) request bodies, success schemas and the problem responses each
 * operation can give. Routes whose `detail.hide` is set (internal, studio, delivery) are left out.
 */
export function buildOpenApi(app: AnyElysia, o: DocOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const used = new Set<number>();
  const tagsSeen = new Set<string>();
  for (const route of app.routes as RouteLike[]) {
    const detail = (route.hooks as { detail?: Record<string, unknown> })?.detail;
    if (!METHODS.has(route.method) || !detail || detail.hide || route.path.includes('*') || !inPart(route.path, o.part)) continue;
    const text = o.lang === 'he' ? hebrew(route) : (_: string, en: OpText) => en;
    const scopeLine = (s: string) => (o.lang === 'he' ? `הרשאה נדרשת: \`${s}\`.` : `Required scope: \`${s}\`.`);
    const { op, problems } = buildOperation(route, text, scopeLine);
    problems.forEach((p) => used.add(p));
    if (o.lang === 'he') {
      op.tags = (op.tags as string[]).map((t) => TAG_NAMES_HE[t] ?? t);
      for (const r of Object.values(op.responses as Record<string, { description?: string }>)) if (r.description && RESPONSE_HE[r.description]) r.description = RESPONSE_HE[r.description];
    }
    (op.tags as string[]).forEach((t) => tagsSeen.add(t));
    (paths[templatePath(route.path)] ??= {})[route.method.toLowerCase()] = op;
  }
  const tagText = o.lang === 'he' ? TAGS_HE : TAGS_EN;
  const sites = o.part === 'sites';
  return {
    openapi: '3.1.0',
    info: {
      title: sites ? 'ViewStream Sites Delivery API' : 'ViewStream Management API',
      version: o.version,
      description: sites ? (o.lang === 'he' ? 'ממשק קריאה ציבורי של אתרים.' : 'The public, read-only Sites Delivery API.')
        : `${o.lang === 'he' ? INTRO_HE : intro()}\n\n${o.lang === 'he' ? DELIVERY_URLS_HE : DELIVERY_URLS_EN}`,
      'x-language': o.lang,
    },
    servers: [{ url: o.baseUrl, description: o.lang === 'he' ? 'השרת הזה' : 'this appliance' }],
    security: sites ? [] : [{ apiKey: [] }],
    tags: [...tagsSeen].map((name) => ({ name, description: tagText[name] ?? name })),
    paths,
    components: {
      schemas: { Problem: PROBLEM_SCHEMA },
      responses: problemResponses(used, o.lang),
      ...(sites ? {} : {
        securitySchemes: {
          apiKey: {
            type: 'http', scheme: 'bearer',
            description: o.lang === 'he' ? 'מפתח API (`vs_...`) שנוצר ב-POST /v1/api-keys או בפקודה `viewstream key create`.' : 'API key (`vs_...`) created with POST /v1/api-keys or `viewstream key create`.',
          },
        },
      }),
    },
  };
}
