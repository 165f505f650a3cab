import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Principal } from '../../kernel/http/auth';
import { AppError } from '../../kernel/errors';
import { clientIp } from '../../kernel/http/server';
import { API_VERSION } from '../meta/routes';
import { TOOLS, refusalOf, toolNamed, toolsFor } from './catalogue';
import type { OpenApiCatalogue } from './openapi-catalogue';
import type { AuditQueue } from './audit-queue';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';
import { cappedWithText, problemOf } from './result';
import type { Tool, ToolDef, ToolEnv } from './tool';
import type { ServerPool } from './server-pool';
import { checkArgs } from './tool-args';

/** What one HTTP request asks for: the methods it carries, the tools it calls and their arguments (by request id). */
export interface RequestPlan { methods: Set<string>; calls: Map<string | number, string>; args: Map<string | number, unknown> }

/** Per-request bookkeeping: tool calls that reached a handler (the rest are audited by the route). */
export interface CallLog { handled: Set<string | number> }

/**
 * What the handlers of one HTTP request need. It reaches them through the transport's `authInfo.extra` (the SDK hands
 * it to every handler as `extra.authInfo`), so one server object can answer many requests, one at a time.
 */
export interface CallCtx { env: ToolEnv; req: Request; log: CallLog; args: ReadonlyMap<string | number, unknown> }

type HandlerExtra = { requestId: string | number; authInfo?: { extra?: Record<string, unknown> } };

/** The request context a handler runs for (set by the route on every request). */
function callOf(extra: HandlerExtra): CallCtx {
  const c = extra.authInfo?.extra?.call as CallCtx | undefined;
  if (!c) throw new Error('mcp handler called without its request context');
  return c;
}

/** The transport `authInfo` carrying a request's context to the handlers. */
export function authInfoOf(call: CallCtx): { token: string; clientId: string; scopes: string[]; extra: { call: CallCtx } } {
  return { token: '', clientId: call.env.p.keyId ?? '', scopes: [...call.env.p.scopes], extra: { call } };
}

/**
 * What every request's server shares: the OpenAPI catalogue, the audit queue and one JSON Schema validator (the SDK
 * otherwise builds a new Ajv instance in every Server's constructor: most of a stateless request's cost).
 */
export interface McpDeps { catalogue: OpenApiCatalogue; audit: AuditQueue; validator: jsonSchemaValidator; pool: ServerPool }

const INSTRUCTIONS = 'ViewStream video platform. Tools read the library, channels, catch-up, guide, jobs and statistics of the key\'s tenant, and (with write scopes) cut clips, register or edit assets and open support requests. Nothing can be deleted here. Guides: viewstream://docs/{en|he}/{topic}; API catalogue: viewstream://openapi.';

/** Summary of arguments for the audit log: keys with values cut to 80 characters. */
export function argsSummary(args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (args && typeof args === 'object') for (const [k, v] of Object.entries(args).slice(0, 20)) out[k] = (typeof v === 'string' ? v : JSON.stringify(v) ?? '').slice(0, 80);
  return out;
}

/** Queues one `mcp.tool_call` audit entry (key, tool, arguments summary, outcome, duration); the entry is built when the queue writes it, off the call's path. */
export function auditCall(q: AuditQueue, p: Principal, req: Request, tool: string, args: unknown, outcome: string, ms: number, code?: string): void {
  const ip = clientIp(req);
  q.add(() => ({ tenantId: p.tenantId, action: 'mcp.tool_call', actor: p, ip, target: tool, details: { key: p.keyId, tool, arguments: argsSummary(args), outcome, ...(code ? { code } : {}), duration_ms: Math.round(ms * 10) / 10 } }));
}

/**
 * Registers one tool whose handler runs the service call, caps the result, turns failures into isError and audits.
 * `full`: with its input and output schemas, as tools/list shows them. `call` (servers that only answer calls): no
 * schemas on the SDK's registration, so the SDK neither parses the arguments asynchronously nor every result again;
 * the handler checks the arguments itself (checkArgs: same refusal text) and the result is ours by construction.
 */
