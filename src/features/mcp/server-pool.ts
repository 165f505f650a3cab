import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Tool } from './tool';
import type { Principal } from '../../kernel/http/auth';
import { DirectTransport } from './direct-transport';
import { toolsFor } from './catalogue';

/** How many idle servers one shape × tool set keeps, and how many shapes are kept at all. */
const IDLE_PER_KEY = 4;
const KEYS_MAX = 64;

/** A pooled server with the direct transport it stays connected to, and the key it goes back under. */
export interface Lease { server: McpServer; transport: DirectTransport; key: string }

/**
 * Idle MCP servers by shape and allowed tool set, each connected once to its own DirectTransport. Building a server
 * (SDK objects, handler maps, tool registration) was a fifth of a small call, and connecting and closing a transport
 * per request most of the rest; a lease serves one request at a time and goes back when its answer is out. The
 * request's key and bookkeeping reach the handlers through `authInfo`.
 */
export class ServerPool {
  private idle = new Map<string, Lease[]>();
  constructor(private build: (shape: 'list' | 'call', allowed: readonly Tool[]) => McpServer) {}

  /** An idle server for this shape and the key's tool set (built and connected when none waits). */
  take(shape: 'list' | 'call', p: Principal): Lease | Promise<Lease> {
    // What decides the tool set (toolsFor): the scopes and whether the tenant is CDN-only.
    const key = `${shape}:${p.cdnOnly ? 'cdn' : 'all'}:${[...p.scopes].join(' ')}`;
    // An idle lease is handed over synchronously (no promise turn on the common path).
    return this.idle.get(key)?.pop() ?? this.open(shape, p, key);
  }

  private async open(shape: 'list' | 'call', p: Principal, key: string): Promise<Lease> {
    const server = this.build(shape, toolsFor(p));
    const transport = new DirectTransport();
    await server.connect(transport);
    const entry = (server.server as unknown as { _onrequest?: unknown })._onrequest;
    if (typeof entry === 'function') transport.requestEntry = entry.bind(server.server) as DirectTransport['requestEntry'];
    return { server, transport, key };
  }

  /** Keeps the lease for the next request (closed when enough are idle). */
  give(lease: Lease): void {
    let list = this.idle.get(lease.key);
    if (!list) {
      if (this.idle.size >= KEYS_MAX) this.drop();
      list = [];
      this.idle.set(lease.key, list);
    }
    if (list.length < IDLE_PER_KEY) list.push(lease);
    else void lease.server.close().catch(() => {});
  }

  /** Closes and forgets every idle server. */
  drop(): void {
    for (const list of this.idle.values()) for (const l of list) void l.server.close().catch(() => {});
    this.idle.clear();
  }
}
