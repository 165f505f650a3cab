import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { loadConfig } from '../kernel/config/load';
import { renderFrontConf } from '../delivery-front/nginx-conf';
import { frontConfOf, frontGrantsFromEnv, frontPortFromEnv, frontSndbufFromEnv } from '../delivery-front/front';
import { edgeCacheFromEnv } from '../delivery-front/edge-env';
import { planDistributionsOf } from '../delivery-front/distribution-plan';
import type { DistConf } from '../delivery-front/distribution-conf';
import { DistributionStore } from '../features/edge/distributions-store';
import { edgeViewOf } from '../features/edge/distributions';
import type { Cli } from './args';

/** Largest request body `serve` passes through the front (as serve.ts). */
const MAX_BODY = 70 * 1024 * 1024;

/**
 * `viewstream edge config [--data DIR] [--port N] [--host ADDR] [--config FILE]`: prints the nginx configuration
 * `serve` generates for the delivery front and edge cache with these settings and environment (front on the public
 * port unless VS_DELIVERY_FRONT_PORT names one). The private directory (sockets, grants, spools) is created afresh by
 * each start; here it is shown as `<tmp>/vs-sock-EXAMPLE`. The CDN distributions stored in the data directory's database
 * (read-only) are rendered as `serve` would, their origins resolved and checked now.
 */
export async function edgeConfig(flags: Cli['flags']): Promise<number> {
  const config = loadConfig({ data: flags.data as string | undefined, config: flags.config as string | undefined, port: flags.port !== undefined ? Number(flags.port) : undefined, host: flags.host as string | undefined });
  const own = frontPortFromEnv(process.env);
  const port = own ?? config.port;
  const conf = frontConfOf(config, join(tmpdir(), 'vs-sock-EXAMPLE'), port, {
    grants: frontGrantsFromEnv(process.env), sndbuf: frontSndbufFromEnv(process.env), ...edgeCacheFromEnv(process.env),
    public: own === null ? { maxBodyBytes: MAX_BODY } : undefined,
    distributions: await storedDistributions(config.dataDir, config.cdnOriginAllow), tlsPort: config.cdnTlsPort,
  });
  process.stdout.write(renderFrontConf(conf));
  return 0;
}

/** The distributions stored under `dataDir` (none without a database, or one from before distributions existed). */
async function storedDistributions(dataDir: string, allow: string[]): Promise<DistConf[]> {
  const path = join(dataDir, 'db', 'meta.sqlite');
  if (!existsSync(path)) return [];
  const db = new Database(path, { readonly: true });
  try {
    const list = new DistributionStore(db).all().map(edgeViewOf);
    return await planDistributionsOf(list, allow, (msg, f) => process.stderr.write(`${msg}: ${JSON.stringify(f)}\n`));
  } catch { return []; } finally { db.close(); }
}
