import type { Config } from '../kernel/config/schema';
import type { Served } from '../features/playback/gate';

/** Messages from the main process to a delivery worker (IPC). */
export type ToWorker =
  | { type: 'init'; id: number; config: Config; sock: string; observe: boolean; tag: boolean }
  | { type: 'stop'; graceS: number };

/** Messages from a delivery worker to the main process (IPC). */
export type FromWorker =
  | { type: 'ready'; id: number; pid: number }
  | { type: 'served'; items: Served[] };

/** Environment variable: number of processes serving HTTP (main included); unset = one per core, 1 = main only. */
export const WORKERS_ENV = 'VS_DELIVERY_WORKERS';

/** The configured number of serving processes (main included): `VS_DELIVERY_WORKERS`, else `fallback`. */
export function deliveryWorkerCount(env: Record<string, string | undefined>, fallback: number): number {
  const v = env[WORKERS_ENV];
  if (v === undefined || v === '') return Math.max(1, fallback);
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new Error(`${WORKERS_ENV} must be an integer from 1 to 256, got "${v}"`);
  return n;
}

/** Environment variable (tests, diagnostics): answers a worker gives itself carry `x-vs-served-by: worker-<n>`. */
export const TAG_ENV = 'VS_DELIVERY_TAG';
