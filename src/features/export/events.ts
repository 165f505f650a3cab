/**
 * What flows to export destinations: every event as one `vs.event.v1` line — `{schema, id, type, at, tenant_id,
 * data}` — read back from its durable source for a batch's range: platform events from the outbox (`events`, by
 * seq), statistics events from DuckDB (`player_events` by receive time, `edge_requests` by request time). The `id`
 * is stable (the outbox id; for statistics rows a hash of the row), so receivers can drop duplicates.
 */
import { createHash } from 'node:crypto';
import { iso } from '../../kernel/clock';
import type { AppContext } from '../../kernel/context';
import type { BatchSource } from './store';

/** The schema name every exported event carries. */
export const EVENT_SCHEMA = 'vs.event.v1';

/** One exported event. */
export interface ExportEvent { schema: typeof EVENT_SCHEMA; id: string; type: string; at: string; tenant_id: string; data: Record<string, unknown> }

/** Statistics event types, by source. */
export const STATS_TYPES: Record<Exclude<BatchSource, 'platform'>, string> = { player_events: 'stats.player_event', edge_requests: 'stats.edge_request' };

/** Viewer-level columns, sent only by destinations created with `statistics_pii` (by a key with stats:pii). */
const PII = ['viewer_id', 'ip_hash', 'page_url', 'user_agent', 'referrer'];

/** The time column a statistics source is positioned by. */
export const TIME_COLUMN: Record<Exclude<BatchSource, 'platform'>, string> = { player_events: 'received', edge_requests: 'ts' };

/** Platform events of a tenant with seq in (from, to], optionally only some types, oldest first. */
export function platformEvents(ctx: AppContext, tenantId: string, from: number, to: number, types: string[] | null): ExportEvent[] {
  const rows = ctx.db.query<{ id: string; type: string; at: number; data: string }, [string, number, number]>(
    'SELECT id, type, at, data FROM events WHERE tenant_id = ? AND seq > ? AND seq <= ? ORDER BY seq').all(tenantId, from, to);
  const out: ExportEvent[] = [];
  for (const r of rows) {
    if (types && !types.includes(r.type)) continue;
    out.push({ schema: EVENT_SCHEMA, id: r.id, type: r.type, at: iso(r.at), tenant_id: tenantId, data: JSON.parse(r.data) as Record<string, unknown> });
  }
  return out;
}

/** Pure: a statistics row as an event (BIGINTs as numbers, the id a hash of the whole row). */
export function statsEvent(source: Exclude<BatchSource, 'platform'>, tenantId: string, row: Record<string, unknown>, pii: boolean): ExportEvent {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === 'tenant_id' || (!pii && PII.includes(k))) continue;
    data[k] = typeof v === 'bigint' ? Number(v) : v;
  }
  const id = createHash('sha256').update(source).update('\0').update(JSON.stringify(row, (_k, v) => typeof v === 'bigint' ? String(v) : v)).digest('hex').slice(0, 32);
  return { schema: EVENT_SCHEMA, id, type: STATS_TYPES[source], at: iso(Number(row.ts)), tenant_id: tenantId, data };
}

/** Statistics rows of a tenant with their time column in [from, to), oldest first, as events. */
export async function statsEvents(ctx: AppContext, source: Exclude<BatchSource, 'platform'>, tenantId: string, from: number, to: number, pii: boolean): Promise<ExportEvent[]> {
  const col = TIME_COLUMN[source];
  const rows = await ctx.stats.all<Record<string, unknown>>(`SELECT * FROM ${source} WHERE tenant_id = ? AND ${col} >= ? AND ${col} < ? ORDER BY ${col}, ts`, [tenantId, from, to]);
  return rows.map((r) => statsEvent(source, tenantId, r, pii));
}

/**
 * The end of the next statistics batch from `from`: the time of the (max+1)-th row, so the batch holds at most `max`
 * rows (more only when many rows share one instant), capped at `until`; null when no row is waiting.
 */
export async function statsBatchEnd(ctx: AppContext, source: Exclude<BatchSource, 'platform'>, tenantId: string, from: number, until: number, max: number): Promise<{ to: number; first: number } | null> {
  const col = TIME_COLUMN[source];
  const [first] = await ctx.stats.all<{ t: number | bigint }>(`SELECT min(${col}) AS t FROM ${source} WHERE tenant_id = ? AND ${col} >= ? AND ${col} < ?`, [tenantId, from, until]);
  if (first?.t === null || first?.t === undefined) return null;
  const [cut] = await ctx.stats.all<{ t: number | bigint }>(`SELECT ${col} AS t FROM ${source} WHERE tenant_id = ? AND ${col} >= ? AND ${col} < ? ORDER BY ${col} LIMIT 1 OFFSET ?`, [tenantId, from, until, max]);
  const f = Number(first.t);
  if (!cut) return { to: until, first: f };
  const c = Number(cut.t);
  return { to: c > f ? c : c + 1, first: f };
}
