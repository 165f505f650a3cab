import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { assertPortFree, freePort } from '../kernel/net/ports';
import type { AppContext } from '../kernel/context';
import { serveApp, type HttpServer } from '../kernel/http/server';
import { fastLanes } from '../kernel/http/fast-lane';
import { newRequestIdPrefix, requestId } from '../kernel/http/request-id';
import { AppError, notFound, problemResponse } from '../kernel/errors';
import { runTool, type Running } from '../media/process';
import { PEER_HEADER } from '../delivery-worker/forward';
import { SOCKET_DIR_PREFIX, SOCKET_NAME } from '../delivery-worker/stale-sockets';
import { NGINX_SIZE, renderFrontConf, type FrontConf } from './nginx-conf';
import { restartDelay } from '../kernel/restart-backoff';
import type { Gate, Served } from '../features/playback/gate';
import { DELIVERY } from '../features/playback/delivery-table';
import { playbackState } from '../features/playback/service';
import { FrontGrants } from './grants';
import { tailSpool, type SpoolLine } from './spool';
import { CacheIndex, type FillLine } from './cache-index';
import { edgeOf } from '../features/edge/port';
import type { DistConf } from './distribution-conf';
import { caBundle, planDistributions } from './distribution-plan';
import { childPids, followCdnUsage, oldWorkersGone, servesGeneration, testNginxConf } from './distribution-reload';

/** Environment variable: the TCP port of the native delivery front (nginx); unset or empty = no front, 0 = any free port. */
export const FRONT_PORT_ENV = 'VS_DELIVERY_FRONT_PORT';

/** Environment variable: `off` makes the front ask the appliance for every request (no grants); default on. */
export const FRONT_GRANTS_ENV = 'VS_DELIVERY_FRONT_GRANTS';

/** Whether the front may send granted files on its own (`VS_DELIVERY_FRONT_GRANTS`, on unless `off`); throws on anything but on/off. */
export function frontGrantsFromEnv(env: Record<string, string | undefined>): boolean {
  const v = (env[FRONT_GRANTS_ENV] ?? '').trim().toLowerCase();
  if (v === '' || v === 'on') return true;
  if (v === 'off') return false;
  throw new Error(`${FRONT_GRANTS_ENV} must be on or off, got "${env[FRONT_GRANTS_ENV]}"`);
}

/** Environment variable: the send buffer of each viewer connection of the front (`auto`: the kernel's autotuning). */
export const FRONT_SNDBUF_ENV = 'VS_DELIVERY_FRONT_SNDBUF';

/**
 * The front's per-connection send buffer from `VS_DELIVERY_FRONT_SNDBUF` (null: `auto` or unset, the kernel sizes it),
 * as nginx's size syntax (`256k`); throws on anything but `auto` or a size from 16k to 64m (bytes, k or m).
 */
export function frontSndbufFromEnv(env: Record<string, string | undefined>): string | null {
  const v = (env[FRONT_SNDBUF_ENV] ?? '').trim().toLowerCase();
  if (v === '' || v === 'auto') return null;
  const m = NGINX_SIZE.exec(v);
  const bytes = m ? Number(m[1]) * (m[2] === 'm' ? 1 << 20 : m[2] === 'k' ? 1024 : 1) : NaN;
  if (!(bytes >= 16 * 1024 && bytes <= 64 << 20)) throw new Error(`${FRONT_SNDBUF_ENV} must be auto or a size from 16k to 64m, got "${env[FRONT_SNDBUF_ENV]}"`);
  return v;
}

/** The front's port from the environment: null when unset, 0 for "pick one"; throws on anything else but 0-65535. */
export function frontPortFromEnv(env: Record<string, string | undefined>): number | null {
  const v = env[FRONT_PORT_ENV];
  if (v === undefined || v.trim() === '') return null;
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n > 65535) throw new Error(`${FRONT_PORT_ENV} must be a port number from 0 to 65535, got "${v}"`);
  return n;
}

/** Where the front will listen and the base of the playback URLs it serves. */
export interface FrontPlan { port: number; url: string }

/**
 * The front asked for by `VS_DELIVERY_FRONT_PORT` (null: none): the port (a free one for 0; a given one must be free:
 * nginx would otherwise fail to bind, or share it) and its base URL on `host` (loopback for every-address hosts).
 */
