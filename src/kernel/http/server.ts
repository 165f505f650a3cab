import { assignRequestId } from './request-id';
import { splitUrl } from './url';

const clientIps = new WeakMap<Request, string>();

/** The client address of a request as seen by the socket (never a client-supplied header). */
export function clientIp(req: Request): string | null {
  return clientIps.get(req) ?? null;
}

/** A running HTTP listener. */
export interface HttpServer { port: number; stop(graceS: number): Promise<void> }

const MANAGEMENT = /^\/(v1|mcp|healthz)(\/|$)/;

/**
 * Serves the app with Bun.serve, adding `X-Request-Id` to every response and `Cache-Control: no-store` to
 * management responses that set no cache policy themselves.
 */
export function serveApp(handle: (req: Request) => Response | Promise<Response>, opts: { port: number; host: string; maxBodyBytes: number }): HttpServer {
  let inflight = 0;
  const server = Bun.serve({
    port: opts.port,
    hostname: opts.host,
    maxRequestBodySize: opts.maxBodyBytes,
    idleTimeout: 120,
    development: false,
    async fetch(req, srv) {
      inflight++;
      try {
        const id = assignRequestId(req);
        const ip = srv.requestIP(req);
        if (ip) clientIps.set(req, ip.address);
        let res = await handle(req);
        try {
          res.headers.set('x-request-id', id);
        } catch {
          res = new Response(res.body, res);
          res.headers.set('x-request-id', id);
        }
        if (!res.headers.has('cache-control') && MANAGEMENT.test(splitUrl(req.url).path)) res.headers.set('cache-control', 'no-store');
        return res;
      } finally {
        inflight--;
      }
    },
  });
  return {
    port: server.port!,
    async stop(graceS: number) {
      const done = server.stop(false);
      const deadline = Date.now() + graceS * 1000;
      while (inflight > 0 && Date.now() < deadline) await Bun.sleep(20);
      await Promise.race([done, Bun.sleep(Math.max(0, deadline - Date.now()))]);
      server.stop(true);
    },
  };
}
