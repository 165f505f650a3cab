import type { StatsParam, StatsStore } from '../../kernel/stats';
import type { Device } from './device';
import { DAY_MS, EDGE_DAY_APPEND } from './rollup-day';

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

/** Sums of one rollup key: requests, errors, bytes, memory_requests, memory_bytes, ttfb_ms_sum. */
type Sums = [number, number, number, number, number, number];

/**
 * The minute and day rollup rows (`edge_minute`, `edge_day` column order) of prepared origin-log rows (EDGE_COLUMNS
 * order): the same keys and sums as EDGE_FLUSH's GROUP BY (minute = ts // 60000 * 60000, day = ts // DAY_MS * DAY_MS,
 * dimensions coalesced to '', errors = status >= 400, memory_* = source 'memory', null bytes and ttfb count as 0),
 * computed here so a flush appends them beside the rows instead of staging the rows and grouping them in SQL.
 */
export function edgeRollups(rows: readonly (readonly StatsParam[])[]): { minute: StatsParam[][]; day: StatsParam[][] } {
  const minutes = new Map<string, { key: StatsParam[]; s: Sums }>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const ts = Math.round(Number(r[0])); // as the BIGINT columns store them (see appendTyped)
    const minute = Math.floor(ts / 60_000) * 60_000;
    const tenant = String(r[1]), kind = (r[2] ?? '') as string, target = (r[3] ?? '') as string;
    const country = (r[13] ?? '') as string, device = (r[15] ?? '') as string;
    const id = `${minute}\u0000${tenant}\u0000${kind}\u0000${target}\u0000${country}\u0000${device}`;
    let g = minutes.get(id);
    if (!g) minutes.set(id, (g = { key: [tenant, minute, kind, target, country, device], s: [0, 0, 0, 0, 0, 0] }));
    const bytes = r[8] == null ? 0 : Math.round(Number(r[8]));
    const s = g.s;
    s[0]++;
    if (r[7] != null && Number(r[7]) >= 400) s[1]++;
    s[2] += bytes;
    if (r[11] === 'memory') { s[3]++; s[4] += bytes; }
    if (r[9] != null) s[5] += Number(r[9]);
  }
  const days = new Map<string, StatsParam[]>();
  const minute: StatsParam[][] = [];
  for (const { key, s } of minutes.values()) {
    minute.push([...key, ...s]);
    const day = Math.floor(Number(key[1]) / DAY_MS) * DAY_MS;
    const id = `${day}\u0000${key[0]}\u0000${key[2]}\u0000${key[3]}\u0000${key[4]}\u0000${key[5]}`;
    const d = days.get(id);
    if (!d) { days.set(id, [key[0], day, key[2], key[3], key[4], key[5], ...s]); continue; }
    for (let k = 0; k < 6; k++) d[6 + k] = (d[6 + k] as number) + s[k];
  }
  return { minute, day: [...days.values()] };
}

/**
 * Writes prepared origin-log rows: the rows into `edge_requests` and their minute and day rollups (edgeRollups), in
 * one transaction (nothing half-written on failure; a failed batch is retried whole or counted as failed).
 */
export function writeEdgeRows(stats: StatsStore, rows: readonly (readonly StatsParam[])[]): Promise<void> {
  const { minute, day } = edgeRollups(rows);
  return stats.appendAll([{ table: 'edge_requests', rows }, { table: 'edge_minute', rows: minute }, { table: 'edge_day', rows: day }]);
}

/**
 * One flush of the origin log as an older version wrote it: staged rows move to the log and their per-minute sums are appended to the rollup, in one
 * transaction. Flushes now append the rows and their rollups directly (edgeRollups); this moves rows an older
 * version (or a crash between its append and move) left in `edge_stage`, once at start.
 */
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