function registerTool(mcp: McpServer, def: Tool, q: AuditQueue, mode: 'full' | 'call' = 'full'): void {
  const run = async (c: CallCtx, args: Record<string, unknown>, requestId: string | number): Promise<CallToolResult> => {
    const { env, req, log } = c;
    log.handled.add(requestId);
    const t0 = performance.now();
    try {
      const { value, text } = cappedWithText(await def.run(env, args as never));
      const content: CallToolResult['content'] = [{ type: 'text', text }];
      for (const l of def.links?.(value) ?? []) content.push({ type: 'resource_link', ...l });
      auditCall(q, env.p, req, def.name, args, 'ok', performance.now() - t0);
      return { content, structuredContent: value };
    } catch (e) {
      if (!(e instanceof AppError)) env.ctx.log.error('mcp tool failed', { tool: def.name, error: String((e as Error)?.stack ?? e) });
      const problem = problemOf(e, env.ctx.config.problemsBase);
      auditCall(q, env.p, req, def.name, args, 'error', performance.now() - t0, String(problem.title));
      return { content: [{ type: 'text', text: JSON.stringify(problem) }], isError: true };
    }
  };
  const annotations = { title: def.title, readOnlyHint: !def.write, destructiveHint: false, idempotentHint: !def.write, openWorldHint: def.name === 'register_asset_from_url' };
  if (mode === 'full') {
    const handler = (args: Record<string, unknown>, extra: HandlerExtra) => run(callOf(extra), args, extra.requestId);
    mcp.registerTool(def.name, { title: def.title, description: def.description, inputSchema: def.inputObject, outputSchema: def.output, annotations }, handler as never);
    return;
  }
  const checked = async (extra: HandlerExtra): Promise<CallToolResult> => {
    const c = callOf(extra);
    const raw = c.args.get(extra.requestId);
    const a = checkArgs(def.name, def.inputObject, raw);
    if (a.ok) return run(c, a.args, extra.requestId);
    c.log.handled.add(extra.requestId);
    auditCall(q, c.env.p, c.req, def.name, raw, 'rejected', 0);
    return { content: [{ type: 'text', text: a.text }], isError: true };
  };
  mcp.registerTool(def.name, { title: def.title, description: def.description, annotations }, checked as never);
}

/** A tool the key may not use, registered only to answer a direct call with its refusal (insufficient_scope, feature_disabled). */
function registerRefusal(mcp: McpServer, def: ToolDef, q: AuditQueue): void {
  mcp.registerTool(def.name, { title: def.title, description: def.description }, ((extra: HandlerExtra) => {
    const { env, req, log } = callOf(extra);
    log.handled.add(extra.requestId);
    const problem = problemOf(refusalOf(env.p, def) ?? new AppError('forbidden', def.name), env.ctx.config.problemsBase);
    auditCall(q, env.p, req, def.name, {}, 'error', 0, String(problem.title));
    return { content: [{ type: 'text', text: JSON.stringify(problem) }], isError: true };
  }) as never);
}

const newServer = (deps: McpDeps) => new McpServer({ name: 'viewstream', title: 'ViewStream', version: API_VERSION }, {
  capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: deps.validator,
});

/**
 * The MCP server of one stateless request: registers only what the request needs — every allowed tool for
 * tools/list, the called tools for tools/call (a refusal stub for a known tool outside the key's scopes when the
 * request does not also list tools), resources and prompts for their methods. Capabilities are always declared.
 * Used for `initialize` (its answer lists capabilities exactly as registered); other requests use a pooled server.
 */
export function buildServer(p: Principal, plan: RequestPlan, deps: McpDeps): McpServer {
  const mcp = newServer(deps);
  const allowed = new Set(toolsFor(p).map((t) => t.name));
  if (plan.methods.has('tools/list')) for (const name of allowed) registerTool(mcp, toolNamed(name)!, deps.audit);
  else {
    for (const name of new Set(plan.calls.values())) {
      const def = toolNamed(name);
      if (!def) continue;
      if (allowed.has(name)) registerTool(mcp, def, deps.audit);
      else registerRefusal(mcp, def, deps.audit);
    }
  }
  if ([...plan.methods].some((m) => m.startsWith('resources/'))) registerResources(mcp, deps.catalogue);
  if ([...plan.methods].some((m) => m.startsWith('prompts/'))) registerPrompts(mcp);
  return mcp;
}

/**
 * A server that answers any request of its shape for keys with the same allowed tools: `list` registers the allowed
 * tools with their schemas (tools/list shows exactly those); `call` registers them without schemas (arguments are
 * checked by the handler) plus a refusal stub for every other tool. Both carry the resources and prompts.
 */
export function buildPooledServer(shape: 'list' | 'call', allowed: readonly Tool[], deps: McpDeps): McpServer {
  const mcp = newServer(deps);
  const names = new Set(allowed.map((t) => t.name));
  for (const t of allowed) registerTool(mcp, t, deps.audit, shape === 'list' ? 'full' : 'call');
  if (shape === 'call') for (const t of TOOLS) if (!names.has(t.name)) registerRefusal(mcp, t, deps.audit);
  registerResources(mcp, deps.catalogue);
  registerPrompts(mcp);
  return mcp;
}
