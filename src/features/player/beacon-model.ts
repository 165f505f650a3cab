import { t, type Static } from 'elysia';
import { Int } from '../../kernel/http/schema';

/** One viewing event of a beacon (extra fields per event type are allowed; see docs/beacons.md). */
export const BeaconEventSchema = t.Object({
  e: t.String({ pattern: '^[a-z][a-z0-9_]{0,39}$', description: 'event name: view_start, play_request, first_frame, heartbeat, rebuffer_start, rebuffer_end, seek, quality, error, pause, ended, back_to_live, visibility, engine, ad_* …' }),
  t: Int({ minimum: 0, description: 'client time, epoch milliseconds' }),
  pos: t.Number({ minimum: 0, description: 'playhead position, seconds' }),
  buf: t.Number({ minimum: 0, description: 'buffered ahead of the playhead, seconds' }),
  startup_ms: t.Optional(t.Number({ minimum: 0 })), dur_ms: t.Optional(t.Number({ minimum: 0 })),
  level: t.Optional(t.Union([Int(), t.String({ maxLength: 40 })])), error: t.Optional(t.String({ maxLength: 500 })),
  pathway: t.Optional(t.String({ maxLength: 100 })),
}, { additionalProperties: true, maxProperties: 30 });

/** The body of POST /b/v1 (sent as text/plain by navigator.sendBeacon). */
export const BeaconSchema = t.Object({
  v: t.Literal(1),
  sid: t.String({ minLength: 1, maxLength: 100, description: 'playback session id (the token answer `sid` when tokenised), else a random id per view' }),
  vid: t.String({ minLength: 1, maxLength: 100, description: 'anonymous viewer id from first-party storage (resettable)' }),
  tenant: t.Optional(t.Union([t.String({ maxLength: 100 }), t.Null()])),
  host: t.Optional(t.String({ maxLength: 253, description: 'page host' })),
  url: t.Optional(t.Union([t.String({ maxLength: 2000 }), t.Null()])),
  kind: t.Optional(t.Union([t.Literal('live'), t.Literal('vod'), t.Literal('clip'), t.Literal('catchup'), t.Literal('startover'), t.Null()])),
  id: t.Optional(t.Union([t.String({ maxLength: 200 }), t.Null()])),
  src: t.Optional(t.Union([t.String({ maxLength: 2000 }), t.Null()])),
  sent: t.Optional(Int({ minimum: 0 })),
  events: t.Array(BeaconEventSchema, { minItems: 1, maxItems: 300 }),
}, { additionalProperties: false });

/** A beacon body. */
export type BeaconBody = Static<typeof BeaconSchema>;

/** Limits of /b/v1. */
// A batch of a DuckDB row group (122,880 rows) or more is written compressed at commit instead of through the WAL
// (measured: ~10 ms instead of ~300 ms for the commit); queued events cost ~70 bytes each (one JSON text per beacon).
export const BEACON_LIMITS = { maxBytes: 64 * 1024, perIpPerMin: 120, queueMax: 500_000, flushMs: 1000, flushRows: 122_880 } as const;
