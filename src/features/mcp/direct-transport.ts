import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';

const KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * A single JSON-RPC request the direct path takes: exactly `{jsonrpc: "2.0", id, method, params?}` with a string or
 * integer id and params an object without `_meta` — never looser than the SDK's own request check (a message the SDK
 * would not see as a request must not reach it here, where no transport answers for it). Everything else goes the
 * web-standard transport's way and gets its error answers.
 */
export function isPlainRequest(m: unknown): m is JSONRPCRequest {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return false;
  const r = m as Record<string, unknown>;
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string' || r.method === 'initialize') return false;
  if (typeof r.id !== 'string' && !(typeof r.id === 'number' && Number.isSafeInteger(r.id))) return false;
  for (const k in r) if (!KEYS.has(k)) return false;
  if (r.params === undefined) return true;
  return typeof r.params === 'object' && r.params !== null && !Array.isArray(r.params) && (r.params as Record<string, unknown>)._meta === undefined;
}

/**
 * An SDK `Transport` (the SDK's own extension point) that stays connected to one pooled McpServer for its whole life
 * and hands it one request at a time. The SDK server still dispatches, validates the request against the method's
 * schema, runs the handler and builds the JSON-RPC answer or error; this transport only carries the message in and the
 * answer out. Why not the web-standard transport for these requests: a stateless one must be built, connected and
 * closed per request, and it re-validates every message and every answer with zod (union parses, failed-parse error
 * objects, a header copy, a random stream id) — measured at about half of a small tool call's server time
 * (`bun scripts/bench/mcp.ts`). The web-standard transport keeps everything else: initialize, notifications,
 * batches and anything that is not a plain request (its own error answers).
 */
export class DirectTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private waiting: { id: RequestId; resolve: (m: JSONRPCMessage) => void } | null = null;
  /**
   * The protocol's own request entry, when the SDK has one (`Protocol._onrequest`, pinned by bun.lock and checked by
   * test/unit/mcp-direct-transport): `onmessage` first asks zod whether the message is a result, an error, a request or a
   * notification (two failed parses and one passed per request, ~35 µs), which isPlainRequest has already settled.
   */
  requestEntry: ((request: JSONRPCRequest, extra: { authInfo: AuthInfo }) => void) | null = null;

  /** Nothing to open: the server is called in process. */
  async start(): Promise<void> {}

  /** Tells the server the connection ended (the pool drops the server). */
  async close(): Promise<void> { this.waiting = null; this.onclose?.(); }

  /** The server's answer to the request in flight; notifications tied to it have nowhere to go in a JSON answer and are dropped (as in the SDK's JSON mode). */
  async send(message: JSONRPCMessage): Promise<void> {
    const w = this.waiting;
    const m = message as { id?: unknown; result?: unknown; error?: unknown };
    if (w && m.id === w.id && (m.result !== undefined || m.error !== undefined)) { this.waiting = null; w.resolve(message); }
  }

  /** Hands one request to the server and resolves with its answer (one request at a time per transport). */
  exchange(request: JSONRPCRequest, authInfo: AuthInfo): Promise<JSONRPCMessage> {
    if (this.waiting) return Promise.reject(new Error('direct transport already has a request in flight'));
    return new Promise((resolve) => {
      this.waiting = { id: request.id, resolve };
      if (this.requestEntry) this.requestEntry(request, { authInfo });
      else this.onmessage?.(request, { authInfo });
    });
  }
}
