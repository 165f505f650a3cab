import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';
import { RealtimeTracker } from './realtime';

/** Why a beacon was not counted: no session by its sid, another tenant's session, other content, another viewer's session. */
export type BeaconDrop = 'unbound' | 'tenant' | 'content' | 'viewer';

/** Beacon intake counters of one tenant since the process started (GET /v1/stats/beacons). */
export interface BeaconTally { audience: number; studio: number; dropped: Record<BeaconDrop, number> }

const empty = (): BeaconTally => ({ audience: 0, studio: 0, dropped: { unbound: 0, tenant: 0, content: 0, viewer: 0 } });

/**
 * What the beacon ingest did with each beacon, per tenant: counted as audience, kept apart as studio playback, or
 * dropped (attributed to the tenant the beacon named; '' when it named none or an unknown one). In memory: the
 * beacon ingest runs in the main process only (workers forward /b/v1), so one process holds every count.
 */
export class BeaconCounts {
  private byTenant = new Map<string, BeaconTally>();
  /** Studio previews playing now (the audience tracker's rules, kept apart from audience figures). */
  readonly studio = new RealtimeTracker();
  readonly since = Date.now();

  private of(tenant: string): BeaconTally {
    let c = this.byTenant.get(tenant);
    if (!c) { c = empty(); if (this.byTenant.size < 100_000) this.byTenant.set(tenant, c); }
    return c;
  }
  /** One beacon counted as audience. */
  audience(tenant: string): void { this.of(tenant).audience++; }
  /** One beacon of studio playback (kept out of audience figures). */
  studioBeacon(tenant: string): void { this.of(tenant).studio++; }
  /** One dropped beacon, attributed to the tenant it named. */
  drop(tenant: string, why: BeaconDrop): void { this.of(tenant).dropped[why]++; }
  /** A tenant's counters (zeros when it has none). */
  tally(tenant: string): BeaconTally { const c = this.byTenant.get(tenant) ?? empty(); return { ...c, dropped: { ...c.dropped } }; }
}

const KEY = slotKey<BeaconCounts>('stats.beacon-counts');

/** The app's beacon counters (one per application context). */
export function beaconCounts(ctx: AppContext): BeaconCounts {
  return ctx.slots.get(KEY, () => new BeaconCounts());
}
