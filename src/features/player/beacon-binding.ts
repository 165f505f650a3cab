import type { BeaconDrop } from '../stats/beacon-counts';
import type { BeaconBody } from './beacon-model';

/** The issuer's record of a playback session (playback_sessions, through the playback service). */
export interface SessionRecord { sid: string; tenant_id: string; target_kind: string; target_id: string; via: string }

/** What a bound beacon is about: the session's tenant and content, and whether it is studio playback. */
export interface BoundBeacon { tenantId: string; kind: string; id: string; channel: string | null; studio: boolean }

/** A beacon that is not counted, and the tenant it named ('' when none or unknown). */
export interface DroppedBeacon { drop: BeaconDrop; tenantId: string }

/** The content of a session in beacon terms (`kind`, `id` as docs/beacons.md names them, and the channel slug). */
export function sessionContent(s: Pick<SessionRecord, 'target_kind' | 'target_id'>): { kind: string; id: string; channel: string | null } {
  switch (s.target_kind) {
    case 'asset': return { kind: 'vod', id: s.target_id, channel: null };
    case 'channel': return { kind: 'live', id: s.target_id, channel: s.target_id };
    case 'catchup': return { kind: 'catchup', id: s.target_id, channel: s.target_id };
    case 'startover': return { kind: 'startover', id: s.target_id, channel: s.target_id.split('/')[0] };
    default: return { kind: s.target_kind, id: s.target_id, channel: null };
  }
}

const CACHE_MAX = 100_000;

/**
 * Binds beacons to playback sessions: a beacon counts only when its `sid` is a session the issuer created (POST
 * /v1/playback/session, /v1/playback/tokens, a studio preview), and what the beacon names agrees with it: its tenant
 * (when named) is the session's, its content (`kind`, `id`, when named) is the session's target, and its viewer
 * (`vid`) is the first one that reported on the session. The stored tenant and content then come from the session,
 * never from the body. Sessions seen are kept in memory (most recently used, bounded), so a view outlives its
 * first token's row.
 */
export class BeaconBinder {
  private seen = new Map<string, { s: SessionRecord; vid: string }>();

  constructor(private lookup: (sid: string) => SessionRecord | null, private tenantOf: (slug: string) => string | null) {}

  /** The beacon's binding, or why it is dropped. */
  bind(b: Pick<BeaconBody, 'sid' | 'vid' | 'tenant' | 'kind' | 'id'>): BoundBeacon | DroppedBeacon {
    const named = b.tenant ? this.tenantOf(b.tenant) ?? '' : '';
    let hit = this.seen.get(b.sid);
    if (hit) { this.seen.delete(b.sid); this.seen.set(b.sid, hit); } else {
      const s = this.lookup(b.sid);
      if (!s) return { drop: 'unbound', tenantId: named };
      hit = { s, vid: b.vid };
    }
    const { s } = hit;
    if (b.tenant && named !== s.tenant_id) return { drop: 'tenant', tenantId: named };
    const c = sessionContent(s);
    if ((b.kind && b.kind !== c.kind) || (b.id && b.id !== c.id && b.id !== c.channel)) return { drop: 'content', tenantId: s.tenant_id };
    if (hit.vid !== b.vid) return { drop: 'viewer', tenantId: s.tenant_id };
    if (!this.seen.has(b.sid)) {
      if (this.seen.size >= CACHE_MAX) this.seen.delete(this.seen.keys().next().value!);
      this.seen.set(b.sid, hit);
    }
    return { tenantId: s.tenant_id, kind: c.kind, id: c.id, channel: c.channel, studio: s.via === 'studio' };
  }
}
