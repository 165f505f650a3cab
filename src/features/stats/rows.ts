import type { StatsParam } from '../../kernel/stats';
import type { Device } from './device';
import { EDGE_DAY_APPEND } from './rollup-day';

/** One delivery answer as queued (raw; hashed and enriched at flush time). */
export interface EdgeHit {
  ts: number; tenantId: string; kind: string | null; target: string | null; rendition: string | null; file: string | null;
  method: string; status: number; bytes: number | null; ttfbMs: number; sid: string | null; source: 'memory' | 'disk';
  ip: string | null; ua: string | null; referrer: string | null;
}

type Net = { country: string | null; asn: number | null };

/** An edge hit in `edge_requests` column order (see EDGE_COLUMNS). */
export function edgeRow(r: EdgeHit, ipHash: string | null, net: Net, d: Device): StatsParam[] {
  return [r.ts, r.tenantId, r.kind, r.target, r.rendition, r.file, r.method, r.status, r.bytes, r.ttfbMs, r.sid, r.source,
    ipHash, net.country, net.asn, d.device, d.browser, d.os, r.ua, r.referrer];
}

/** One flush of the origin log: staged rows move to the log and their per-minute sums are appended to the rollup, in one transaction. */
export const EDGE_FLUSH = [
  { sql: 'INSERT INTO edge_requests SELECT * FROM edge_stage' },
  {
    sql: `INSERT INTO edge_minute
      SELECT tenant_id, ts // 60000 * 60000, coalesce(kind, ''), coalesce(target, ''), coalesce(country, ''), coalesce(device, ''),
        count(*), count(*) FILTER (WHERE status >= 400), coalesce(sum(bytes), 0), count(*) FILTER (WHERE source = 'memory'),
        coalesce(sum(bytes) FILTER (WHERE source = 'memory'), 0), coalesce(sum(ttfb_ms), 0)
      FROM edge_stage GROUP BY ALL`,
  },
  { sql: EDGE_DAY_APPEND },
  { sql: 'DELETE FROM edge_stage' },
];
