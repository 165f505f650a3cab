import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../kernel/errors';
import { DOCS_EN } from './docs-en';
import { DOCS_HE } from './docs-he';
import type { OpenApiCatalogue } from './openapi-catalogue';

/** URI scheme of the assistant resources (`viewstream://docs/en/uploads`, `viewstream://openapi`). */
export const SCHEME = 'viewstream';
/** Documentation topics, each in English and Hebrew. */
export const DOC_TOPICS = Object.keys(DOCS_EN);
const LANGS = ['en', 'he'] as const;
const docsOf = (lang: string) => (lang === 'he' ? DOCS_HE : lang === 'en' ? DOCS_EN : null);
const one = (v: string | string[]) => (Array.isArray(v) ? v[0] : v);
/** The MCP specification's error code for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;
/** The MCP "resource not found" error for `uri`. */
export const resourceNotFound = (uri: URL) => new McpError(RESOURCE_NOT_FOUND, 'Resource not found', { uri: uri.href });
/** One document, looked up among the topics' own keys only (never `__proto__`, `constructor`, `toString`...). */
export function docOf(lang: string, topic: string): { title: string; text: string } | null {
  const docs = docsOf(lang);
  return docs && Object.hasOwn(docs, topic) ? docs[topic] : null;
}

/** Registers the documentation and OpenAPI resources on a per-request server. */
export function registerResources(mcp: McpServer, catalogue: OpenApiCatalogue): void {
  mcp.registerResource('docs', new ResourceTemplate(`${SCHEME}://docs/{lang}/{topic}`, {
    list: () => ({
      resources: LANGS.flatMap((lang) => DOC_TOPICS.map((topic) => ({
        uri: `${SCHEME}://docs/${lang}/${topic}`, name: `docs-${lang}-${topic}`, title: docsOf(lang)![topic].title, mimeType: 'text/markdown',
      }))),
    }),
    complete: { lang: () => [...LANGS], topic: () => DOC_TOPICS },
  }), { title: 'Documentation', description: `Guides in English (en) and Hebrew (he): ${DOC_TOPICS.join(', ')}`, mimeType: 'text/markdown' }, (uri, vars) => {
    const lang = one(vars.lang), topic = one(vars.topic);
    const doc = docOf(lang, topic);
    if (!doc) throw resourceNotFound(uri);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: doc.text, _meta: { lang, title: doc.title } }] };
  });
  mcp.registerResource('openapi', `${SCHEME}://openapi`, {
    title: 'Operation catalogue', mimeType: 'application/json',
    description: 'Every operation of the management API (operationId, method, path, summary, required scope) from the served OpenAPI document; read one with viewstream://openapi/{operationId}.',
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ openapi: '/openapi.json', operations: catalogue.list('en') }) }] }));
  mcp.registerResource('openapi-operation', new ResourceTemplate(`${SCHEME}://openapi/{operationId}`, { list: undefined }), {
    title: 'One API operation', mimeType: 'application/json', description: 'The OpenAPI operation object (parameters, body, responses) with its method and path.',
  }, (uri, vars) => {
    let op: Record<string, unknown>;
    try { op = catalogue.operation(one(vars.operationId), 'en'); } catch (e) { throw e instanceof AppError && e.status === 404 ? resourceNotFound(uri) : e; }
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(op) }] };
  });
}
