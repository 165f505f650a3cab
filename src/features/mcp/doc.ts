import { t } from 'elysia';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';

const Id = t.Union([t.String(), t.Integer()]);
const Message = t.Object({
  jsonrpc: t.Literal('2.0'), id: t.Optional(Id), method: t.String({ description: 'initialize, ping, tools/list, tools/call, resources/list, resources/read, resources/templates/list, prompts/list, prompts/get; notifications/*' }),
  params: t.Optional(t.Record(t.String(), t.Unknown())),
}, { additionalProperties: false });
const Answer = t.Object({
  jsonrpc: t.Literal('2.0'), id: t.Union([t.String(), t.Integer(), t.Null()]),
  result: t.Optional(t.Record(t.String(), t.Unknown())),
  error: t.Optional(t.Object({ code: t.Integer(), message: t.String(), data: t.Optional(t.Unknown()) })),
});

/** OpenAPI detail of POST /mcp (its Hebrew text is in meta/he/operations-support.ts). */
export const MCP_DOC = doc('Assistant', 'Call the assistant endpoint', 'קריאה לנקודת הקצה של העוזר',
  'Model Context Protocol over stateless Streamable HTTP (JSON answers, no session id, no server-initiated stream; GET answers 405). '
  + 'One JSON-RPC 2.0 message, or a batch of at most 20 for protocol revision 2025-03-26; each message of a batch counts as one request against the key\'s rate limit (429 with `Retry-After` past it). `MCP-Protocol-Version` (2025-11-25, 2025-06-18, 2025-03-26) is validated when sent (else 400); `Accept` must not exclude application/json; '
  + 'the body is at most 1 MiB (413) and JSON (415); a browser `Origin` other than the appliance answers 403; studio session cookies are refused (401 with `WWW-Authenticate: Bearer`). '
  + '`tools/list` shows the tools the key\'s scopes allow (reads: channels:read, assets:read, stats:read; writes: clips:write, assets:write, support:write; no delete tools). Tool results carry `structuredContent` and are capped at about 60 KB (`_truncated`); a failed tool answers `isError: true` with the problem detail. Every tool call is audited as `mcp.tool_call`. '
  + 'Resources: `viewstream://docs/{en|he}/{topic}`, `viewstream://openapi`, `viewstream://openapi/{operationId}`; an unknown one answers JSON-RPC error -32002 (resource not found). Notifications answer 202 with no body.',
  {
    security: [{ apiKey: [] }], 'x-required-scope': 'none (tools follow the key scopes)', 'x-problems': [400, 401, 403, 413, 415, 429],
    requestBody: { required: true, content: { 'application/json': { schema: t.Union([Message, t.Array(Message, { minItems: 1, maxItems: 20 })]) } } },
    ...answers({ 200: t.Union([Answer, t.Array(Answer)]) }),
  });
