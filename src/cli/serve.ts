import { loadConfig, withAddresses, type ConfigFlags } from '../kernel/config/load';
import { bootContext } from '../kernel/boot';
import { serveApp } from '../kernel/http/server';
import { fastLanes } from '../kernel/http/fast-lane';
import { buildApp, startWorkers, type BuiltApp } from '../app';
import { identityService, keyLookup, IdentityService } from '../features/identity/service';
import type { AppContext } from '../kernel/context';
import { killAllChildren } from '../media/process';
import { firstOwnerLink } from '../features/team/service';
import { deliveryWorkerCount } from '../delivery-worker/protocol';
import { startDeliveryTier, type DeliveryTier } from '../delivery-worker/tier';
import { availableParallelism } from 'node:os';
import { reportStalls } from '../kernel/stall';
import { assertPortFree } from '../kernel/net/ports';
import { frontGrantsFromEnv, frontSndbufFromEnv, planFront, startDeliveryFront, withFront, type DeliveryFront } from '../delivery-front/front';
import { planPublicFront } from '../delivery-front/public-front';
import { edgeCacheFromEnv } from '../delivery-front/edge-env';

/** Largest request body the appliance takes (uploads in parts), on its own listener and through the front. */
const MAX_BODY = 70 * 1024 * 1024;

/** Dependencies the kernel takes from the identity feature. */
export const bootDeps = {
  keyLookup,
  secret: (db: AppContext['db'], name: string) => new IdentityService(db, null).secret(name),
};

/** `viewstream serve`: opens the stores, bootstraps an empty data dir, serves HTTP, stops cleanly on signals. */
export async function serve(flags: ConfigFlags): Promise<void> {
  const base = loadConfig(flags);
  // Bind first (port 0 allowed) so every URL the API returns carries the real port.
  const provisional = withAddresses(base, base.port);
  const { ctx: ctx0, stopAll } = await bootContext(provisional, bootDeps);
  let built: BuiltApp | null = null;
  const starting = () => new Response(JSON.stringify({ status: 503, title: 'Not ready', detail: 'starting' }), { status: 503, headers: { 'content-type': 'application/problem+json', 'retry-after': '1' } });
  // The native delivery front (nginx) on a port of its own; playback URLs point at it unless cdn_base_url says otherwise.
  const plan = await planFront(process.env, base.host);
  // Or, by default, on the public port with the appliance behind it (issue 46); null: the appliance alone (warned).
  const pub = await planPublicFront(process.env, base, plan !== null);
  // Serving processes (main included): one per core by default (one with the front on the public port: nginx
  // serves delivery); delivery workers share the port (SO_REUSEPORT).
  const workers = deliveryWorkerCount(process.env, pub.front ? 1 : availableParallelism());
  if (workers > 1 && base.port !== 0 && !pub.front) await assertPortFree(base.port, base.host);
  const edge = edgeCacheFromEnv(process.env);
  const frontGrants = frontGrantsFromEnv(process.env);
  const frontSndbuf = frontSndbufFromEnv(process.env);
  const handle = (r: Request) => (built ? built.fetch(r) : starting());
  // Behind a public front the appliance's own listener is private (loopback, any port): viewers reach the front.
  const server = serveApp(handle, {
    port: pub.front ? 0 : base.port, host: pub.front ? '127.0.0.1' : base.host, maxBodyBytes: MAX_BODY, problemsBase: base.problemsBase, reusePort: workers > 1,
    lanes: fastLanes(ctx0),
  });
  const config = withAddresses(withFront(base, plan), pub.front ? pub.front.port : server.port);
  const ctx: AppContext = { ...ctx0, config };
  built = buildApp(ctx);
  const gate = built.gate;
  const boot = identityService(ctx).bootstrap();
  const ownerLink = boot ? await firstOwnerLink(ctx, identityService(ctx).tenant(boot.tenant).id, 'Default') : null;
  await startWorkers(ctx);
  const tier: DeliveryTier | null = workers > 1 ? await startDeliveryTier(ctx, gate, handle, workers, { tag: process.env.VS_DELIVERY_TAG === '1' }) : null;
  const front: DeliveryFront | null = plan || pub.front ? await startDeliveryFront(ctx, gate, handle, plan ? plan.port : pub.front!.port, {
    grants: frontGrants, sndbuf: frontSndbuf, ...edge, public: pub.front ? { maxBodyBytes: MAX_BODY } : undefined,
  }) : null;
  const stopStalls = reportStalls(process.env.VS_STALL_FILE, 'main');
  const out: string[] = [`ViewStream ${config.baseUrl} (data ${config.dataDir})`];
  if (pub.front) out.push(`listening on ${config.host}:${pub.front.port}: delivery front (nginx${edge.cache ? ', edge cache' : ''}) with the appliance behind it (its own listener 127.0.0.1:${server.port}; VS_DELIVERY_FRONT)`);
  else out.push(`listening on ${config.host}:${server.port}`);
  if (pub.warning) { out.push(`WARNING: ${pub.warning}`); ctx.log.warn(pub.warning); }
  out.push(`API reference: ${config.baseUrl}/docs/`);
  if (tier) out.push(`delivery on ${workers} processes (main + ${workers - 1} workers; VS_DELIVERY_WORKERS)`);
  if (front && plan) out.push(`delivery front (nginx) on ${plan.url} (VS_DELIVERY_FRONT_PORT); playback URLs: ${config.cdnBaseUrl}`);
  if (boot) {
    out.push(`Created tenant "${boot.tenant}". Owner API key (shown once, keep it safe):`);
    out.push(`  ${boot.key}`);
    out.push(`Try: curl -H "Authorization: Bearer ${boot.key}" ${config.baseUrl}/v1/me`);
    if (ownerLink) out.push(`Create the first studio owner (one-time link, valid 7 days):`, `  ${ownerLink}`);
  }
  process.stdout.write(out.join('\n') + '\n');
  let stopping = false;
  const stop = async (sig: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info('shutting down', { signal: sig });
    // Last resort: never outlive the grace period by more than 15 s (children die with us: process groups).
    setTimeout(() => { ctx.log.error('shutdown overran; exiting'); killAllChildren(); process.exit(1); }, (config.shutdownGraceS + 15) * 1000).unref();
    await front?.stop(config.shutdownGraceS);
    await tier?.stop(config.shutdownGraceS);
    await server.stop(config.shutdownGraceS);
    stopStalls();
    await stopAll();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
