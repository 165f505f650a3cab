import { AppError, invalid, type FieldError } from '../../kernel/errors';
import type { StatsParam } from '../../kernel/stats';

/** Longest range of any statistics query (2 years). */
export const MAX_RANGE_MS = 731 * 86_400_000;
/** Default range: the last 24 hours. */
export const DEFAULT_RANGE_MS = 86_400_000;

/** Filters of the common statistics query (all optional; `channel` already resolved to its slug). */
export interface Filters {
  country?: string; device?: string; pathway?: string; channel?: string; asset?: string; clip?: string; page_host?: string; live?: boolean;
}

/** A checked statistics query: the half-open range [from, to) in epoch ms and the filters. */
export interface StatsQuery { tenantId: string; from: number; to: number; filters: Filters }

/** Parses `from`/`to` (RFC 3339 or epoch milliseconds); null when absent. */
export function parseTime(field: string, v: string | undefined): number | null {
  if (v === undefined || v === '') return null;
  if (/^\d{1,15}$/.test(v)) return Number(v);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(v)) throw invalid(field, 'RFC 3339 date-time (e.g. 2026-01-31T12:00:00Z) or epoch milliseconds');
  const t = Date.parse(v);
  if (!Number.isFinite(t)) throw invalid(field, 'not a valid date-time');
  return t;
}

/** Checks the common query: default last 24 h, `from` before `to`, at most 2 years (422 otherwise). */
export function parseRange(q: { from?: string; to?: string }, now: number, maxMs = MAX_RANGE_MS): { from: number; to: number } {
  const toQ = parseTime('to', q.to), fromQ = parseTime('from', q.from);
  const nowUp = Math.ceil(now / 60_000) * 60_000; // the default range ends on the next minute (rollups answer it)
  const to = toQ ?? (fromQ !== null ? Math.min(nowUp, fromQ + DEFAULT_RANGE_MS) : nowUp);
  const from = fromQ ?? to - DEFAULT_RANGE_MS;
  const errors: FieldError[] = [];
  if (from >= to) errors.push({ field: 'from', detail: 'must be before `to`' });
  else if (to - from > maxMs) errors.push({ field: 'to', detail: `range longer than ${Math.round(maxMs / 86_400_000)} days` });
  if (errors.length) throw new AppError('validation_error', `${errors[0].field}: ${errors[0].detail}`, { errors });
  return { from, to };
}

/** SQL conditions of the filters over viewer sessions: a session belongs to the range of its first event. */
export function sessionWhere(q: StatsQuery): { sql: string; params: StatsParam[] } {
  return eventWhere(q, 'started');
}

/** SQL conditions of the filters over `player_events` (alias-free) with their parameters. */
export function eventWhere(q: StatsQuery, tsCol: 'ts' | 'started' | 'minute' | 'day' = 'ts'): { sql: string; params: StatsParam[] } {
  const c: string[] = ['tenant_id = ?', `${tsCol} >= ?`, `${tsCol} < ?`];
  const p: StatsParam[] = [q.tenantId, q.from, q.to];
  const f = q.filters;
  const eq = (col: string, v: StatsParam | undefined) => { if (v !== undefined) { c.push(`${col} = ?`); p.push(v); } };
  eq('country', f.country); eq('device', f.device); eq('pathway', f.pathway); eq('page_host', f.page_host); eq('live', f.live);
  if (f.channel !== undefined) { c.push(`(kind IN ('live', 'channel', 'catchup', 'startover') AND (channel = ? OR content_id = ?))`); p.push(f.channel, f.channel); }
  if (f.asset !== undefined) { c.push(`kind IN ('vod', 'asset') AND content_id = ?`); p.push(f.asset); }
  if (f.clip !== undefined) { c.push(`kind = 'clip' AND content_id = ?`); p.push(f.clip); }
  return { sql: c.join(' AND '), params: p };
}

/**
 * SQL conditions over the origin log or its rollup (`ts` column named by `tsCol`). Filters the origin cannot know
 * (`pathway`, `page_host`) match through the viewer sessions' `sid` on the raw log, and make rollup reads fall back
 * to the raw log (see `edgeUsesRollup`).
 */
export function edgeWhere(q: StatsQuery, tsCol: 'ts' | 'minute' | 'day'): { sql: string; params: StatsParam[] } {
  const c: string[] = ['tenant_id = ?', `${tsCol} >= ?`, `${tsCol} < ?`];
  const p: StatsParam[] = [q.tenantId, tsCol === 'minute' ? Math.floor(q.from / 60_000) * 60_000 : q.from, q.to];
  const f = q.filters;
  if (f.country !== undefined) { c.push('country = ?'); p.push(f.country); }
  if (f.device !== undefined) { c.push('device = ?'); p.push(f.device); }
  if (f.channel !== undefined) { c.push(`kind IN ('channel', 'catchup', 'startover') AND split_part(target, '/', 1) = ?`); p.push(f.channel); }
  if (f.asset !== undefined) { c.push(`kind = 'asset' AND target = ?`); p.push(f.asset); }
  if (f.clip !== undefined) { c.push(`kind = 'clip' AND target = ?`); p.push(f.clip); }
  if (f.live !== undefined) c.push(f.live ? `kind = 'channel'` : `kind <> 'channel'`);
  if (tsCol === 'ts' && (f.pathway !== undefined || f.page_host !== undefined)) {
    const s: string[] = ['pe.tenant_id = ?'];
    p.push(q.tenantId);
    if (f.pathway !== undefined) { s.push('pe.pathway = ?'); p.push(f.pathway); }
    if (f.page_host !== undefined) { s.push('pe.page_host = ?'); p.push(f.page_host); }
    c.push(`sid IN (SELECT pe.sid FROM player_events pe WHERE ${s.join(' AND ')})`);
  }
  return { sql: c.join(' AND '), params: p };
}

/** True when the range starts and ends on a minute (minute rollups answer it exactly). */
export function minuteAligned(q: StatsQuery): boolean {
  return q.from % 60_000 === 0 && q.to % 60_000 === 0;
}

/** True when the minute rollup answers the query exactly: no session-level filters, minute-aligned range. */
export function edgeUsesRollup(q: StatsQuery): boolean {
  return q.filters.pathway === undefined && q.filters.page_host === undefined && q.from % 60_000 === 0 && q.to % 60_000 === 0;
}
