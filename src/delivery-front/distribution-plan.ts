import { existsSync } from 'node:fs';
import type { AppContext } from '../kernel/context';
import { DistributionService, type EdgeDistribution } from '../features/edge/distributions';
import { resolveOrigin } from '../features/edge/distributions-check';
import type { DistConf } from './distribution-conf';

/** Where Debian keeps the system's trusted CAs (https origins are verified against them). */
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

/** The CA bundle for https origins, or null when the system has none (origins then unverified; logged by the caller). */
export function caBundle(): string | null {
  return existsSync(CA_BUNDLE) ? CA_BUNDLE : null;
}

/**
 * The stored distributions as the front renders them: each external origin's host resolved now and every address
 * checked again (private or internal ones only with the operator's `VS_CDN_ORIGIN_ALLOW`); an origin that fails is
 * rendered as a 502 answer and logged, never a configuration nginx refuses.
 */
export function planDistributions(ctx: AppContext): Promise<DistConf[]> {
  return planDistributionsOf(new DistributionService(ctx).forEdge(), ctx.config.cdnOriginAllow, (msg, f) => ctx.log.warn(msg, f));
}

/** `planDistributions` over a given list (`viewstream edge config` reads it from the database without a running app). */
export async function planDistributionsOf(list: EdgeDistribution[], allow: string[], warn: (msg: string, f: Record<string, unknown>) => void): Promise<DistConf[]> {
  const out: DistConf[] = [];
  for (const d of list) {
    let origin: DistConf['origin'] = { kind: 'delivery' };
    if (d.originUrl) {
      try {
        const { url, addresses } = await resolveOrigin(d.originUrl, allow);
        const https = url.protocol === 'https:';
        origin = {
          kind: 'url', scheme: https ? 'https' : 'http', host: url.hostname.replace(/^\[|\]$/g, ''), authority: url.host,
          port: Number(url.port || (https ? 443 : 80)), path: url.pathname, addresses,
        };
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        warn('edge: a distribution\'s origin is not usable; its hostnames answer 502', { distribution: d.id, why });
        origin = { kind: 'unresolved', why };
      }
    }
    out.push({ id: d.id, tenant: d.tenant, hostnames: d.hostnames, enabled: d.enabled, origin, rules: d.rules, methods: d.methods, tls: d.tls });
  }
  return out;
}
