import { Elysia, type AnyElysia } from 'elysia';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { hidden } from '../../kernel/http/plugin';
import { readLimited } from '../../kernel/http/body';
import { BATCH_MAX, MCP_BODY_MAX, PROTOCOL_VERSIONS, chargeBatch, checkHeaders, checkOrigin, mcpPrincipal } from './http-rules';
import { openApiCatalogue } from './openapi-catalogue';
import { auditCall, authInfoOf, buildPooledServer, buildServer, type CallLog, type McpDeps, type RequestPlan } from './server';
import { isPlainRequest } from './direct-transport';
import { ServerPool } from './server-pool';
import { auditQueue } from './audit-queue';
import { MCP_DOC } from './doc';

const JSON_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' };

/** A JSON-RPC error answered before the SDK sees the message (parse error, invalid request, batch rules). */
function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), { status, headers: JSON_HEADERS });
}

/** Methods and tool calls of the parsed message(s); null when a message is not a JSON-RPC object. */
function planOf(msgs: unknown[]): RequestPlan | null {
  const plan: RequestPlan = { methods: new Set(), calls: new Map(), args: new Map() };
  for (const m of msgs) {
    if (!m || typeof m !== 'object' || Array.isArray(m)) return null;
    const { method, id, params } = m as { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } };
    if (typeof method !== 'string') continue;
    plan.methods.add(method);
    if (method === 'tools/call' && (typeof id === 'string' || typeof id === 'number') && typeof params?.name === 'string') { plan.calls.set(id, params.name); plan.args.set(id, params.arguments); }
  }
  return plan;
}

/**
 * POST /mcp: the assistant endpoint over the official MCP SDK, JSON answers. A single plain request goes to a pooled
 * McpServer over its direct transport (direct-transport.ts says why); initialize, notifications and batches to a server
 * built for the request behind the SDK's stateless web-standard Streamable HTTP transport. Transport rules are checked here first: origin (403),
 * key (401/403), Accept (406), Content-Type (415), MCP-Protocol-Version (400), body ≤ 1 MiB (413), batches only
 * for 2025-03-26 and at most 20, each message charged as one request (429). GET answers 405 with `Allow: POST` (no server-initiated stream).
 */
export function mcpRoutes(ctx: AppContext, app: () => AnyElysia) {
  const deps: McpDeps = {
    catalogue: openApiCatalogue(ctx, app), audit: auditQueue(ctx), validator: new AjvJsonSchemaValidator(),
    pool: new ServerPool((shape, allowed) => buildPooledServer(shape, allowed, deps)),
  };
  return new Elysia()
    .get('/mcp', () => { throw new AppError('method_not_allowed', '/mcp opens no server-initiated stream; send JSON-RPC with POST', { headers: { allow: 'POST' } }); }, { detail: hidden })
    .post('/mcp', async ({ request }) => {
      checkOrigin(ctx, request);
      const p = mcpPrincipal(ctx, request);
      const version = checkHeaders(request);
      const text = await readLimited(request, MCP_BODY_MAX);
      let body: unknown;
      try { body = JSON.parse(text); } catch { return rpcError(400, -32700, 'Parse error: the body is not valid JSON'); }
      const batch = Array.isArray(body);
      if (batch) {
        if (version !== null && version !== '2025-03-26') return rpcError(400, -32600, `Invalid Request: batches exist only in protocol revision 2025-03-26 (this request says ${version})`);
        if ((body as unknown[]).length === 0) return rpcError(400, -32600, 'Invalid Request: empty batch');
        if ((body as unknown[]).length > BATCH_MAX) return rpcError(400, -32600, `Invalid Request: a batch carries at most ${BATCH_MAX} messages`);
        chargeBatch(ctx, p, (body as unknown[]).length);
      }
      const plan = planOf(batch ? body as unknown[] : [body]);
      if (!plan) return rpcError(400, -32600, 'Invalid Request: a message must be a JSON-RPC object');
      if (plan.methods.has('initialize')) offerOurVersions(body);
      const log: CallLog = { handled: new Set() };
      const t0 = performance.now();
      const authInfo = authInfoOf({ env: { ctx, p }, req: request, log, args: plan.args });
      // Tool calls the SDK refused before a handler ran (bad arguments, unknown tool) are audited here.
      const auditRefused = () => { for (const [id, name] of plan.calls) if (!log.handled.has(id)) auditCall(deps.audit, p, request, name, plan.args.get(id), 'rejected', performance.now() - t0); };
      if (isPlainRequest(body)) {
        // The common case — one request, not initialize: a pooled server over its direct transport.
        const taken = deps.pool.take(plan.methods.has('tools/list') ? 'list' : 'call', p);
        const lease = taken instanceof Promise ? await taken : taken;
        try {
          const answer = await lease.transport.exchange(body, authInfo);
          auditRefused();
          return new Response(JSON.stringify(answer), { headers: JSON_HEADERS });
        } finally { deps.pool.give(lease); }
      }
      // initialize, notifications, batches and anything the SDK must judge: the web-standard transport on a server
      // built for the request (initialize's answer shows the capabilities as registered).
      const server = buildServer(p, plan, deps);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        const res = await transport.handleRequest(sdkRequest(request, version), { parsedBody: body, authInfo });
        auditRefused();
        res.headers.set('cache-control', 'no-store');
        return res;
      } finally {
        // Closed after the answer is handed over.
        setImmediate(() => { void server.close().catch(() => {}); });
      }
    }, { parse: 'none', detail: MCP_DOC });
}

/**
 * The request as the SDK's transport checks it. The SDK wants both media types in Accept even in JSON mode and exactly
 * application/json as Content-Type; our own, wider rules were checked already. A request that already meets the SDK's
 * is handed over as it is (the usual client), otherwise a stand-in with those headers (and the version sent).
 */
function sdkRequest(request: Request, version: string | null): Request {
  const accept = request.headers.get('accept') ?? '';
  const ct = request.headers.get('content-type')?.toLowerCase() ?? '';
  if (accept.includes('application/json') && accept.includes('text/event-stream') && (ct === 'application/json' || ct.startsWith('application/json;'))) return request;
  const headers = new Headers({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
  if (version) headers.set('mcp-protocol-version', version);
  return new Request(request.url, { method: 'POST', headers });
}

/**
 * Version negotiation: the SDK echoes any revision it knows (2024 ones too), but this API speaks only
 * PROTOCOL_VERSIONS; an initialize asking for another revision is answered with the newest one we speak.
 */
function offerOurVersions(body: unknown): void {
  for (const m of Array.isArray(body) ? body : [body]) {
    const msg = m as { method?: unknown; params?: { protocolVersion?: unknown } };
    if (msg.method === 'initialize' && msg.params && typeof msg.params === 'object' && !(PROTOCOL_VERSIONS as readonly unknown[]).includes(msg.params.protocolVersion)) {
      msg.params.protocolVersion = PROTOCOL_VERSIONS[0];
    }
  }
}
