/** One OpenAPI operation from one Elysia route (its hooks' schemas and its `detail`). */
import { cleanSchema, isOptionalSchema } from './openapi-schema';
import { problemRef } from './openapi-problems';

type Json = Record<string, unknown>;

/** The parts of an Elysia route the document reads. */
export interface RouteLike { method: string; path: string; hooks?: unknown }

/** Detail keys that steer the builder and are not copied into the operation. */
const BUILDER_KEYS = new Set(['hide', 'x-summary-he', 'x-problems', 'tags', 'summary', 'description', 'responses', 'requestBody', 'security', 'operationId']);

/** `/v1/assets/` -> `/v1/assets`; `:id` -> `{id}`. */
export function templatePath(path: string): string {
  const p = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** A stable camelCase operation id from a summary: "Register an asset" -> `registerAsset`. */
export function operationIdOf(summary: string): string {
  const words = summary.replace(/['’]s\b/g, '').replace(/\([^)]*\)/g, (m) => m.slice(1, -1)).split(/[^A-Za-z0-9]+/).filter((w) => w && !/^(a|an|the)$/i.test(w));
  return words.map((w, i) => (i ? w[0].toUpperCase() + w.slice(1).toLowerCase() : w.toLowerCase())).join('');
}

const hooksOf = (r: RouteLike) => (r.hooks ?? {}) as { body?: unknown; query?: unknown; params?: unknown; response?: unknown; detail?: Json };

function parameters(r: RouteLike): Json[] {
  const h = hooksOf(r);
  const out: Json[] = [];
  const names = [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const pschema = h.params ? cleanSchema(h.params) : {};
  const pprops = (pschema.properties ?? {}) as Record<string, Json>;
  for (const n of names) out.push({ name: n, in: 'path', required: true, schema: pprops[n] ?? { type: 'string' } });
  if (h.query) {
    const q = cleanSchema(h.query);
    const req = new Set((q.required ?? []) as string[]);
    for (const [n, s] of Object.entries((q.properties ?? {}) as Record<string, Json>)) {
      const { description, ...schema } = s;
      out.push({ name: n, in: 'query', required: req.has(n), ...(description ? { description } : {}), schema });
    }
  }
  return out;
}

function requestBody(r: RouteLike): Json | undefined {
  const h = hooksOf(r);
  if (h.detail?.requestBody) return h.detail.requestBody as Json;
  if (!h.body) return undefined;
  const schema = cleanSchema(h.body);
  const props = Object.values((schema.properties ?? {}) as Record<string, Json>);
  const multipart = props.some((p) => p.contentMediaType === 'application/octet-stream');
  return { required: !isOptionalSchema(h.body), content: { [multipart ? 'multipart/form-data' : 'application/json']: { schema } } };
}

function successResponses(r: RouteLike): Record<string, Json> {
  const h = hooksOf(r);
  const out: Record<string, Json> = {};
  const res = h.response as Record<string, unknown> | undefined;
  if (res && typeof res === 'object') {
    const byStatus = 'type' in res || 'anyOf' in res ? { 200: res } : res;
    for (const [status, schema] of Object.entries(byStatus)) out[status] = { description: 'success', content: { 'application/json': { schema: cleanSchema(schema) } } };
  }
  for (const [status, resp] of Object.entries((h.detail?.responses ?? {}) as Record<string, Json>)) {
    const content = resp.content as Record<string, { schema?: unknown }> | undefined;
    out[status] = content
      ? { ...resp, content: Object.fromEntries(Object.entries(content).map(([type, c]) => [type, { ...c, schema: cleanSchema(c.schema) }])) }
      : { ...resp };
  }
  return out;
}

/** Problem statuses an operation can answer: from its key, body, path, query and the statuses its text names. */
export function problemStatuses(r: RouteLike, keyed: boolean, hasBody: boolean, description: string, rawBody = false): number[] {
  const h = hooksOf(r);
  const s = new Set<number>([500]);
  if (keyed) { s.add(401); s.add(403); s.add(429); }
  if (hasBody) { s.add(400); s.add(413); s.add(422); if (!rawBody) s.add(415); }
  if (h.query) s.add(422);
  if (/:[A-Za-z]/.test(r.path)) s.add(404);
  for (const m of description.matchAll(/\b(4\d\d|503)\b/g)) s.add(Number(m[1]));
  for (const n of (h.detail?.['x-problems'] ?? []) as number[]) s.add(n);
  return [...s].filter((n) => [400, 401, 403, 404, 409, 410, 411, 412, 413, 415, 422, 428, 429, 500, 503].includes(n)).sort((a, b) => a - b);
}

/** The operation text (summary and description) chosen by the caller for the document's language. */
export interface OpText { summary: string; description: string }

/** Builds the operation; `text` is the translated text when the document is not English. */
export function buildOperation(r: RouteLike, text: (id: string, en: OpText) => OpText, scopeLine: (scope: string) => string): { op: Json; problems: number[] } {
  const h = hooksOf(r);
  const d = h.detail ?? {};
  const summary = String(d.summary ?? '');
  const id = String(d.operationId ?? operationIdOf(summary));
  const keyed = Array.isArray(d.security) && d.security.length > 0;
  const body = requestBody(r);
  const en = { summary, description: String(d.description ?? '') };
  const raw = !!body && Object.keys(body.content as object).every((t) => t === 'application/octet-stream');
  const problems = problemStatuses(r, keyed, !!body, en.description, raw);
  const t = text(id, en);
  const scope = d['x-required-scope'] as string | undefined;
  const description = [t.description, keyed && scope ? scopeLine(scope) : ''].filter(Boolean).join('\n\n');
  const responses: Record<string, unknown> = { ...successResponses(r) };
  for (const p of problems) responses[p] = problemRef(p);
  const extra = Object.fromEntries(Object.entries(d).filter(([k]) => !BUILDER_KEYS.has(k)));
  const params = parameters(r);
  const op: Json = {
    operationId: id,
    tags: (d.tags as string[] | undefined) ?? ['Other'],
    summary: t.summary,
    ...(description ? { description } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
    security: keyed ? [{ apiKey: [] }] : [],
    ...extra,
  };
  return { op, problems };
}
