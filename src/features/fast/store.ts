import type { Db } from '../../kernel/db/sqlite';

/** A FAST schedule as stored (JSON columns as text). */
export interface ScheduleRow {
  channel_id: string; tenant_id: string; enabled: number; items: string; dayparts: string; renditions: string;
  break_s: number | null; slate_asset_id: string | null; guide_hours: number; anchor_ms: number; version: number;
  created_at: number; updated_at: number;
}

/** A prepared (muxed or conformed) copy of an asset's renditions for one rendition profile. */
export interface PrepRow {
  tenant_id: string; asset_id: string; asset_version: number; profile: string; mode: string; status: string;
  dir: string; segments: string; error: string | null; updated_at: number;
}

/** SQL of FAST schedules and preps (the only place it lives). */
export class FastStore {
  constructor(private db: Db) {}

  schedule(channelId: string): ScheduleRow | null {
    return this.db.query<ScheduleRow, [string]>('SELECT * FROM fast_schedules WHERE channel_id = ?').get(channelId);
  }

  /** Every enabled schedule (the engine's source factory and the guide refresher). */
  enabled(): ScheduleRow[] {
    return this.db.query<ScheduleRow, []>('SELECT * FROM fast_schedules WHERE enabled = 1').all();
  }

  save(r: ScheduleRow): void {
    this.db.query(`INSERT INTO fast_schedules (channel_id, tenant_id, enabled, items, dayparts, renditions, break_s, slate_asset_id, guide_hours, anchor_ms, version, created_at, updated_at)
      VALUES ($channel_id, $tenant_id, $enabled, $items, $dayparts, $renditions, $break_s, $slate_asset_id, $guide_hours, $anchor_ms, $version, $created_at, $updated_at)
      ON CONFLICT (channel_id) DO UPDATE SET enabled = excluded.enabled, items = excluded.items, dayparts = excluded.dayparts, renditions = excluded.renditions,
        break_s = excluded.break_s, slate_asset_id = excluded.slate_asset_id, guide_hours = excluded.guide_hours, anchor_ms = excluded.anchor_ms,
        version = excluded.version, updated_at = excluded.updated_at`).run(Object.fromEntries(Object.entries(r).map(([k, v]) => [`$${k}`, v])) as Record<string, string | number | null>);
  }

  remove(channelId: string): boolean {
    return this.db.query('DELETE FROM fast_schedules WHERE channel_id = ?').run(channelId).changes > 0;
  }

  prep(assetId: string, version: number, profile: string): PrepRow | null {
    return this.db.query<PrepRow, [string, number, string]>('SELECT * FROM fast_preps WHERE asset_id = ? AND asset_version = ? AND profile = ?').get(assetId, version, profile);
  }

  /** Inserts a pending prep; false when one exists already. */
  addPrep(r: PrepRow): boolean {
    return this.db.query(`INSERT OR IGNORE INTO fast_preps (tenant_id, asset_id, asset_version, profile, mode, status, dir, segments, error, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(r.tenant_id, r.asset_id, r.asset_version, r.profile, r.mode, r.status, r.dir, r.segments, r.error, r.updated_at).changes > 0;
  }

  setPrep(assetId: string, version: number, profile: string, p: { status: string; segments?: string; error?: string | null }, now: number): void {
    this.db.query('UPDATE fast_preps SET status = ?, segments = COALESCE(?, segments), error = ?, updated_at = ? WHERE asset_id = ? AND asset_version = ? AND profile = ?')
      .run(p.status, p.segments ?? null, p.error ?? null, now, assetId, version, profile);
  }

  /** Marks a prep pending again (a retry after a failure). */
  retryPrep(assetId: string, version: number, profile: string, now: number): void {
    this.db.query(`UPDATE fast_preps SET status = 'pending', error = NULL, updated_at = ? WHERE asset_id = ? AND asset_version = ? AND profile = ?`).run(now, assetId, version, profile);
  }
}
