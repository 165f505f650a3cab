import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../kernel/config/load';
import { renderFrontConf } from '../delivery-front/nginx-conf';
import { frontConfOf, frontGrantsFromEnv, frontPortFromEnv, frontSndbufFromEnv } from '../delivery-front/front';
import { edgeCacheFromEnv } from '../delivery-front/edge-env';
import type { Cli } from './args';

/** Largest request body `serve` passes through the front (as serve.ts). */
const MAX_BODY = 70 * 1024 * 1024;

/**
 * `viewstream edge config [--data DIR] [--port N] [--host ADDR] [--config FILE]`: prints the nginx configuration
 * `serve` generates for the delivery front and edge cache with these settings and environment (front on the public
 * port unless VS_DELIVERY_FRONT_PORT names one). The private directory (sockets, grants, spools) is created afresh by
 * each start; here it is shown as `<tmp>/vs-sock-EXAMPLE`.
 */
export function edgeConfig(flags: Cli['flags']): number {
  const config = loadConfig({ data: flags.data as string | undefined, config: flags.config as string | undefined, port: flags.port !== undefined ? Number(flags.port) : undefined, host: flags.host as string | undefined });
  const own = frontPortFromEnv(process.env);
  const port = own ?? config.port;
  const conf = frontConfOf(config, join(tmpdir(), 'vs-sock-EXAMPLE'), port, {
    grants: frontGrantsFromEnv(process.env), sndbuf: frontSndbufFromEnv(process.env), ...edgeCacheFromEnv(process.env),
    public: own === null ? { maxBodyBytes: MAX_BODY } : undefined,
  });
  process.stdout.write(renderFrontConf(conf));
  return 0;
}
