import type { Config } from '../kernel/config/schema';
import { assertPortFree, freePort } from '../kernel/net/ports';
import { nginxBinary } from './front';
import { FRONT_MODE_ENV, frontModeFromEnv } from './edge-env';

/** The front on the public port (issue 46): its port, or why the appliance serves alone. */
export interface PublicFrontPlan { front: { port: number } | null; warning: string | null }

/** The warning `serve` prints (and `doctor` repeats) when the front cannot run for want of nginx. */
export const NO_NGINX_WARNING = 'nginx is not installed: the appliance serves alone on the public port, without the delivery front and its edge cache (slower delivery; no purge or pre-warm). Install it (Debian: apt-get install nginx-light, or ./install.sh) or set VS_DELIVERY_FRONT=off to silence this.';

/**
 * Whether `serve` runs the delivery front on the public port (`VS_DELIVERY_FRONT`: `auto` by default): not when a
 * front on a port of its own was asked for (`VS_DELIVERY_FRONT_PORT`) or it is `off`; with `auto` only when nginx is
 * installed (otherwise the appliance alone, with `NO_NGINX_WARNING`); `on` without nginx throws. The public port
 * (a free one for port 0) must be free.
 */
export async function planPublicFront(env: Record<string, string | undefined>, base: Pick<Config, 'port' | 'host'>, ownPortFront: boolean): Promise<PublicFrontPlan> {
  const mode = frontModeFromEnv(env);
  if (ownPortFront || mode === 'off') return { front: null, warning: null };
  if (!nginxBinary()) {
    if (mode === 'on') throw new Error(`${FRONT_MODE_ENV}=on needs nginx (Debian: apt-get install nginx-light)`);
    return { front: null, warning: NO_NGINX_WARNING };
  }
  const port = base.port === 0 ? await freePort(base.host) : base.port;
  if (base.port !== 0) await assertPortFree(port, base.host);
  return { front: { port }, warning: null };
}

/** What `doctor` says of the front (a warning, never a failure: the appliance serves alone without it). */
export function frontFacts(env: Record<string, string | undefined>, nginx: string | null = nginxBinary()): { ok: boolean; mode: string; nginx: string | null; detail: string } {
  let mode: string;
  try { mode = frontModeFromEnv(env); } catch (e) { return { ok: false, mode: 'invalid', nginx, detail: e instanceof Error ? e.message : String(e) }; }
  if (mode === 'off') return { ok: true, mode, nginx, detail: `off (${FRONT_MODE_ENV}=off): the appliance serves alone, no edge cache` };
  if (!nginx) return { ok: false, mode, nginx, detail: mode === 'on' ? `${FRONT_MODE_ENV}=on but nginx is not installed: serve will refuse to start` : NO_NGINX_WARNING };
  return { ok: true, mode, nginx, detail: `nginx ${nginx}: the delivery front and edge cache run on the public port` };
}