export async function planFront(env: Record<string, string | undefined>, host: string): Promise<FrontPlan | null> {
  const asked = frontPortFromEnv(env);
  if (asked === null) return null;
  const port = asked === 0 ? await freePort(host) : asked;
  if (asked !== 0) await assertPortFree(port, host, FRONT_PORT_ENV);
  const h = localAddress(host);
  return { port, url: `http://${h.includes(':') ? `[${h}]` : h}:${port}` };
}

/** The address this machine reaches a listener on `host` at (loopback for the every-address hosts). */
function localAddress(host: string): string {
  return host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
}

/** The configuration with playback URLs on the front (when there is one and `cdn_base_url` does not say otherwise). */
export function withFront<C extends { cdnBaseUrl: string }>(base: C, plan: FrontPlan | null): C {
  return plan && !base.cdnBaseUrl ? { ...base, cdnBaseUrl: plan.url } : base;
}

/** nginx on PATH or where Debian installs it; null when absent. */
export function nginxBinary(): string | null {
  return Bun.which('nginx') ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : null);
}

/** The running delivery front. */
export interface DeliveryFront {
  port: number; pid(): number | null;
  /** Grants in force (null: grants off). */
  grants(): number | null;
  /** The front's private directory (its configuration, socket, grants and request log spool). */
  runDir(): string;
  /** The edge cache's tag index (null: cache off). */
  cache(): CacheIndex | null;
  /** Reads the CDN distributions' usage log now (tests). */
  flushCdnUsage(): void;
  stop(graceS: number): Promise<void>;
}

/** True when an absolute request URL's path is under one of the front's locations (/t/, /m/, /live/, /s/v1/); no regex. */
export function isFrontPath(url: string): boolean {
  const i = url.indexOf('/', url.indexOf('//') + 2);
  return i >= 0 && (url.startsWith('/t/', i) || url.startsWith('/m/', i) || url.startsWith('/live/', i) || url.startsWith('/s/v1/', i));
}

/**
 * The appliance's side of the front's forwarding rule: its socket answers only the delivery paths the front has
 * locations for; anything else reaching it (a front that forwarded what its locations did not match) is a 404 problem.
 */
export function frontPathsOnly(handle: (r: Request) => Response | Promise<Response>, problemsBase: string): (r: Request) => Response | Promise<Response> {
  return (r) => (isFrontPath(r.url) ? handle(r) : problemResponse(notFound('delivery path'), problemsBase, requestId(r)));
}

/** True once something accepts TCP connections on host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

/**
 * Starts the native delivery front: nginx (one worker per core) on `port`, in front of a private Unix socket on
 * which this process answers delivery with `handle` (the main app: same gate, checks and origin log; delivery paths
 * only, `frontPathsOnly`), and file
 * answers leave as `X-Accel-Redirect` for nginx to send (`accelAnswer`). nginx stops with this process (parent-death
 * signal TERM, so its master stops its workers) and is started again when it dies. Resolves once the port accepts
 * connections; throws with nginx's own words when it cannot start.
 */
