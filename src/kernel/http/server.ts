import { assignRequestId } from './request-id';
import { canonicalize } from './canonical';
import { announcesBody } from './body';
import { AppError, problemResponse } from '../errors';
import type { Server } from 'bun';

/** Where a request's client address comes from: the socket of its original request (read on first use), or known. */
type Peer = { srv: Server<undefined>; raw: Request; ip?: string | null } | { ip: string | null };
const peers = new WeakMap<Request, Peer>();

/** The client address of a request as seen by the socket (never a client-supplied header). */
export function clientIp(req: Request): string | null {
  const p = peers.get(req);
  if (!p) return null;
  // Asked for by few routes (delivery, sessions): the socket address is read only then.
  if (p.ip === undefined && 'srv' in p) p.ip = p.srv.requestIP(p.raw)?.address ?? null;
  return p.ip ?? null;
}

/** A running HTTP listener. */
export interface HttpServer { port: number; stop(graceS: number): Promise<void> }

/** Options of `serveApp`. */
export interface ServeOptions {
  port: number; host: string; maxBodyBytes: number; problemsBase?: string;
  /** SO_REUSEPORT: other processes (delivery workers) may listen on the same port and share its connections. */
  reusePort?: boolean;
  /** Listen on this Unix socket instead of TCP (requests forwarded by delivery workers). */
  unix?: string;
  /** Unix listener only: the header carrying the client address the forwarding worker saw (removed before routing). */
  peerHeader?: string;
}

const MANAGEMENT = /^\/(v1|mcp|healthz)(\/|$)/;

/**
 * Serves the app with Bun.serve. Every request is first reduced to one canonical target (malformed Host or path →
 * 400 before routing), so the router and every check after it read the same path. Adds `X-Request-Id` to every
 * response, `Cache-Control: no-store` to management responses that set no cache policy themselves, and
 * `Connection: close` when an answer leaves the request body unread (the rest of it must never be read as the next
 * request on a kept-alive connection).
 */
export function serveApp(handle: (req: Request) => Response | Promise<Response>, opts: ServeOptions): HttpServer {
  let inflight = 0;
  const peer = opts.unix ? opts.peerHeader ?? null : null;
  const goodHosts = new Set<string>();
  // One options object, TCP or Unix socket (Bun's overloads do not accept a union of the two).
  const listen = (opts.unix ? { unix: opts.unix } : { port: opts.port, hostname: opts.host, reusePort: opts.reusePort ?? false }) as unknown as { port: number };
  const server = Bun.serve({
    ...listen,
    maxRequestBodySize: opts.maxBodyBytes,
    idleTimeout: 120,
    development: false,
    async fetch(req, srv) {
      inflight++;
      try {
        let forwarded: string | null = null;
        if (peer) { forwarded = req.headers.get(peer) || null; req.headers.delete(peer); }
        const canon = canonicalize(req, goodHosts);
        if (typeof canon === 'string') {
          const id = assignRequestId(req);
          const detail = canon === 'bad_host' ? 'malformed Host header' : 'malformed request target';
          return problemResponse(new AppError('bad_request', detail), opts.problemsBase ?? '/problems', id, { connection: 'close' });
        }
        const r = canon.request;
        const id = assignRequestId(r);
        peers.set(r, peer ? { ip: forwarded } : { srv, raw: req });
        let res = await handle(r);
        try {
          res.headers.set('x-request-id', id);
        } catch {
          res = new Response(res.body, res);
          res.headers.set('x-request-id', id);
        }
        if (!res.headers.has('cache-control') && MANAGEMENT.test(canon.path)) res.headers.set('cache-control', 'no-store');
        if (res.status >= 400 && !r.bodyUsed && announcesBody(r)) res.headers.set('connection', 'close');
        return res;
      } finally {
        inflight--;
      }
    },
  });
  return {
    port: server.port ?? 0,
    async stop(graceS: number) {
      const done = server.stop(false);
      const deadline = Date.now() + graceS * 1000;
      while (inflight > 0 && Date.now() < deadline) await Bun.sleep(20);
      await Promise.race([done, Bun.sleep(Math.max(0, deadline - Date.now()))]);
      server.stop(true);
    },
  };
}
