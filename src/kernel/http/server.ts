import { assignRequestId, keepRequestId, makeRequestId } from './request-id';
import { canonicalize, rawSegmentsClean, rawTargetPatterns, type KnownTarget } from './canonical';
import { ExactPaths } from './exact-routes';
import { announcesBody } from './body';
import { hasKernelHeaders } from './answer';
import { accelAnswer, markViaFront } from './accel';
import { AppError, problemResponse } from '../errors';
import type { FastLanes } from './fast-lane';
import type { Server } from 'bun';

/** Where a request's client address comes from: the socket of its original request (read on first use), or known. */
type Peer = { srv: Server<undefined>; raw: Request; ip?: string | null } | { ip: string | null };
/** The request's Peer, kept on the Request itself (a WeakMap entry costs ~5x more per request). */
const PEER = Symbol('vs.peer');
type WithPeer = Request & { [PEER]?: Peer };

/** The client address of a request as seen by the socket (never a client-supplied header). */
export function clientIp(req: Request): string | null {
  const p = (req as WithPeer)[PEER];
  if (!p) return null;
  // Asked for by few routes (delivery, sessions): the socket address is read only then.
  if (p.ip === undefined && 'srv' in p) p.ip = p.srv.requestIP(p.raw)?.address ?? null;
  return p.ip ?? null;
}

/** A running HTTP listener. */
export interface HttpServer {
  port: number; stop(graceS: number): Promise<void>;
  /** The paths the TCP router matches exactly now (see exact-routes.ts); empty on a Unix listener. */
  exactPaths(): readonly string[];
}

/** How a TCP listener with fast lanes chooses exact routes (see exact-routes.ts). */
export interface ExactRouteOptions {
  /** At most this many paths. */
  max: number;
  /** Lane answers a path needs in one period to be (or stay) routed exactly. */
  minAnswers: number;
  /** How often the choice is made (and the router reloaded when it changed). */
  periodMs: number;
}

/** 64 paths answered at least 5 times a second on average, chosen every 10 s. */
const EXACT_DEFAULTS: ExactRouteOptions = { max: 64, minAnswers: 50, periodMs: 10_000 };

/** Options of `serveApp`. */
export interface ServeOptions {
  port: number; host: string; maxBodyBytes: number; problemsBase?: string;
  /** SO_REUSEPORT: other processes (delivery workers) may listen on the same port and share its connections. */
  reusePort?: boolean;
  /** Listen on this Unix socket instead of TCP (requests forwarded by delivery workers). */
  unix?: string;
  /** Unix listener only: the header carrying the client address the forwarding worker saw (removed before routing). */
  peerHeader?: string;
  /**
   * Unix listener of a native delivery front only: file answers under this directory (the data dir) leave as
   * `X-Accel-Redirect` answers for the front to send (`accelAnswer`).
   */
  accelRoot?: string;
  /**
   * Answers given before the app's handler (see fast-lane.ts), read per request: features may add lanes after the
   * server started (the app is built once its address is known).
   */
  lanes?: FastLanes;
  /** TCP listener with lanes only: exact routes for the paths lanes answer most (defaults EXACT_DEFAULTS; false: none). */
  exactRoutes?: ExactRouteOptions | false;
}

/** Seconds a connection may send and receive nothing before the server closes it (also bounds `fdCache`'s grace). */
export const IDLE_TIMEOUT_S = 120;

const MANAGEMENT = /^\/(v1|mcp|healthz)(\/|$)/;

/**
 * Serves the app with Bun.serve. On a TCP listener the RAW request target is judged first: Bun's router matches it
 * unnormalised against `rawTargetPatterns`, and a raw segment that is a dot segment in any spelling or holds a
 * backslash (which `request.url` would already have resolved away) is refused with 400, as is a raw target no pattern
 * matches. (Unix listeners take requests from this appliance's own nginx front, which forwards only targets equal to
 * the URI it matched, and from its delivery workers, which judged them already.) Every request is then reduced to one
 * canonical target (malformed Host or path → 400 before routing), so the router and every check after it read the
 * same path. Adds `X-Request-Id` to every response, `Cache-Control: no-store` to management and /t/ responses that
 * set no cache policy themselves, and `Connection: close` when an answer leaves the request body unread (the rest of
 * it must never be read as the next request on a kept-alive connection). A request under a fast lane's prefix
 * (`opts.lanes`) is offered to that lane after all of the above and before `handle`, with its request id as an
 * argument: the id and the peer address are kept on the Request (`requestId`, `clientIp`) only when the app answers.
 * The paths lanes answer most get exact routes in the TCP router (exact-routes.ts): a raw target equal to one is clean
 * as it stands and skips the raw-segment judge, nothing else.
 */
