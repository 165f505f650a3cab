import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, withAddresses } from '../../src/kernel/config/load';
import { bootContext } from '../../src/kernel/boot';
import { serveApp } from '../../src/kernel/http/server';
import { fastLanes } from '../../src/kernel/http/fast-lane';
import type { AnyElysia } from 'elysia';
import { buildApp, startWorkers, type BuiltApp } from '../../src/app';
import { bootDeps } from '../../src/cli/serve';
import { identityService } from '../../src/features/identity/service';
import type { AppContext } from '../../src/kernel/context';
import type { Clock } from '../../src/kernel/clock';
import { killAllChildren } from '../../src/media/process';
import { contractOf, type Contract, type OpenApiDoc, type Violation } from './contract';
import { deliveryWorkerCount } from '../../src/delivery-worker/protocol';
import { startDeliveryTier, type DeliveryTier } from '../../src/delivery-worker/tier';
import { freePort as freePortOn } from '../../src/kernel/net/ports';
import { frontGrantsFromEnv, frontSndbufFromEnv, planFront, startDeliveryFront, withFront, type DeliveryFront } from '../../src/delivery-front/front';
import { edgeCacheFromEnv } from '../../src/delivery-front/edge-env';

/** A running in-process appliance for tests: real SQLite, DuckDB and HTTP on port 0 in a temp data dir. */
export interface TestServer {
  url: string;
  /** Owner key of tenant `default`. */
  key: string;
  ctx: AppContext;
  /** The Elysia app (the router): tests compare it with `fetch`, the handler the server serves with. */
  app: AnyElysia;
  /** The handler the server serves with (a /t/ GET or HEAD skips the router). */
  fetch: (r: Request) => Response | Promise<Response>;
  dataDir: string;
  /** Calls the API with the owner key (or `opts.key`); JSON bodies are encoded. */
  api(method: string, path: string, body?: unknown, opts?: { key?: string | null; headers?: Record<string, string> }): Promise<Response>;
  /** With `validate` (or VS_TEST_CONTRACT=1): answers of api() that differ from /openapi.json (checked with Ajv). */
  violations: Violation[];
  /** The checker used by api() when validating (operations it saw are in `contract.seen`). */
  contract: Contract | null;
  /** Delivery workers, when VS_DELIVERY_WORKERS (env or opts.env) is above 1. */
  tier: DeliveryTier | null;
  /** The native delivery front (nginx), when VS_DELIVERY_FRONT_PORT is set in opts.env (playback URLs point at it). */
  front: DeliveryFront | null;
  stop(): Promise<void>;
}

/**
 * Starts an appliance; `env` overrides VS_* variables; `workers: false` skips background workers. Restarting over
 * an existing `dataDir` creates no new key: pass the earlier one as `ownerKey`.
 */
export async function startTestServer(opts: { env?: Record<string, string>; workers?: boolean; clock?: Clock; dataDir?: string; ownerKey?: string; validate?: boolean } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'vs-test-'));
  // A free RTMP port per server so parallel test servers never fight over 1935.
  const env = { VS_RTMP_PORT: String(await freePort()), ...opts.env, VS_LOG_LEVEL: opts.env?.VS_LOG_LEVEL ?? 'error' };
  const base = loadConfig({ data: dataDir, port: 0, host: '127.0.0.1' }, env);
  const { ctx: ctx0, stopAll } = await bootContext(withAddresses(base, 0), bootDeps, { clock: opts.clock });
  let built: BuiltApp | null = null;
  // Delivery workers (separate processes on the same port) only when VS_DELIVERY_WORKERS asks for them (default 1 here).
  const delivery = deliveryWorkerCount({ ...process.env, ...opts.env }, 1);
  const handle = (r: Request) => built!.fetch(r);
  const server = serveApp(handle, { port: 0, host: '127.0.0.1', maxBodyBytes: 70 * 1024 * 1024, problemsBase: base.problemsBase, reusePort: delivery > 1, lanes: fastLanes(ctx0) });
  const plan = await planFront(opts.env ?? {}, '127.0.0.1');
  const ctx: AppContext = { ...ctx0, config: withAddresses(withFront(base, plan), server.port) };
  built = buildApp(ctx);
  const { app, gate } = built;
  const boot = identityService(ctx).bootstrap();
  if (opts.workers !== false) await startWorkers(ctx);
  const tier: DeliveryTier | null = delivery > 1 ? await startDeliveryTier(ctx, gate, handle, delivery, { tag: ({ ...process.env, ...opts.env }).VS_DELIVERY_TAG === '1' }) : null;
  const front: DeliveryFront | null = plan && await startDeliveryFront(ctx, gate, handle, plan.port, { grants: frontGrantsFromEnv(opts.env ?? {}), sndbuf: frontSndbufFromEnv(opts.env ?? {}), ...edgeCacheFromEnv(opts.env ?? {}) });
  const url = ctx.config.baseUrl;
  const key = boot?.key ?? opts.ownerKey ?? '';
  // Contract mode: every api() answer is validated against the served document; differences are collected.
  const validate = opts.validate ?? process.env.VS_TEST_CONTRACT === '1';
  const violations: Violation[] = [];
  let checker: Promise<Contract> | null = null;
  const send = (method: string, path: string, body: unknown, o: { key?: string | null; headers?: Record<string, string> }) => {
    const headers: Record<string, string> = { ...o.headers };
    const k = o.key === undefined ? key : o.key;
    if (k) headers.authorization = `Bearer ${k}`;
    let payload: BodyInit | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    return fetch(url + path, { method, headers, body: payload });
  };
  const t: TestServer = {
    url, key, ctx, app, fetch: handle, dataDir, violations, contract: null,
    async api(method, path, body, o = {}) {
      const res = await send(method, path, body, o);
      if (validate) {
        const c = await (checker ??= fetch(`${url}/openapi.json`).then((r) => r.json() as Promise<OpenApiDoc>).then(contractOf));
        t.contract = c;
        violations.push(...(await c.check(method, path, res)).filter((v) => v.problem !== 'no documented operation'));
      }
      return res;
    },
    tier,
    front,
    async stop() {
      await front?.stop(1);
      await tier?.stop(1);
      await server.stop(1);
      // Bounded: a worker that cannot stop in 30 s must not hang the suite; its children are killed regardless.
      const bounded = await Promise.race([stopAll().then(() => true), Bun.sleep(30_000).then(() => false)]);
      if (!bounded) { process.stderr.write('test server: stopAll exceeded 30 s; killing children\n'); killAllChildren(); }
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (validate && violations.length && opts.validate === undefined) {
        throw new Error(`answers differ from /openapi.json:\n${violations.map((v) => `${v.method} ${v.path} ${v.status}: ${v.problem}`).join('\n')}`);
      }
    },
  };
  return t;
}

/** Polls `fn` until it returns a truthy value or the deadline passes (then throws with `what`). */
export async function waitFor<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) { last = e; }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await Bun.sleep(everyMs);
  }
}

/** A TCP port that was free a moment ago on 127.0.0.1 (bind to 0, read, close). */
export function freePort(): Promise<number> {
  return freePortOn('127.0.0.1');
}
