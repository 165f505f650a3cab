import type { Db } from '../../kernel/db/sqlite';
import type { BlackoutRule } from './blackout-rules';

/** A blackout row (`countries` is a JSON array of ISO codes). */
export interface BlackoutRow {
  seq: number; id: string; tenant_id: string; channel: string; programme_id: string | null; name: string;
  from_ms: number | null; to_ms: number | null; applies_to: 'in' | 'out'; countries: string; enabled: number;
  created_at: number; updated_at: number;
}

/** The rule delivery reads from a row. */
export function ruleOf(r: BlackoutRow): BlackoutRule {
  return { id: r.id, tenantId: r.tenant_id, channel: r.channel, programmeId: r.programme_id, name: r.name, fromMs: r.from_ms, toMs: r.to_ms, appliesTo: r.applies_to, countries: JSON.parse(r.countries) as string[] };
}

/** SQL of geo blackouts (migration 0192). */
export class BlackoutStore {
  constructor(private db: Db) {}

  /** Enabled blackouts of every tenant whose window has not ended before `sinceMs` (what delivery can still meet). */
  allLive(sinceMs: number): BlackoutRow[] {
    return this.db.query<BlackoutRow, [number]>('SELECT * FROM playback_blackouts WHERE enabled = 1 AND (to_ms IS NULL OR to_ms > ?)').all(sinceMs);
  }
  /** One blackout of a tenant. */
  get(tenantId: string, id: string): BlackoutRow | null {
    return this.db.query<BlackoutRow, [string, string]>('SELECT * FROM playback_blackouts WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }
  /** A page of a tenant's blackouts, newest first, optionally of one channel. */
  list(tenantId: string, channel: string | null, beforeSeq: number | null, limit: number): BlackoutRow[] {
    return this.db.query<BlackoutRow, [string, string | null, string | null, number, number]>(
      'SELECT * FROM playback_blackouts WHERE tenant_id = ? AND (? IS NULL OR channel = ?) AND seq < ? ORDER BY seq DESC LIMIT ?',
    ).all(tenantId, channel, channel, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1);
  }
  /** How many blackouts a tenant has. */
  count(tenantId: string): number {
    return this.db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM playback_blackouts WHERE tenant_id = ?').get(tenantId)!.n;
  }
  insert(r: Omit<BlackoutRow, 'seq'>): void {
    this.db.query('INSERT INTO playback_blackouts (id, tenant_id, channel, programme_id, name, from_ms, to_ms, applies_to, countries, enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(r.id, r.tenant_id, r.channel, r.programme_id, r.name, r.from_ms, r.to_ms, r.applies_to, r.countries, r.enabled, r.created_at, r.updated_at);
  }
  update(r: BlackoutRow): void {
    this.db.query('UPDATE playback_blackouts SET channel = ?, programme_id = ?, name = ?, from_ms = ?, to_ms = ?, applies_to = ?, countries = ?, enabled = ?, updated_at = ? WHERE tenant_id = ? AND id = ?')
      .run(r.channel, r.programme_id, r.name, r.from_ms, r.to_ms, r.applies_to, r.countries, r.enabled, r.updated_at, r.tenant_id, r.id);
  }
  delete(tenantId: string, id: string): boolean {
    return this.db.query('DELETE FROM playback_blackouts WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0;
  }
}
