import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';
import type { StatsStore } from '../../kernel/stats';

/** Seconds a session stays "concurrent" after its last event while not paused or ended (2 × the longest heartbeat). */
export const REALTIME_WINDOW_MS = 120_000;
/** Events up to this far ahead of the server clock still count (client clocks run a little fast). */
export const REALTIME_AHEAD_MS = 60_000;
/** Most content rows of a realtime answer. */
export const REALTIME_MAX_ROWS = 100;

/** Order of events that share a millisecond (as the sessionizer's): the later in this order is the last event. */
export function eventRank(e: string): number {
  switch (e) {
    case 'view_start': return 0;
    case 'play_request': return 1;
    case 'first_frame': return 2;
    case 'pause': return 4;
    case 'ended': return 5;
    case 'error': return 6;
    default: return 3;
  }
}
const RANK_SQL = `CASE e WHEN 'view_start' THEN 0 WHEN 'play_request' THEN 1 WHEN 'first_frame' THEN 2 WHEN 'pause' THEN 4 WHEN 'ended' THEN 5 WHEN 'error' THEN 6 ELSE 3 END`;
/** Last events that end a session's "concurrent" state. */
const IDLE = new Set(['pause', 'ended', 'error', 'view_start']);

/** The latest event of one session (by time, ties by event order), and the content it was about. */
interface Last { kind: string | null; id: string | null; e: string; ts: number; rank: number }

/** The answer of GET /v1/stats/realtime. */
export interface RealtimeAnswer { at: string; window_s: number; concurrent: number; by_content: { kind: string | null; id: string | null; concurrent: number }[] }

const later = (a: { ts: number; rank: number }, b: { ts: number; rank: number }) => a.ts > b.ts || (a.ts === b.ts && a.rank > b.rank);
const enc = new TextEncoder();
/** DuckDB's VARCHAR order (bytes), NULL last. */
function cmpText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const x = enc.encode(a), y = enc.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/**
 * Concurrent viewers in memory: the latest event of every session seen in the window, per tenant, updated by the
 * beacon ingest as beacons are accepted, warmed once from DuckDB at start. Sessions whose latest event is older than
 * the window are dropped (a later event brings them back; an older one cannot make them count again), so memory
 * holds the sessions of the last two minutes only. Answers equal `REALTIME_SQL` over the same events.
 */
export class RealtimeTracker {
  private tenants = new Map<string, Map<string, Last>>();
  private swept = 0;

  /** Records the events of one beacon (any order; only the latest matters). */
  observe(tenant: string, sid: string, kind: string | null, id: string | null, events: readonly { e: string; t: number }[], now: number): void {
    let best: { e: string; ts: number; rank: number } | null = null;
    for (const ev of events) {
      const c = { e: ev.e, ts: ev.t, rank: eventRank(ev.e) };
      if (!best || later(c, best)) best = c;
    }
    if (best) this.put(tenant, sid, { kind, id, ...best });
    if (now - this.swept > 10_000) this.sweep(now);
  }

  private put(tenant: string, sid: string, x: Last): void {
    let m = this.tenants.get(tenant);
    if (!m) this.tenants.set(tenant, (m = new Map()));
    const cur = m.get(sid);
    if (!cur || later(x, cur)) m.set(sid, x);
  }

  /** Drops sessions whose latest event is older than the window. */
  sweep(now: number): void {
    this.swept = now;
    for (const [t, m] of this.tenants) {
      for (const [sid, x] of m) if (x.ts < now - REALTIME_WINDOW_MS) m.delete(sid);
      if (!m.size) this.tenants.delete(t);
    }
  }

  /** Sessions of a tenant whose latest event is in [now − window, now + 60 s] and is not a pause, end, error or bare view start, by content. */
  answer(tenant: string, now: number): RealtimeAnswer {
    const groups = new Map<string, { kind: string | null; id: string | null; concurrent: number }>();
    let total = 0;
    const m = this.tenants.get(tenant);
    if (m) {
      for (const [sid, x] of m) {
        if (x.ts < now - REALTIME_WINDOW_MS) { m.delete(sid); continue; }
        if (x.ts > now + REALTIME_AHEAD_MS || IDLE.has(x.e)) continue;
        const k = `${x.kind === null ? '\u0001' : `=${x.kind}`}\u0000${x.id === null ? '\u0001' : `=${x.id}`}`;
        const g = groups.get(k);
        if (g) g.concurrent++; else groups.set(k, { kind: x.kind, id: x.id, concurrent: 1 });
        total++;
      }
    }
    const rows = [...groups.values()].sort((a, b) => b.concurrent - a.concurrent || cmpText(a.id, b.id) || cmpText(a.kind, b.kind)).slice(0, REALTIME_MAX_ROWS);
    return { at: new Date(now).toISOString(), window_s: REALTIME_WINDOW_MS / 1000, concurrent: total, by_content: rows };
  }

  /** Loads the latest event of every session with events in the window from the events already written (once, at start). */
  async warm(stats: StatsStore, now: number): Promise<void> {
    const rows = await stats.all<{ tenant_id: string; sid: string; kind: string | null; id: string | null; e: string; ts: number; rank: number }>(
      `SELECT tenant_id, sid, ${LAST_SQL} FROM player_events WHERE ts >= ? GROUP BY tenant_id, sid`, [now - REALTIME_WINDOW_MS]);
    for (const r of rows) this.put(r.tenant_id, r.sid, { kind: r.kind, id: r.id, e: r.e, ts: Number(r.ts), rank: Number(r.rank) });
  }
}

/** Per (tenant, sid): the latest event by time then event order, with its content. */
const KEY = `(ts * 8 + ${RANK_SQL})`;
const LAST_SQL = `arg_max_null(kind, ${KEY}) AS kind, arg_max_null(coalesce(channel, content_id), ${KEY}) AS id, arg_max(e, ${KEY}) AS e,
  (max(${KEY}) // 8)::DOUBLE AS ts, (max(${KEY}) % 8)::INTEGER AS rank`;

/** The realtime answer computed by DuckDB from player_events (the reference the tracker equals; params: tenant, now − window, now + 60 s). */
export const REALTIME_SQL = `SELECT kind, id, count(*)::DOUBLE AS n, sum(count(*)) OVER ()::DOUBLE AS total FROM (
    SELECT sid, ${LAST_SQL} FROM player_events WHERE tenant_id = ? AND ts >= ? GROUP BY sid)
  WHERE ts <= ? AND e NOT IN ('pause', 'ended', 'error', 'view_start') GROUP BY ALL ORDER BY n DESC, id, kind LIMIT ${REALTIME_MAX_ROWS}`;

const TRACKER = slotKey<RealtimeTracker>('stats.realtime');

/** The app's realtime tracker (one per context; the stats runtime warms it, the beacon ingest feeds it). */
export function realtimeTracker(ctx: AppContext): RealtimeTracker {
  return ctx.slots.get(TRACKER, () => new RealtimeTracker());
}
