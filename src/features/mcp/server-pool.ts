import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Tool } from './tool';

/** How many idle servers one shape × tool set keeps, and how many shapes are kept at all. */
const IDLE_PER_KEY = 4;
const KEYS_MAX = 64;

/**
 * Idle MCP servers by shape and allowed tool set. Building a server (SDK objects, handler maps, tool registration)
 * was a fifth of a small call; the stateless transport stays one per request (the SDK refuses reuse), the server is
 * taken from here, connected to it, and given back once the answer is out and the transport closed. A server is
 * used by one request at a time; the request's key and bookkeeping reach its handlers through `authInfo`.
 */
export class ServerPool {
  private idle = new Map<string, McpServer[]>();
  constructor(private build: (shape: 'list' | 'call', allowed: readonly Tool[]) => McpServer) {}

  /** An idle server for this shape and tool set (built when none waits), with the key to give it back under. */
  take(shape: 'list' | 'call', allowed: readonly Tool[]): { server: McpServer; key: string } {
    const key = `${shape}:${allowed.map((t) => t.name).join(',')}`;
    const server = this.idle.get(key)?.pop() ?? this.build(shape, allowed);
    return { server, key };
  }

  /** Closes the server's transport and keeps the server for the next request (dropped when enough are idle). */
  async give(key: string, server: McpServer): Promise<void> {
    await server.close();
    let list = this.idle.get(key);
    if (!list) {
      if (this.idle.size >= KEYS_MAX) this.idle.clear();
      list = [];
      this.idle.set(key, list);
    }
    if (list.length < IDLE_PER_KEY) list.push(server);
  }
}
