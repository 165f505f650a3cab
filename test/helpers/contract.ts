/**
 * Response validation against the served OpenAPI document (Ajv, JSON Schema 2020-12): finds the operation by
 * method and path template, the documented response by status, and checks the media type and the body.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

type Json = Record<string, unknown>;
/** The parts of an OpenAPI document the checker reads. */
export interface OpenApiDoc { paths: Record<string, Record<string, Json>>; components?: Json }

/** One difference between a real answer and the document. */
export interface Violation { method: string; path: string; status: number; problem: string }

/** A checker bound to one document. */
export interface Contract {
  /** Validates one answer (reads a clone of it); returns the violations found (empty when it matches). */
  check(method: string, url: string, res: Response): Promise<Violation[]>;
  /** `method path-template` of every operation checked so far. */
  seen: Set<string>;
}

/** Builds a checker for `doc` (as served at /openapi.json). */
export function contractOf(doc: OpenApiDoc): Contract {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components ?? {} });
  const cache = new Map<string, ValidateFunction>();
  const compile = (key: string, schema: unknown) => {
    let v = cache.get(key);
    if (!v) {
      const text = JSON.stringify(schema ?? {}).replaceAll('"#/components/', '"doc#/components/');
      v = ajv.compile(JSON.parse(text));
      cache.set(key, v);
    }
    return v;
  };
  const templates = Object.keys(doc.paths).map((t) => ({
    t, re: new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`), params: (t.match(/\{/g) ?? []).length,
  })).sort((a, b) => a.params - b.params); // static segments win, like the router
  const resolve = (r: Json): Json => {
    const ref = r.$ref as string | undefined;
    if (!ref) return r;
    const parts = ref.replace(/^#\//, '').split('/');
    let cur: unknown = doc;
    for (const p of parts) cur = (cur as Json)[p];
    return cur as Json;
  };
  const seen = new Set<string>();
  return {
    seen,
    async check(method, url, res) {
      const path = new URL(url, 'http://x').pathname.replace(/(.)\/$/, '$1');
      const m = method.toLowerCase();
      const v = (problem: string): Violation[] => [{ method, path, status: res.status, problem }];
      const tpl = templates.find((x) => x.re.test(path) && doc.paths[x.t][m]);
      if (!tpl) return v('no documented operation');
      seen.add(`${method.toUpperCase()} ${tpl.t}`);
      const op = doc.paths[tpl.t][m] as { responses: Record<string, Json> };
      const documented = op.responses[String(res.status)];
      if (!documented) return v(`status ${res.status} is not documented (has ${Object.keys(op.responses).join(', ')})`);
      const resp = resolve(documented);
      const content = resp.content as Record<string, { schema?: unknown }> | undefined;
      const type = (res.headers.get('content-type') ?? '').split(';')[0].trim();
      if (!content) {
        const body = type === 'text/event-stream' ? '' : await res.clone().text();
        return body.length ? v(`documented without a body, answered ${body.length} bytes`) : [];
      }
      const media = content[type];
      if (!media) return v(`content-type ${type || '(none)'} is not documented (${Object.keys(content).join(', ')})`);
      // Only JSON bodies are read (a stream such as text/event-stream never ends).
      if (!type.includes('json')) return [];
      const body = await res.clone().text();
      let data: unknown;
      try { data = JSON.parse(body); } catch { return v('body is not JSON'); }
      const validate = compile(`${m} ${tpl.t} ${res.status} ${type}`, media.schema);
      if (validate(data)) return [];
      return v(ajv.errorsText(validate.errors, { separator: '; ' }) + ` — body ${body.slice(0, 300)}`);
    },
  };
}