export async function startDeliveryFront(ctx: AppContext, gate: Gate, handle: (r: Request) => Response | Promise<Response>, port: number, o: FrontOptions = {}): Promise<DeliveryFront> {
  const nginx = nginxBinary();
  if (!nginx) throw new Error(`${FRONT_PORT_ENV} needs nginx (Debian: apt-get install nginx-light)`);
  // Named like the delivery workers' socket directory: a killed appliance's one is swept the same way.
  const dir = mkdtempSync(join(tmpdir(), SOCKET_DIR_PREFIX)); // 0700: this user (and its nginx workers) only
  const sock = join(dir, SOCKET_NAME);
  // The gate-free fill of cached playlists (edge-playlists.ts) is answered on this private socket only.
  const delivery = frontPathsOnly(handle, ctx.config.problemsBase), playlists = gate.playlists;
  const fillOrDelivery = (r: Request): Response | Promise<Response> => {
    if (!playlists.isFill(r.url)) return delivery(r);
    const failed = (e: unknown) => problemResponse(e instanceof AppError ? e : notFound('playlist'), ctx.config.problemsBase, requestId(r));
    try {
      const out = playlists.answer(r);
      return out instanceof Response ? out : out.then(undefined, failed);
    } catch (e) { return failed(e); }
  };
  const inner: HttpServer = serveApp(fillOrDelivery, {
    port: 0, host: '', unix: sock, peerHeader: PEER_HEADER, accelRoot: ctx.config.dataDir, maxBodyBytes: 64 * 1024, problemsBase: ctx.config.problemsBase,
  });
  const conf = join(dir, 'nginx.conf');
  // CDN distributions (distribution-conf.ts): rendered from the store; each change renders the next generation.
  let generation = 1;
  const fc = frontConfOf(ctx.config, dir, port, { ...o, distributions: await planDistributions(ctx), generation, tlsPort: o.tlsPort ?? ctx.config.cdnTlsPort });
  const granted = fc.grants ?? null, cache = fc.cache ?? null, originSock = fc.originSock;
  // The edge cache: emptied at every start (its tag index lives in memory).
  if (cache) { rmSync(cache.dir, { recursive: true, force: true }); mkdirSync(cache.dir, { recursive: true }); }
  // The front on the public port: the whole app behind it on a socket of its own (viewer address in x-vs-peer).
  const app: HttpServer | null = fc.app ? serveApp(handle, { port: 0, host: '', unix: fc.app.sock, peerHeader: PEER_HEADER, maxBodyBytes: fc.app.maxBodyBytes, problemsBase: ctx.config.problemsBase, lanes: fastLanes(ctx) }) : null;
  await Bun.write(conf, renderFrontConf(fc));
  let proc: Running | null = null;
  let stopping = false, ready = false;
  let crashes = 0;
  const start = (): Running => {
    const startedAt = Date.now();
    // nginx binds its file origin's and distributions' sockets afresh: a killed nginx leaves them behind (bind: address in use).
    for (const sockPath of [originSock, fc.distributions?.deliverySock]) if (sockPath) rmSync(sockPath, { force: true });
    // -e: nginx's own log before the configuration is read goes to stderr too (not /var/log/nginx).
    const p = runTool([nginx, '-e', 'stderr', '-p', dir, '-c', conf], { parentDeathSignal: 'TERM', groupDiesWithLeader: true, batch: true, stderrLines: 40, onStderrLine: (l) => ctx.log.warn('delivery front', { nginx: l }) });
    proc = p;
    void p.done.then((r) => {
      if (stopping || !ready || proc !== p) return;
      let delayMs: number;
      ({ crashes, delayMs } = restartDelay(crashes, Date.now() - startedAt));
      ctx.log.error('delivery front exited; starting it again', { code: r.code, signal: r.signal, in_ms: delayMs });
      setTimeout(() => { if (!stopping) start(); }, delayMs).unref();
    });
    return p;
  };
  const first = start();
  let exited = false;
  void first.done.then(() => { exited = true; });
  const deadline = Date.now() + 15_000;
  while (!(await accepts(localAddress(ctx.config.host), port))) {
    if (exited || Date.now() > deadline) {
      stopping = true;
      await first.stop(1000);
      await inner.stop(0);
      await app?.stop(0);
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`delivery front (nginx) did not start on port ${port}: ${first.stderrTail().slice(-5).join(' | ') || 'no output'}`);
    }
    await Bun.sleep(25);
  }
  ready = true;
  // The front has the cached playlists' location: the gate may name it (a front without a cache: the appliance answers).
  if (cache) playlists.enable(true);
  const reopen = () => { const pid = proc?.pid; if (pid) process.kill(pid, 'SIGUSR1'); };
  const grants = granted && followGrants(ctx, gate, granted, reopen);
  const edge = cache && followFills(ctx, cache.dir, cache.log, reopen, `http://${localAddress(ctx.config.host).includes(':') ? `[${localAddress(ctx.config.host)}]` : localAddress(ctx.config.host)}:${port}`);
  const usage = fc.distributions ? followCdnUsage(ctx, fc.distributions.log, reopen) : null;
  // A distribution change: the next generation rendered, checked by `nginx -t`, nginx reloaded (HUP: new workers take
  // the new configuration, old ones finish their requests), done once the new generation's marker answers.
  let chain: Promise<void> = Promise.resolve();
  const reconfigure = (): Promise<void> => {
    const run = chain.then(async () => {
      const gen = ++generation;
      const next = frontConfOf(ctx.config, dir, port, { ...o, distributions: await planDistributions(ctx), generation: gen, tlsPort: o.tlsPort ?? ctx.config.cdnTlsPort });
      await Bun.write(conf, renderFrontConf({ ...next, ridPrefix: fc.ridPrefix }));
      await testNginxConf(nginx, dir, conf);
      const pid = proc?.pid;
      if (!pid || stopping) return;
      // The workers before the reload share the listening sockets (reuseport) until they quit: wait for them too.
      const old = childPids(pid);
      process.kill(pid, 'SIGHUP');
      const until = Date.now() + 15_000;
      while (!oldWorkersGone(old) || !(await servesGeneration(localAddress(ctx.config.host), port, gen))) {
        if (Date.now() > until || stopping) throw new Error('edge: nginx did not take the new configuration within 15 s');
        await Bun.sleep(20);
      }
    });
    chain = run.catch(() => {});
    return run;
  };
  const holder = edgeOf(ctx);
  holder.reconfigure = reconfigure;
  return {
    port,
    pid: () => proc?.pid ?? null,
    grants: () => grants?.store.size() ?? null,
    runDir: () => dir,
    cache: () => edge?.index ?? null,
    flushCdnUsage: () => usage?.flush(),
    async stop(graceS: number) {
      stopping = true;
      playlists.enable(false);
      if (holder.reconfigure === reconfigure) holder.reconfigure = undefined;
      usage?.stop();
      grants?.stop();
      edge?.stop();
      // On the public port: a graceful quit first (nginx stops listening, finishes the requests in flight, which the
      // appliance behind it still answers), then the group is stopped as before.
      const p = proc as Running | null;
      if (app && p) {
        try { process.kill(p.pid, 'SIGQUIT'); } catch { /* gone */ }
        await Promise.race([p.done, Bun.sleep(Math.max(1000, graceS * 1000))]);
      }
      await proc?.stop(Math.max(1000, graceS * 1000));
      await inner.stop(graceS);
      await app?.stop(graceS);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The front's configuration for a start whose private directory is `dir` (its sockets, grants, spools): what
 * `startDeliveryFront` writes, and what `viewstream edge config` prints.
 */
export function frontConfOf(config: Pick<AppContext['config'], 'host' | 'dataDir' | 'problemsBase'>, dir: string, port: number, o: FrontOptions): FrontConf {
  const cache = o.cache === false ? undefined : { dir: join(config.dataDir, 'cache', 'edge'), maxSize: o.cacheMaxSize ?? '10g', log: join(dir, 'fill.log'), files: o.cacheFiles === true };
  return {
    host: config.host, port, workers: availableParallelism(), sock: join(dir, SOCKET_NAME), dataDir: config.dataDir, runDir: dir,
    problemsBase: config.problemsBase, user: process.getuid?.() === 0 ? 'root' : undefined,
    grants: o.grants === false ? undefined : { dir: join(dir, 'grants'), spool: join(dir, 'granted.log') },
    ridPrefix: newRequestIdPrefix(), sndbuf: o.sndbuf ?? undefined,
    cache, originSock: cache?.files ? join(dir, 'origin.sock') : undefined,
    app: o.public ? { sock: join(dir, 'app.sock'), maxBodyBytes: o.public.maxBodyBytes } : undefined,
    distributions: o.distributions ? {
      list: o.distributions, log: join(dir, 'cdn.log'), deliverySock: join(dir, 'dist.sock'), caBundle: caBundle(),
      generation: o.generation ?? 1, tlsPort: o.tlsPort ?? null,
    } : undefined,
  };
}

/** How the front runs besides its port. */
export interface FrontOptions {
  /** Grants (default on). */
  grants?: boolean;
  /** Fixed send buffer per viewer connection (null: the kernel's autotuning). */
  sndbuf?: string | null;
  /** The edge cache (default on): off sends files straight from the data dir as before. */
  cache?: boolean;
  /** The data dir's own files through the cache too (default off: sent straight from the data dir; edge-conf.ts). */
  cacheFiles?: boolean;
  /** The cache's size limit (nginx size; default `10g`). */
  cacheMaxSize?: string;
  /** The front holds the public port: every path is served, the non-delivery ones by the whole app behind it. */
  public?: { maxBodyBytes: number };
  /** CDN distributions to serve (planDistributions); undefined: none rendered. */
  distributions?: DistConf[];
  /** Configuration generation of `distributions` (its marker tells when a reload took effect). */
  generation?: number;
  /** TLS port for distributions with certificate files (null: none). */
  tlsPort?: number | null;
}

/**
 * Reads the front's fill log into the cache's tag index (every 100 ms; a purge reads what is there first) and makes
 * the cache reachable to features (`edgeOf`) while the front runs.
 */
function followFills(ctx: AppContext, dir: string, log: string, reopen: () => void, base: string) {
  let tail: { flush(): void; stop(): void } | null = null;
  const index = new CacheIndex(dir, () => tail?.flush());
  tail = tailSpool(log, (lines) => index.add(lines as unknown as FillLine[]), { reopen, everyMs: 100 });
  const holder = edgeOf(ctx);
  holder.cache = index;
  holder.base = base;
  return {
    index,
    stop(): void {
      tail?.stop();
      if (holder.cache === index) { holder.cache = null; holder.base = null; }
    },
  };
}

/** The origin log's record of an answer nginx sent on its own, from its spool line (null: no grant remembered for it). */
function servedOf(l: SpoolLine, grants: FrontGrants): Served | null {
  const info = grants.infoOf(l.sig);
  if (!info) return null;
  const params = { tenant: l.ten, asset: l.ast, ver: l.ver, file: l.f };
  return {
    url: `/m/${l.ten}/assets/${l.ast}/${l.ver}/${l.f}`, method: l.m, ua: l.ua || null, referer: l.ref || null,
    guarded: { params, tenant: info.tenant, target: DELIVERY.vodFile.target(params)! }, status: l.s,
    // As the appliance counts its own answers: the Content-Length of a body sent, 0 for HEAD and 304.
    bytes: l.m === 'HEAD' || l.s === 304 ? 0 : Number(l.l) || 0, fromDisk: true, ttfbMs: 0, sid: info.sid, ip: l.ip || null,
    // nginx's own time of the answer ($msec), when the line has a usable one.
    atMs: Number.isFinite(l.t) && l.t > 0 ? Math.round(l.t * 1000) : undefined,
  };
}

/**
 * Keeps the front's grants in step with the appliance: made by the gate (`Gate.grant`), dropped for a session the
 * moment it is revoked and all at once when keys, policies or attach points change in this process (both before the
 * change's API answer leaves), all at once when the delivery grant counter moves (any process's write to assets,
 * tenants or playback rules; read every 250 ms: well inside the one second other processes' changes may take), and when
 * they expire (swept every 250 ms). nginx's request log of the answers it sent on its own is read back into the gate's
 * observers (the origin log) every 250 ms, on the same timer (one wake-up of this process per tick, four a second).
 */
function followGrants(ctx: AppContext, gate: Gate, at: { dir: string; spool: string }, reopen: () => void) {
  const store = new FrontGrants(at.dir);
  const state = playbackState(ctx);
  gate.grantTo((g) => store.offer(g));
  let version = state.grantVersion();
  const unfollow = state.onChange((sid) => {
    if (sid !== undefined) { store.dropSession(sid); return; } // the counter's move is still dropped by the poll
    // Everything dropped: whatever moved the counter up to now is covered (the poll need not drop again).
    store.dropAll();
    version = state.grantVersion();
  });
  const timer = setInterval(() => {
    try {
      const v = state.grantVersion();
      if (v !== version) { version = v; store.dropAll(); }
    } catch (e) {
      store.dropAll(); // cannot tell what changed: nothing stays granted
      ctx.log.warn('delivery front: grant counter unreadable; grants dropped', { error: String(e) });
    }
    store.sweep();
    spool.flush();
  }, 250);
  timer.unref();
  const spool = tailSpool(at.spool, (lines) => {
    for (const l of lines) { const s = servedOf(l, store); if (s) gate.replay(s); }
  }, { reopen, everyMs: 250, ownTimer: false });
  return {
    store,
    stop(): void {
      clearInterval(timer);
      unfollow();
      gate.grantTo(() => {});
      spool.stop();
      store.dropAll();
    },
  };
}
