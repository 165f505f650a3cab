import { Elysia, type AnyElysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { clientIp } from '../../kernel/http/server';
import { hidden } from '../../kernel/http/plugin';
import { IdentityService } from '../identity/service';
import { DELIVERY, type DeliveryName, type DeliveryRoute, type DeliveryTarget } from './delivery-table';
import type { Claims } from './token';
import { tokenMemo } from './token-memo';
import { splitUrl } from '../../kernel/http/url';
import { markViaFront, viaFront } from '../../kernel/http/accel';
import { playbackState } from './service';
import { blackoutRefusal, sourceBlackedOut, sourceBlackoutRefusal } from './blackout-gate';
import { edgePlaylists } from './edge-playlists';

/** The tenant a delivery request was checked against (handlers serve only from it). */
export interface GateTenant { id: string; slug: string }

/**
 * What a guarded delivery handler receives: the route's checked parameters, tenant and target, and the database's
 * change generation read by the gate for this request (`PlaybackState.sync`): what a handler read from the database
 * under the same generation is still current.
 */
export interface Guarded { params: Record<string, string>; request: Request; tenant: GateTenant; target: DeliveryTarget; dbGeneration: number; sid?: string | null }

/**
 * A decision a native delivery front may repeat on its own (`Gate.grant`): the /t/ token (exactly as requested), its
 * session and expiry (Unix seconds), the tenant and target it was checked against, and the VOD output directory
 * (relative to the data dir) with the URL's version that it opened.
 */
export interface Grant { token: string; sid: string; expS: number; tenant: GateTenant; target: DeliveryTarget; asset: string; ver: string; rel: string }

/** A delivery handler behind the gate. */
export type DeliveryHandler = (g: Guarded) => Response | Promise<Response>;

/**
 * One delivery answer as observers see it (the origin request log), as plain data: a delivery worker sends these to
 * the main process's observers as they are. `url` is the delivery URL without its /t/<token> prefix (a /t/ request
 * may be served on the original request, whose URL still carries the token); `bytes` the answer's Content-Length
 * (0 for HEAD, 304 and refusals; null when it has none); `fromDisk` whether the body is a file (file answers carry
 * Last-Modified) rather than built in memory; `sid` the token's session; `ip` the viewer address; `atMs` when it was
 * answered, where that was not just now (an answer the delivery front sent on its own, read back from its log).
 */
export interface Served {
  url: string; method: string; ua: string | null; referer: string | null;
  guarded: { params: Record<string, string>; tenant: GateTenant; target: DeliveryTarget } | null;
  status: number; bytes: number | null; fromDisk: boolean; ttfbMs: number; sid: string | null; ip: string | null;
  atMs?: number;
}

/**
 * Thrown by a delivery handler that cannot answer in this process (a delivery worker whose read would have to write,
 * e.g. a recording hour indexed on first read): the request is answered by the main process instead, so this
 * process does not observe it.
 */
export class NotHere extends Error {}

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
 * and re-dispatched as `<path>` carrying its claims; `<path>` must be a delivery path (/m/, /live/: 404 otherwise), so
 * a token never reaches another route. `assertCovered(app)` refuses to start an app that serves a delivery path not
 * registered here.
 */
export function createGate(ctx: AppContext) {
  const state = playbackState(ctx);
  const identity = new IdentityService(ctx.db, null);
  const tenants = new Map<string, GateTenant>();
  // What this gate learnt from a request's token, kept on the Request under a key of this gate (cheaper than a WeakMap):
  // its claims, the viewer address (undefined: read from the socket when asked) and the URL without the token.
  const TOKEN = Symbol('vs.gate.token');
  type Opened = { claims: Claims; token: string; ip: string | null | undefined; url: string; dbGeneration: number };
  const opened = (r: Request): Opened | undefined => (r as Request & { [TOKEN]?: Opened })[TOKEN];
  const mark = (r: Request, o: Opened) => { (r as Request & { [TOKEN]?: Opened })[TOKEN] = o; };
  const memo = tokenMemo();
  // Every gate route with its pattern split into segments (and where its parameters are), by segment count, for /t/
  // requests dispatched without the router.
  type Direct = { segs: string[]; names: [number, string][]; h: (c: { params: Record<string, string>; request: Request }) => Response | Promise<Response> };
  const direct = new Map<number, Direct[]>();
  const observers: ((s: Served) => void)[] = [];
  let grantSink: ((g: Grant) => void) | null = null;
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

  /** `checks`: the route's parameter patterns as a list (`Object.entries(def.params)`, built when it is registered). */
  const guard = (def: DeliveryRoute, checks: [string, RegExp][], params: Record<string, string>, request: Request): Guarded => {
    const o = opened(request);
    const claims = o?.claims;
    const dbGeneration = o ? o.dbGeneration : state.sync(); // a /t/ request was brought up to date when its token was checked
    for (const [k, re] of checks) {
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
    if (claims && (claims.t !== tenant.id || !claimsOpen(claims, target))) throw deny('playback token does not open this content');
    const kind = target.kind === 'asset' || target.kind === 'clip' ? target.kind : 'channel';
    const { rules } = state.rulesFor(tenant.id, { kind, ref: target.id, channel: null });
    if (!claims && rules.require_token) throw deny('this content needs a playback token');
    if (kind === 'channel' && state.blackouts.any(tenant.id, target.id)) {
      const refusal = blackoutRefusal(ctx, state.blackouts, tenant.id, target, params.file, o?.ip !== undefined ? o.ip : normIp(clientIp(request)));
      if (refusal) throw refusal;
    }
    // A clip or a live-to-VOD asset: the blackouts of the channel air time it was made from (blackout-gate.ts).
    if (kind !== 'channel' && state.blackouts.anyOf(tenant.id)) {
      const refusal = sourceBlackoutRefusal(ctx, state.blackouts, tenant.id, target, o?.ip !== undefined ? o.ip : normIp(clientIp(request)));
      if (refusal) throw refusal;
    }
    if (rules.require_encryption && target.kind === 'asset' && !target.encrypted && /\.(m3u8|m4s|mpd|mp4)$/.test(target.file ?? '.m4s')) {
      throw deny('this content is delivered only as AES-128 HLS (.../aes/master.m3u8)');
    }
    // `sid`: the token's session (null without a token): the A/B watermark picks each segment's variant from it.
    return { params, request, tenant, target, dbGeneration, sid: claims?.s ?? null };
  };

  /**
   * Runs a guarded handler and reports its answer (or refusal) to every observer; observers never fail the request.
   * Synchronous when the handler answers synchronously (no promise on the common path).
   */
  const observed = (request: Request, guarded: () => Guarded, handler: DeliveryHandler): Response | Promise<Response> => {
    const t0 = performance.now();
    let g: Guarded | null = null, out: Response | Promise<Response>;
    try {
      g = guarded();
      out = handler(g);
    } catch (e) {
      refused(request, g, e, t0);
      throw e;
    }
    const done = (res: Response) => { report(request, g, res, res.status, performance.now() - t0); return res; };
    if (out instanceof Response) return done(out);
    return Promise.resolve(out).then(done, (e: unknown) => { refused(request, g, e, t0); throw e; });
  };
  /** Reports a handler's error (not a request handed to another process). */
  const refused = (request: Request, g: Guarded | null, e: unknown, t0: number) => {
    if (!(e instanceof NotHere)) report(request, g, null, e instanceof AppError ? e.status : 500, performance.now() - t0);
  };
  const notify = (s: Served) => { for (const o of observers) { try { o(s); } catch { /* an observer never breaks delivery */ } } };
  const report = (request: Request, g: Guarded | null, res: Response | null, status: number, ttfbMs: number) => {
    if (!observers.length) return;
    const o = opened(request);
    const len = res && request.method !== 'HEAD' && res.status !== 304 ? Number(res.headers.get('content-length') ?? NaN) : 0;
    notify({
      url: o?.url ?? request.url, method: request.method, ua: request.headers.get('user-agent'), referer: request.headers.get('referer'),
      guarded: g && { params: g.params, tenant: g.tenant, target: g.target }, status, bytes: Number.isFinite(len) ? len : null,
      fromDisk: res !== null && res.headers.has('last-modified'), ttfbMs, sid: o?.claims.s ?? null,
      ip: o?.ip !== undefined ? o.ip : normIp(clientIp(request)),
    });
  };

  /** Checks the token of a /t/ request (signature, key, expiry, revocation, viewer address): claims and inner target. */
  const open = (req: Request) => {
    const { path } = splitUrl(req.url);
    const m = /^\/t\/([A-Za-z0-9._-]{1,2048})(\/.*)$/.exec(path);
    if (!m) throw deny('malformed token path');
    // A token opens delivery paths only: never the API, the studio or the docs, whatever the token (the router behind
    // `dispatch` serves every route; under /m/ and /live/ only gate routes, `assertCovered`).
    if (!m[2].startsWith('/m/') && !m[2].startsWith('/live/')) throw notFound('delivery path');
    const dbGeneration = state.sync();
    const r = memo.verify(m[1], (kid, tenant) => state.keyFor(kid, tenant), Math.floor(ctx.clock.now() / 1000));
    if (!r.ok) throw deny(r.fault === 'expired' ? 'playback token expired' : 'playback token invalid');
    if (state.isRevoked(r.claims.s)) throw deny('playback session revoked');
    let ip: string | null | undefined;
    if (r.claims.ip) {
      ip = normIp(clientIp(req));
      if (normIp(r.claims.ip) !== ip) throw deny('playback token is bound to another viewer address');
    }
    const at = req.url.indexOf(path, req.url.indexOf('//') + 2); // the path as splitUrl found it
    return { claims: r.claims, token: m[1], ip, dbGeneration, path: m[2], url: `${req.url.slice(0, at)}${m[2]}${req.url.slice(at + path.length)}` };
  };

  /** The one gate route whose pattern a clean path matches (null when none, several, or the path needs decoding). */
  const matchDirect = (path: string) => {
    if (path.includes('%')) return null;
    const parts = path.split('/');
    let found: Direct | null = null;
    for (const d of direct.get(parts.length) ?? []) {
      let i = 1;
      for (; i < parts.length; i++) {
        const seg = d.segs[i];
        if (seg.charCodeAt(0) === 58 ? parts[i] === '' : seg !== parts[i]) break; // ':name' takes any non-empty segment
      }
      if (i < parts.length) continue;
      if (found) return null;
      found = d;
    }
    if (!found) return null;
    const params: Record<string, string> = {};
    for (const [i, name] of found.names) params[name] = parts[i];
    return { h: found.h, params };
  };

  return {
    /** Playlists the delivery front caches after this gate's decision (edge-playlists.ts). */
    playlists: edgePlaylists(),

    /** Adds an observer called after every guarded delivery answer (the statistics origin log). */
    observe(fn: (s: Served) => void): void { observers.push(fn); },

    /** True when something observes delivery answers (delivery workers then forward theirs). */
    observed(): boolean { return observers.length > 0; },

    /** Where decisions a delivery front may repeat on its own go (`grant`); one sink (the front), set at its start. */
    grantTo(sink: (g: Grant) => void): void { grantSink = sink; },

    /**
     * Offers the grant sink the decision a VOD output answer was given under, for the front to repeat for the same
     * token and directory without asking: only a /t/ request that came through the front, with a token not bound to a
     * viewer address, for an asset whose rules do not depend on the file (no require_encryption, no watermark). Everything else the
     * gate checks per request is the same for every file of the directory (token, tenant, target, asset state).
     */
    grant(g: Guarded, out: { asset: string; ver: string; rel: string }): void {
      if (!grantSink || !viaFront(g.request) || g.target.kind !== 'asset') return;
      const o = opened(g.request);
      if (!o || o.claims.ip) return;
      // Made from a channel under a blackout: the viewer's country is judged on every request (no grant).
      if (sourceBlackedOut(ctx, state.blackouts, g.tenant.id, g.target)) return;
      const { rules } = state.rulesFor(g.tenant.id, { kind: 'asset', ref: g.target.id, channel: null });
      // A marked asset's segments differ per session (watermark A/B): the front must ask for every one of them.
      if (rules.require_encryption || rules.watermark.mode !== 'off') return;
      grantSink({ token: o.token, sid: o.claims.s, expS: o.claims.e, tenant: g.tenant, target: g.target, ...out });
    },

    /** Reports an answer a delivery worker gave to this gate's observers, as if served here. */
    replay(s: Served): void { notify(s); },

    /** Verifies the token of a /t/ request and returns the inner request to dispatch. */
    unwrap(req: Request): Request {
      const t = open(req);
      const inner = new Request(t.url, { method: req.method, headers: req.headers });
      // The inner request has no socket of its own: its viewer address is read from the original one now.
      mark(inner, { ...t, ip: t.ip === undefined ? normIp(clientIp(req)) : t.ip });
      return inner;
    },

    /**
     * Serves a /t/ request: verifies its token, then runs the gate route its inner path names. A clean path that
     * exactly one gate route matches runs that route's guarded handler on the original request (no second routing
     * pass, no copied request; the same checks as through the router); anything else goes through the app's router
     * with an inner request (`unwrap`).
     */
    dispatch(req: Request, app: () => AnyElysia): Response | Promise<Response> {
      const t = open(req);
      const hit = matchDirect(t.path);
      if (!hit) {
        const inner = new Request(t.url, { method: req.method, headers: req.headers });
        mark(inner, { ...t, ip: t.ip === undefined ? normIp(clientIp(req)) : t.ip });
        if (viaFront(req)) markViaFront(inner); // still the front's request (its answer may name the edge's copy)
        return app().handle(inner);
      }
      mark(req, t);
      return hit.h({ params: hit.params, request: req });
    },

    /** Adds a GET and HEAD delivery route from the table to `app`, behind the gate. */
    route<A extends AnyElysia>(app: A, name: DeliveryName, handler: DeliveryHandler): A {
      const def: DeliveryRoute = DELIVERY[name];
      registered.add(def.path);
      // Destructure exactly what is used: Elysia infers from the handler's source which context it must build, and a
      // handler that takes the whole context gets chunked answers (no Content-Length, no sendfile).
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Elysia's context type for a dynamic path
      const checks = Object.entries(def.params);
      const h = ({ params, request }: Record<string, any>) => (observers.length
        ? observed(request as Request, () => guard(def, checks, params as Record<string, string>, request as Request), handler)
        : handler(guard(def, checks, params as Record<string, string>, request as Request)));
      const segs = def.path.split('/');
      const names = segs.flatMap((seg, i): [number, string][] => (seg.charCodeAt(0) === 58 ? [[i, seg.slice(1)]] : []));
      direct.set(segs.length, [...(direct.get(segs.length) ?? []), { segs, names, h }]);
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

/**
 * A /t/ GET or HEAD answered without the router's own pass: the same entry the `/t/*` routes of `tokenRoutes` run
 * (`dispatch`, whose clean paths skip the router anyway), with a thrown error answered by `answerError` as the app's
 * error hook would answer it. Servers call it for GET and HEAD requests whose path starts with `/t/`.
 */
export function directTokenEntry(gate: Pick<Gate, 'dispatch'>, app: () => AnyElysia, answerError: (error: unknown, request: Request) => Response): (r: Request) => Response | Promise<Response> {
  return (r) => {
    try {
      const out = gate.dispatch(r, app);
      return out instanceof Response ? out : out.then(undefined, (e: unknown) => answerError(e, r));
    } catch (e) { return answerError(e, r); }
  };
}

/** True for a GET or HEAD whose canonical path is a /t/<token>/ delivery path (`directTokenEntry` answers it). */
export function isTokenRequest(r: Request): boolean {
  return (r.method === 'GET' || r.method === 'HEAD') && splitUrl(r.url).path.startsWith('/t/');
}

/** The `/t/<token>/...` entry: verifies the token and dispatches the inner request to the app. */
export function tokenRoutes(gate: Gate, app: () => AnyElysia) {
  return new Elysia()
    .get('/t/*', ({ request }) => gate.dispatch(request, app), { detail: hidden })
    .head('/t/*', ({ request }) => gate.dispatch(request, app), { detail: hidden });
}
