import { Elysia, type AnyElysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { clientIp } from '../../kernel/http/server';
import { hidden } from '../../kernel/http/plugin';
import { IdentityService } from '../identity/service';
import { DELIVERY, type DeliveryName, type DeliveryRoute, type DeliveryTarget } from './delivery-table';
import { verifyToken, type Claims } from './token';
import { playbackState } from './service';

/** The tenant a delivery request was checked against (handlers serve only from it). */
export interface GateTenant { id: string; slug: string }

/** What a guarded delivery handler receives: the route's checked parameters, tenant and target. */
export interface Guarded { params: Record<string, string>; request: Request; tenant: GateTenant; target: DeliveryTarget }

/** A delivery handler behind the gate. */
export type DeliveryHandler = (g: Guarded) => Response | Promise<Response>;

/** One delivery answer as observers see it (the origin request log): status, time to the answer, token sid, viewer IP. */
export interface Served { request: Request; guarded: Guarded | null; response: Response | null; status: number; ttfbMs: number; sid: string | null; ip: string | null }

/**
 * Thrown by a delivery handler that cannot answer in this process (a delivery worker whose read would have to write,
 * e.g. a recording hour indexed on first read): the request is answered by the main process instead, so this
 * process does not observe it.
 */
export class NotHere extends Error {}

/** A delivery answer as plain data: what a delivery worker forwards to the main process's observers. */
export interface ServedRecord {
  url: string; method: string; ua: string | null; referer: string | null; status: number; ttfbMs: number; sid: string | null; ip: string | null;
  guarded: { params: Record<string, string>; tenant: GateTenant; target: DeliveryTarget } | null;
  response: { status: number; headers: Record<string, string> } | null;
}

const RECORDED_HEADERS = ['content-length', 'content-type', 'last-modified', 'etag', 'content-range', 'cache-control'];

/** Reduces an observed answer to plain data (no Request/Response objects) for another process's observers. */
export function servedRecord(s: Served): ServedRecord {
  let response: ServedRecord['response'] = null;
  if (s.response) {
    const headers: Record<string, string> = {};
    for (const h of RECORDED_HEADERS) { const v = s.response.headers.get(h); if (v !== null) headers[h] = v; }
    response = { status: s.response.status, headers };
  }
  const g = s.guarded;
  return {
    url: s.request.url, method: s.request.method, ua: s.request.headers.get('user-agent'), referer: s.request.headers.get('referer'),
    status: s.status, ttfbMs: s.ttfbMs, sid: s.sid, ip: s.ip, guarded: g ? { params: g.params, tenant: g.tenant, target: g.target } : null, response,
  };
}

function normIp(ip: string | null): string | null {
  return ip ? ip.replace(/^::ffff:/, '') : null;
}

/** Hides the token of a /t/<token>/ path (for logs: tokens are never written out). */
export function redactToken(path: string): string {
  return path.replace(/\/t\/[^/]+\//, '/t/<redacted>/');
}

/** Query parameters players may add on their own (LL-HLS delivery directives); everything else must be expected. */
const PLAYER_PARAM = /^_HLS_[a-z]+$/;

/** True when a token's claims open this target (same kind and id; catch-up only inside its window). */
export function claimsOpen(c: Claims, t: DeliveryTarget): boolean {
  if (c.k !== t.kind) return false;
  switch (t.kind) {
    case 'startover': return c.i === `${t.id}/${t.programme}`;
    case 'catchup': {
      if (c.i !== t.id || typeof c.a !== 'number' || t.from === undefined || t.from < c.a) return false;
      if (c.b === null || c.b === undefined) return true;
      return t.to !== undefined && t.to <= c.b;
    }
    default: return c.i === t.id;
  }
}

/**
 * The delivery gate. Every delivery route is registered through `route()`, which checks the route's own parsed
 * parameters (strict patterns), its query (exactly one `c` where the tenant is named there; nothing unexpected),
 * resolves the tenant (unknown → 404), and then the token or the policy (fail closed) before the handler runs with
 * that tenant. `/t/<token>/<path>` is verified (signature, key of the same tenant, expiry, revocation, viewer IP)
 * and re-dispatched as `<path>` carrying its claims. `assertCovered(app)` refuses to start an app that serves a
 * delivery path not registered here.
 */
export function createGate(ctx: AppContext) {
  const state = playbackState(ctx);
  const identity = new IdentityService(ctx.db, null);
  const tenants = new Map<string, GateTenant>();
  const verified = new WeakMap<Request, Claims>();
  const viewerIps = new WeakMap<Request, string | null>();
  const observers: ((s: Served) => void)[] = [];
  const registered = new Set<string>();
  const deny = (detail: string) => new AppError('forbidden', detail);

  const tenantOf = (ref: string): GateTenant => {
    const hit = tenants.get(ref);
    if (hit) return hit;
    let t: { id: string; slug: string };
    try { t = identity.tenant(ref); } catch { throw notFound('content'); }
    const v = { id: t.id, slug: t.slug };
    if (tenants.size > 10_000) tenants.clear();
    tenants.set(ref, v);
    return v;
  };

  /** The one tenant a query names in `c`; anything else in the query is refused. */
  const queryTenant = (query: string, def: DeliveryRoute): string | null => {
    let c: string | null = null, seen = 0;
    if (query) {
      for (const [k, v] of new URLSearchParams(query)) {
        if (k === 'c' && def.tenantIn === 'query') { seen++; c = v; continue; }
        if (!PLAYER_PARAM.test(k)) throw new AppError('bad_request', `unexpected query parameter "${k}"`);
      }
    }
    if (def.tenantIn !== 'query') return null;
    if (seen !== 1) throw new AppError('bad_request', seen ? 'name the tenant once: one c= parameter' : 'add ?c=<tenant>');
    return c;
  };

  const guard = (def: DeliveryRoute, params: Record<string, string>, request: Request): Guarded => {
    if (!verified.has(request)) state.sync(); // a /t/ request was brought up to date when its token was checked
    for (const [k, re] of Object.entries(def.params)) {
      const v = params[k];
      if (typeof v !== 'string' || !re.test(v)) throw notFound('file');
    }
    const q = request.url.indexOf('?');
    const c = queryTenant(q < 0 ? '' : request.url.slice(q + 1), def);
    const ref = def.tenantIn === 'path' ? params.tenant : c!;
    if (!/^[A-Za-z0-9-]{1,64}$/.test(ref)) throw notFound('content');
    const tenant = tenantOf(ref);
    const target = def.target(params);
    if (!target) throw notFound('file');
    const claims = verified.get(request);
    if (claims && (claims.t !== tenant.id || !claimsOpen(claims, target))) throw deny('playback token does not open this content');
    const kind = target.kind === 'asset' || target.kind === 'clip' ? target.kind : 'channel';
    const { rules } = state.rulesFor(tenant.id, { kind, ref: target.id, channel: null });
    if (!claims && rules.require_token) throw deny('this content needs a playback token');
    if (rules.require_encryption && target.kind === 'asset' && !target.encrypted && /\.(m3u8|m4s|mpd|mp4)$/.test(target.file ?? '.m4s')) {
      throw deny('this content is delivered only as AES-128 HLS (.../aes/master.m3u8)');
    }
    return { params, request, tenant, target };
  };

  /** Runs a guarded handler and reports its answer (or refusal) to every observer; observers never fail the request. */
  const observed = async (request: Request, guarded: () => Guarded, handler: DeliveryHandler): Promise<Response> => {
    const t0 = performance.now();
    let g: Guarded | null = null, res: Response | null = null, status = 500, elsewhere = false;
    try {
      g = guarded();
      res = await handler(g);
      status = res.status;
      return res;
    } catch (e) {
      status = e instanceof AppError ? e.status : 500;
      elsewhere = e instanceof NotHere;
      throw e;
    } finally {
      if (!elsewhere) report(request, g, res, status, performance.now() - t0);
    }
  };
  const notify = (s: Served) => { for (const o of observers) { try { o(s); } catch { /* an observer never breaks delivery */ } } };
  const report = (request: Request, g: Guarded | null, res: Response | null, status: number, ttfbMs: number) => {
    notify({ request, guarded: g, response: res, status, ttfbMs, sid: verified.get(request)?.s ?? null, ip: viewerIps.has(request) ? viewerIps.get(request)! : normIp(clientIp(request)) });
  };

  return {
    /** Adds an observer called after every guarded delivery answer (the statistics origin log). */
    observe(fn: (s: Served) => void): void { observers.push(fn); },

    /** True when something observes delivery answers (delivery workers then forward theirs). */
    observed(): boolean { return observers.length > 0; },

    /** Reports an answer a delivery worker gave (see `servedRecord`) to this gate's observers, as if served here. */
    replay(r: ServedRecord): void {
      const headers: Record<string, string> = {};
      if (r.ua !== null) headers['user-agent'] = r.ua;
      if (r.referer !== null) headers.referer = r.referer;
      const request = new Request(r.url, { method: r.method, headers });
      const g: Guarded | null = r.guarded && { ...r.guarded, request };
      const res = r.response && new Response(null, r.response);
      notify({ request, guarded: g, response: res, status: r.status, ttfbMs: r.ttfbMs, sid: r.sid, ip: r.ip });
    },

    /** Verifies the token of a /t/ request and returns the inner request to dispatch. */
    unwrap(req: Request): Request {
      const q = req.url.indexOf('?');
      const url = new URL(req.url);
      const m = /^\/t\/([A-Za-z0-9._-]{1,2048})(\/.*)$/.exec(url.pathname);
      if (!m) throw deny('malformed token path');
      state.sync();
      const r = verifyToken(m[1], (kid, tenant) => state.keyFor(kid, tenant), Math.floor(ctx.clock.now() / 1000));
      if (!r.ok) throw deny(r.fault === 'expired' ? 'playback token expired' : 'playback token invalid');
      if (state.isRevoked(r.claims.s)) throw deny('playback session revoked');
      const ip = normIp(clientIp(req));
      if (r.claims.ip && normIp(r.claims.ip) !== ip) throw deny('playback token is bound to another viewer address');
      const inner = new Request(`${url.origin}${m[2]}${q < 0 ? '' : req.url.slice(q)}`, { method: req.method, headers: req.headers });
      verified.set(inner, r.claims);
      viewerIps.set(inner, ip);
      return inner;
    },

    /** Adds a GET and HEAD delivery route from the table to `app`, behind the gate. */
    route<A extends AnyElysia>(app: A, name: DeliveryName, handler: DeliveryHandler): A {
      const def: DeliveryRoute = DELIVERY[name];
      registered.add(def.path);
      // Destructure exactly what is used: Elysia infers from the handler's source which context it must build, and a
      // handler that takes the whole context gets chunked answers (no Content-Length, no sendfile).
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Elysia's context type for a dynamic path
      const h = ({ params, request }: Record<string, any>) => (observers.length
        ? observed(request as Request, () => guard(def, params as Record<string, string>, request as Request), handler)
        : handler(guard(def, params as Record<string, string>, request as Request)));
      return app.get(def.path, h, { detail: hidden }).head(def.path, h, { detail: hidden }) as A;
    },

    /** Throws when the app serves a delivery path (/m/, /live/, /t/) that no gate entry covers (checked once at start). */
    assertCovered(app: AnyElysia): void {
      for (const r of app.routes) {
        if (!/^\/(m|live|t)\//.test(r.path) || r.path === '/t/*') continue;
        if (!registered.has(r.path)) throw new Error(`delivery route ${r.method} ${r.path} is not declared in the delivery table`);
      }
    },
  };
}

/** The gate's interface as features receive it. */
export type Gate = ReturnType<typeof createGate>;

/** The `/t/<token>/...` entry: verifies the token and dispatches the inner request to the app. */
export function tokenRoutes(gate: Gate, app: () => AnyElysia) {
  return new Elysia()
    .get('/t/*', ({ request }) => app().handle(gate.unwrap(request)), { detail: hidden })
    .head('/t/*', ({ request }) => app().handle(gate.unwrap(request)), { detail: hidden });
}
