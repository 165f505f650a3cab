import type { AnyElysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { notFound } from '../../kernel/errors';
import { buildOpenApi } from '../meta/openapi';
import { API_VERSION } from '../meta/routes';

/** One operation of the served OpenAPI document, as the catalogue lists it. */
export interface CatalogueEntry { operationId: string; method: string; path: string; summary: string; scope: string; tags: string[] }

/** The operation catalogue read from the served OpenAPI document (built once per app, lazily, like /openapi.json). */
export interface OpenApiCatalogue {
  /** Every operation (method, path, summary, required scope). */
  list(lang: 'en' | 'he'): CatalogueEntry[];
  /** One operation in full (parameters, body, responses), with its method and path; 404 when unknown. */
  operation(id: string, lang: 'en' | 'he'): Record<string, unknown>;
}

/** Builds the catalogue over `app()`'s route table with the meta feature's OpenAPI builder (in process). */
export function openApiCatalogue(ctx: AppContext, app: () => AnyElysia): OpenApiCatalogue {
  const docs = new Map<string, { entries: CatalogueEntry[]; ops: Map<string, Record<string, unknown>> }>();
  const load = (lang: 'en' | 'he') => {
    let d = docs.get(lang);
    if (d) return d;
    const doc = buildOpenApi(app(), { lang, part: 'management', baseUrl: ctx.config.baseUrl, version: API_VERSION });
    const entries: CatalogueEntry[] = [];
    const ops = new Map<string, Record<string, unknown>>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const [method, op] of Object.entries(item)) {
        const id = String(op.operationId);
        entries.push({ operationId: id, method: method.toUpperCase(), path, summary: String(op.summary ?? ''), scope: String(op['x-required-scope'] ?? 'none'), tags: (op.tags as string[]) ?? [] });
        ops.set(id, { method: method.toUpperCase(), path, ...op });
      }
    }
    d = { entries, ops };
    docs.set(lang, d);
    return d;
  };
  return {
    list: (lang) => load(lang).entries,
    operation(id, lang) {
      const op = load(lang).ops.get(id);
      if (!op) throw notFound(`operation ${id}`);
      return op;
    },
  };
}