export function serveApp(handle: (req: Request) => Response | Promise<Response>, opts: ServeOptions): HttpServer {
  let inflight = 0;
  const peer = opts.unix ? opts.peerHeader ?? null : null;
  const accelRoot = opts.unix ? opts.accelRoot ?? null : null;
  const lanes = opts.lanes ?? null;
  const exact = lanes !== null && !opts.unix && opts.exactRoutes !== false ? opts.exactRoutes ?? EXACT_DEFAULTS : null;
  const chooser = exact ? new ExactPaths(exact.max, exact.minAnswers) : null;
  const goodHosts = new Set<string>();
  const knownUrls = new Map<string, KnownTarget>();
  const problemsBase = opts.problemsBase ?? '/problems';
  /**
   * Adds the kernel's headers to an answer and ends its in-flight count. A fast lane's answer (`lane`) carries them
   * already (the lane's contract); the checks of status and method apply to it as to any answer.
   */
  const finish = (res: Response, r: Request, id: string, path: string, lane = false): Response => {
    inflight--;
    if (accelRoot) res = accelAnswer(r, res, accelRoot) ?? res;
    // Answers built with the kernel's headers (managementJson, fast lanes) need no second pass over their headers.
    if (!lane && !hasKernelHeaders(res, id)) {
      let h = res.headers;
      try {
        h.set('x-request-id', id);
      } catch {
        res = new Response(res.body, res);
        h = res.headers;
        h.set('x-request-id', id);
      }
      // A /t/ answer without a policy of its own is not public media: never kept under the token's shared URL.
      if ((MANAGEMENT.test(path) || path.startsWith('/t/')) && !h.has('cache-control')) h.set('cache-control', 'no-store');
    }
    if (res.status >= 400 && !r.bodyUsed && announcesBody(r)) res.headers.set('connection', 'close');
    // A HEAD answer leaves with no body at all: given one (serveFile's stand-in of the right length), Bun 1.4 drops the
    // explicit Content-Length and announces chunked encoding instead (1.3 kept it).
    if (r.method === 'HEAD' && res.body !== null) return new Response(null, { status: res.status, statusText: res.statusText, headers: res.headers });
    return res;
  };
  const failed = (e: unknown): never => { inflight--; throw e; };
  /** A 400 problem for a request refused before routing (its connection is closed). */
  const refuse = (req: Request, detail: string): Response =>
    problemResponse(new AppError('bad_request', detail), problemsBase, assignRequestId(req), { connection: 'close' });
  // One options object, TCP or Unix socket (Bun's overloads do not accept a union of the two).
  const listen = (opts.unix ? { unix: opts.unix } : { port: opts.port, hostname: opts.host, reusePort: opts.reusePort ?? false }) as unknown as { port: number };
  // Synchronous when the app answers synchronously (most GETs): no promise or microtask on that path.
  const serve = (req: Request, srv: Server<undefined>): Response | Promise<Response> => {
    inflight++;
    let out: Response | Promise<Response>, r: Request, id: string, path: string, fast: Response | undefined;
    try {
      let forwarded: string | null = null;
      if (peer) { forwarded = req.headers.get(peer) || null; req.headers.delete(peer); }
      const canon = canonicalize(req, goodHosts, knownUrls);
      if (typeof canon === 'string') {
        inflight--;
        return refuse(req, canon === 'bad_host' ? 'malformed Host header' : 'malformed request target');
      }
      r = canon.request;
      path = canon.path;
      id = makeRequestId(r);
      // A fast lane's answer (built with the kernel's headers; the lane is given the id, the Request carries nothing
      // yet) or, when it lets the request through, the app's.
      fast = lanes !== null ? lanes.answer(r, path, canon.query, id) : undefined;
      if (fast === undefined) {
        keepRequestId(r, id);
        (r as WithPeer)[PEER] = peer ? { ip: forwarded } : { srv, raw: req };
        if (accelRoot) markViaFront(r);
        out = handle(r);
      } else {
        out = fast;
        chooser?.count(path);
      }
    } catch (e) {
      return failed(e);
    }
    if (fast !== undefined) return finish(fast, r, id, path, true);
    if (out instanceof Response) return finish(out, r, id, path);
    return Promise.resolve(out).then((res) => finish(res, r, id, path), failed);
  };
  /** The raw-target judge in front of `serve` (TCP): the matched pattern's params are the raw segments. */
  const judged = (req: Request & { params?: Record<string, string> }, srv: Server<undefined>) =>
    (rawSegmentsClean(req.params) ? serve(req, srv) : refuse(req, 'malformed request target: dot segment or backslash'));
  const patterns: Record<string, typeof judged> = Object.fromEntries(rawTargetPatterns().map((p) => [p, judged]));
  const unrouted = (req: Request) => refuse(req, 'malformed request target');
  const entry = opts.unix ? { fetch: serve } : { routes: patterns, fetch: unrouted };
  const server = Bun.serve({
    ...listen,
    ...(entry as unknown as { fetch: typeof serve }),
    maxRequestBodySize: opts.maxBodyBytes,
    idleTimeout: IDLE_TIMEOUT_S,
    development: false,
  });
  // Once a period: the router gets exact routes for the chosen paths (straight to `serve`: their raw target is clean).
  const timer = exact && chooser ? setInterval(() => {
    const paths = chooser.next();
    if (paths === null) return;
    const routes: Record<string, typeof judged> = { ...patterns };
    for (const p of paths) routes[p] = serve;
    server.reload({ routes, fetch: unrouted, development: false } as unknown as Parameters<typeof server.reload>[0]);
  }, exact.periodMs) : null;
  timer?.unref();
  return {
    port: server.port ?? 0,
    exactPaths: () => chooser?.current() ?? [],
    async stop(graceS: number) {
      if (timer) clearInterval(timer);
      const done = server.stop(false);
      const deadline = Date.now() + graceS * 1000;
      while (inflight > 0 && Date.now() < deadline) await Bun.sleep(20);
      await Promise.race([done, Bun.sleep(Math.max(0, deadline - Date.now()))]);
      server.stop(true);
    },
  };
}
