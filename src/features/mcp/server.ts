import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Principal } from '../../kernel/http/auth';
import { AppError } from '../../kernel/errors';
import { clientIp } from '../../kernel/http/server';
import { API_VERSION } from '../meta/routes';
import { refusalOf, toolNamed, toolsFor } from './catalogue';
import type { OpenApiCatalogue } from './openapi-catalogue';
import type { AuditQueue } from './audit-queue';
import { registerPrompts } from './prompts';
import { registerResources } from './resources';
import { capResult, problemOf } from './result';
import type { Tool, ToolDef, ToolEnv } from './tool';

/** What one HTTP request asks for: the methods it carries and the tools it calls (decides what to register). */
export interface RequestPlan { methods: Set<string>; calls: Map<string | number, string> }

/** Per-request bookkeeping: tool calls that reached a handler (the rest are audited by the route). */
export interface CallLog { handled: Set<string | number> }

/**
 * What every request's server shares: the OpenAPI catalogue, the audit queue and one JSON Schema validator (the SDK
 * otherwise builds a new Ajv instance in every Server's constructor: most of a stateless request's cost).
 */
export interface McpDeps { catalogue: OpenApiCatalogue; audit: AuditQueue; validator: jsonSchemaValidator }

const INSTRUCTIONS = 'ViewStream video platform. Tools read the library, channels, catch-up, guide, jobs and statistics of the key\'s tenant, and (with write scopes) cut clips, register or edit assets and open support requests. Nothing can be deleted here. Guides: viewstream://docs/{en|he}/{topic}; API catalogue: viewstream://openapi.';

/** Summary of arguments for the audit log: keys with values cut to 80 characters. */
export function argsSummary(args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (args && typeof args === 'object') for (const [k, v] of Object.entries(args).slice(0, 20)) out[k] = (typeof v === 'string' ? v : JSON.stringify(v) ?? '').slice(0, 80);
  return out;
}

/** Queues one `mcp.tool_call` audit entry (key, tool, arguments summary, outcome, duration). */
export function auditCall(q: AuditQueue, p: Principal, req: Request, tool: string, args: unknown, outcome: string, ms: number, code?: string): void {
  q.add({ tenantId: p.tenantId, action: 'mcp.tool_call', actor: p, ip: clientIp(req), target: tool, details: { key: p.keyId, tool, arguments: argsSummary(args), outcome, ...(code ? { code } : {}), duration_ms: Math.round(ms * 10) / 10 } });
}

/** Registers one tool whose handler runs the service call, caps the result, turns failures into isError and audits. */
function registerTool(mcp: McpServer, def: Tool, env: ToolEnv, req: Request, log: CallLog, q: AuditQueue): void {
  const handler = async (args: Record<string, unknown>, extra: { requestId: string | number }): Promise<CallToolResult> => {
    log.handled.add(extra.requestId);
    const t0 = performance.now();
    try {
      const value = capResult(await def.run(env, args as never));
      const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(value) }];
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
  mcp.registerTool(def.name, {
    title: def.title, description: def.description, inputSchema: def.inputObject, outputSchema: def.output,
    annotations: { title: def.title, readOnlyHint: !def.write, destructiveHint: false, idempotentHint: !def.write, openWorldHint: def.name === 'register_asset_from_url' },
  }, handler as never);
}

/** A tool the key may not use, registered only to answer a direct call with its refusal (insufficient_scope, feature_disabled). */
function registerRefusal(mcp: McpServer, def: ToolDef, env: ToolEnv, req: Request, log: CallLog, q: AuditQueue): void {
  mcp.registerTool(def.name, { title: def.title, description: def.description }, ((extra: { requestId: string | number }) => {
    log.handled.add(extra.requestId);
    const problem = problemOf(refusalOf(env.p, def) ?? new AppError('forbidden', def.name), env.ctx.config.problemsBase);
    auditCall(q, env.p, req, def.name, {}, 'error', 0, String(problem.title));
    return { content: [{ type: 'text', text: JSON.stringify(problem) }], isError: true };
  }) as never);
}

/**
 * The MCP server of one stateless request: registers only what the request needs — every allowed tool for
 * tools/list, the called tools for tools/call (a refusal stub for a known tool outside the key's scopes when the
 * request does not also list tools), resources and prompts for their methods. Capabilities are always declared.
 */
export function buildServer(env: ToolEnv, req: Request, plan: RequestPlan, deps: McpDeps, log: CallLog): McpServer {
  const mcp = new McpServer({ name: 'viewstream', title: 'ViewStream', version: API_VERSION }, {
    capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: deps.validator,
  });
  const allowed = new Set(toolsFor(env.p).map((t) => t.name));
  if (plan.methods.has('tools/list')) for (const name of allowed) registerTool(mcp, toolNamed(name)!, env, req, log, deps.audit);
  else {
    for (const name of new Set(plan.calls.values())) {
      const def = toolNamed(name);
      if (!def) continue;
      if (allowed.has(name)) registerTool(mcp, def, env, req, log, deps.audit);
      else registerRefusal(mcp, def, env, req, log, deps.audit);
    }
  }
  if ([...plan.methods].some((m) => m.startsWith('resources/'))) registerResources(mcp, deps.catalogue);
  if ([...plan.methods].some((m) => m.startsWith('prompts/'))) registerPrompts(mcp);
  return mcp;
}
