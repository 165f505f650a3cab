import { loadConfig, withAddresses, type ConfigFlags } from '../kernel/config/load';
import { bootContext } from '../kernel/boot';
import { serveApp } from '../kernel/http/server';
import { buildApp, startWorkers } from '../app';
import { identityService, keyLookup, IdentityService } from '../features/identity/service';
import type { AppContext } from '../kernel/context';
import type { AnyElysia } from 'elysia';
import { killAllChildren } from '../media/process';
import { firstOwnerLink } from '../features/team/service';

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
  let app: AnyElysia | null = null;
  const starting = () => new Response(JSON.stringify({ status: 503, title: 'Not ready', detail: 'starting' }), { status: 503, headers: { 'content-type': 'application/problem+json', 'retry-after': '1' } });
  const server = serveApp((r) => (app ? app.handle(r) : starting()), {
    port: base.port, host: base.host, maxBodyBytes: 70 * 1024 * 1024, problemsBase: base.problemsBase,
  });
  const config = withAddresses(base, server.port);
  const ctx: AppContext = { ...ctx0, config };
  app = buildApp(ctx);
  const boot = identityService(ctx).bootstrap();
  const ownerLink = boot ? await firstOwnerLink(ctx, identityService(ctx).tenant(boot.tenant).id, 'Default') : null;
  await startWorkers(ctx);
  const out: string[] = [`ViewStream ${config.baseUrl} (data ${config.dataDir})`, `listening on ${config.host}:${server.port}`];
  out.push(`API reference: ${config.baseUrl}/docs/`);
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
    await server.stop(config.shutdownGraceS);
    await stopAll();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
