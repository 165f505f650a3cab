import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';

/** What a purge names (one or more of these; the keys of the caller's tenant only). */
export interface PurgeSelector {
  /** Viewer URLs (absolute or paths; a `/t/<token>` prefix and the host are ignored). */
  urls?: string[];
  /** A URL path prefix, e.g. `/m/<tenant>/assets/<asset>/`. */
  prefix?: string;
  asset_id?: string;
  clip_id?: string;
  /** A `Cache-Tag` value the origin gave (or `asset:<id>` / `clip:<id>`). */
  tag?: string;
}

/** What a purge did: keys selected, and how many of them had an object on disk that was removed. */
export interface PurgeOutcome { keys: number; removed: number }

/** The running edge cache as features see it (implemented by the delivery front; declared here so layers point down). */
export interface EdgeCache {
  /** The stored keys a selector names for a tenant. */
  select(tenant: string, sel: PurgeSelector): string[];
  /** Evicts keys (their next request is a MISS). */
  purge(keys: string[]): Promise<PurgeOutcome>;
  /** Keys stored now. */
  size(): number;
}

/**
 * Where this app's edge is: the cache (null: no front with a cache runs), the base URL viewers reach it at, and
 * `reconfigure` (set while a front runs): renders its configuration again from the stored CDN distributions and
 * reloads nginx, resolving once the new configuration serves.
 */
export interface EdgeHolder { cache: EdgeCache | null; base: string | null; reconfigure?: () => Promise<void> }

const EDGE = slotKey<EdgeHolder>('edge');

/** This app's edge holder (the delivery front fills it when it starts, and empties it when it stops). */
export function edgeOf(ctx: AppContext): EdgeHolder {
  return ctx.slots.get(EDGE, () => ({ cache: null, base: null }));
}
