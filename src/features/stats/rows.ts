import type { StatsParam } from '../../kernel/stats';
import type { Device } from './device';

/** One delivery answer as queued (raw; hashed and enriched at flush time). */
export interface EdgeHit {
  ts: number; tenantId: string; kind: string | null; target: string | null; rendition: string | null; file: string | null;
  method: string; status: number; bytes: number | null; ttfbMs: number; sid: string | null; source: 'memory' | 'disk';
  ip: string | null; ua: string | null; referrer: string | null;
}

/** One viewer event as queued (the beacon's fields, flattened; `data` keeps the rest as JSON). */
export interface PlayerEvent {
  ts: number; received: number; tenantId: string; sid: string; viewerId: string | null; pageHost: string | null; pageUrl: string | null;
  kind: string | null; contentId: string | null; channel: string | null; live: boolean | null; e: string; pos: number | null; buf: number | null;
  startupMs: number | null; durMs: number | null; level: string | null; pathway: string | null; error: string | null;
  ip: string | null; ua: string | null; referrer: string | null; data: string | null;
}

type Net = { country: string | null; asn: number | null };

/** An edge hit in `edge_requests` column order (see EDGE_COLUMNS). */
export function edgeRow(r: EdgeHit, ipHash: string | null, net: Net, d: Device): StatsParam[] {
  return [r.ts, r.tenantId, r.kind, r.target, r.rendition, r.file, r.method, r.status, r.bytes, r.ttfbMs, r.sid, r.source,
    ipHash, net.country, net.asn, d.device, d.browser, d.os, r.ua, r.referrer];
}

/** A player event in `player_events` column order (see EVENT_COLUMNS). */
export function eventRow(r: PlayerEvent, ipHash: string | null, net: Net, d: Device): StatsParam[] {
  return [r.ts, r.received, r.tenantId, r.sid, r.viewerId, r.pageHost, r.pageUrl, r.kind, r.contentId, r.channel, r.live, r.e, r.pos, r.buf,
    r.startupMs, r.durMs, r.level, r.pathway, r.error, ipHash, net.country, net.asn, d.device, r.ua, r.referrer, r.data];
}

/** One flush of the origin log: staged rows move to the log and are added to the minute rollup in one transaction. */
export const EDGE_FLUSH = [
  { sql: 'INSERT INTO edge_requests SELECT * FROM edge_stage' },
  {
    sql: `INSERT INTO edge_minute
      SELECT tenant_id, ts // 60000 * 60000, coalesce(kind, ''), coalesce(target, ''), coalesce(country, ''), coalesce(device, ''),
        count(*), count(*) FILTER (WHERE status >= 400), coalesce(sum(bytes), 0), count(*) FILTER (WHERE source = 'memory'),
        coalesce(sum(bytes) FILTER (WHERE source = 'memory'), 0), coalesce(sum(ttfb_ms), 0)
      FROM edge_stage GROUP BY ALL
      ON CONFLICT DO UPDATE SET requests = requests + excluded.requests, errors = errors + excluded.errors,
        bytes = bytes + excluded.bytes, memory_requests = memory_requests + excluded.memory_requests,
        memory_bytes = memory_bytes + excluded.memory_bytes,
        ttfb_ms_sum = ttfb_ms_sum + excluded.ttfb_ms_sum`,
  },
  { sql: 'DELETE FROM edge_stage' },
];

/** One flush of player events: staged rows move to the event table. */
export const EVENT_FLUSH = [
  { sql: 'INSERT INTO player_events SELECT * FROM event_stage' },
  { sql: 'DELETE FROM event_stage' },
];
