import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestServer } from '../helpers/server';

/** A key of tenant `default` with a studio role (or explicit scopes). */
export async function keyFor(s: TestServer, o: { role?: string; scopes?: string[] }): Promise<string> {
  const r = await s.api('POST', '/v1/api-keys', { name: `mcp-${o.role ?? 'scoped'}`, ...o });
  if (r.status !== 201) throw new Error(`key create answered ${r.status}: ${await r.text()}`);
  return ((await r.json()) as { key: string }).key;
}

/** The official SDK client connected to /mcp with a bearer key. */
export async function connect(s: TestServer, key: string): Promise<Client> {
  const client = new Client({ name: 'viewstream-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  return client;
}

/** A raw POST to /mcp: JSON body (string bodies are sent as they are) and headers (defaults: JSON, key). */
export function rawMcp(s: TestServer, body: unknown, o: { key?: string | null; headers?: Record<string, string>; method?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...o.headers };
  const key = o.key === undefined ? s.key : o.key;
  if (key) headers.authorization = `Bearer ${key}`;
  return fetch(`${s.url}/mcp`, { method: o.method ?? 'POST', headers, body: typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body) });
}

/** The text of the first content item of a tool result. */
export function textOf(r: object): string {
  const c = ((r as { content?: unknown }).content as { type: string; text?: string }[] | undefined)?.[0];
  return c?.type === 'text' ? c.text ?? '' : '';
}
