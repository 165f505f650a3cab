import type { Db } from '../../kernel/db/sqlite';

/** A channel row as stored. */
export interface ChannelRow {
  seq: number; id: string; tenant_id: string; slug: string; name: string; protocol: string;
  srt_port_primary: number; srt_port_backup: number; srt_passphrase: string; srt_latency_ms: number;
  rtmp_key_primary: string; rtmp_key_backup: string; ladder: string; segment_s: number; failover_s: number;
  recording_enabled: number; retention_hours: number; dvr_window_s: number; timezone: string;
  desired: string; status: string; feed: string; recording: string; feed_info: string;
  created_at: number; updated_at: number;
}

/** One indexed recording segment. */
export interface SegmentRow {
  channel_id: string; rendition: string; start_ms: number; duration_ms: number; bytes: number; path: string;
  discontinuity: number; init_ms: number; seq: number; disc_seq: number;
}

/** Columns a PATCH or runtime update may change. */
export type ChannelPatch = Partial<Omit<ChannelRow, 'seq' | 'id' | 'tenant_id' | 'created_at'>>;

/** SQL for channels (the segment index's SQL is in segment-store.ts). */
export class ChannelStore {
  constructor(private db: Db) {}

  insert(r: Omit<ChannelRow, 'seq'>): void {
    const cols = Object.keys(r);
    this.db.query(`INSERT INTO channels (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`).run(...(Object.values(r) as never[]));
  }

  byId(tenantId: string, id: string): ChannelRow | null {
    return this.db.query<ChannelRow, [string, string]>('SELECT * FROM channels WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** A channel by id in any tenant (runtime use only). */
  anyById(id: string): ChannelRow | null {
    return this.db.query<ChannelRow, [string]>('SELECT * FROM channels WHERE id = ?').get(id);
  }

  bySlug(tenantId: string, slug: string): ChannelRow | null {
    return this.db.query<ChannelRow, [string, string]>('SELECT * FROM channels WHERE tenant_id = ? AND slug = ?').get(tenantId, slug);
  }

  /** A channel by tenant slug and channel slug (delivery paths). */
  byTenantSlug(tenantSlug: string, slug: string): (ChannelRow & { tenant_slug: string }) | null {
    return this.db.query<ChannelRow & { tenant_slug: string }, [string, string]>(
      'SELECT c.*, t.slug AS tenant_slug FROM channels c JOIN tenants t ON t.id = c.tenant_id WHERE t.slug = ? AND c.slug = ?',
    ).get(tenantSlug, slug);
  }

  /** The channel and input owning an RTMP stream key. */
  byStreamKey(key: string): ChannelRow | null {
    return this.db.query<ChannelRow, [string, string]>('SELECT * FROM channels WHERE rtmp_key_primary = ? OR rtmp_key_backup = ?').get(key, key);
  }

  list(tenantId: string, beforeSeq: number | null, limit: number): ChannelRow[] {
    return this.db.query<ChannelRow, [string, number, number]>('SELECT * FROM channels WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?')
      .all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1);
  }

  /** Channels whose operator asked them to run (restarted at boot). */
  started(): ChannelRow[] {
    return this.db.query<ChannelRow, []>("SELECT * FROM channels WHERE desired = 'started'").all();
  }

  /** Every channel (retention, reconciliation). */
  all(): (ChannelRow & { tenant_slug: string })[] {
    return this.db.query<ChannelRow & { tenant_slug: string }, []>('SELECT c.*, t.slug AS tenant_slug FROM channels c JOIN tenants t ON t.id = c.tenant_id').all();
  }

  /** SRT ports already held by channels. */
  usedPorts(): Set<number> {
    const rows = this.db.query<{ a: number; b: number }, []>('SELECT srt_port_primary AS a, srt_port_backup AS b FROM channels').all();
    return new Set(rows.flatMap((r) => [r.a, r.b]));
  }

  update(id: string, p: ChannelPatch, at: number): void {
    const cols = Object.keys(p);
    if (!cols.length) return;
    this.db.query(`UPDATE channels SET ${cols.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`)
      .run(...(Object.values(p) as never[]), at, id);
  }

  delete(id: string): void {
    this.db.query('DELETE FROM live_segments WHERE channel_id = ?').run(id);
    this.db.query('DELETE FROM live_hours WHERE channel_id = ?').run(id);
    this.db.query('DELETE FROM channels WHERE id = ?').run(id);
  }
}
