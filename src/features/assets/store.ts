import type { Db } from '../../kernel/db/sqlite';
import { indexText } from './search';

/** An `assets` row as the assets feature reads it. */
export interface AssetRow {
  seq: number; id: string; tenant_id: string; external_id: string | null; title: string; status: string; error: string | null;
  ladder: string | null; publish_mode: string; published: number; published_at: number | null; metadata: string; source: string;
  source_path: string | null; duration_s: number | null; progress: number | null; output: string | null; deleted_at: number | null;
  created_at: number; updated_at: number;
}

/** Fields of a new asset. */
export interface NewAsset {
  id: string; tenantId: string; externalId: string | null; title: string; status: string; ladder: string | null;
  publishMode: string; metadata: string; source: string; sourcePath: string | null;
}

const COLS = `seq, id, tenant_id, external_id, title, status, error, ladder, publish_mode, published, published_at, metadata, source,
  source_path, duration_s, progress, output, deleted_at, created_at, updated_at`;

function reindex(db: Db, seq: number): void {
  const a = db.query<AssetRow, [number]>(`SELECT ${COLS} FROM assets WHERE seq = ?`).get(seq);
  db.query('DELETE FROM assets_fts WHERE rowid = ?').run(seq);
  if (a) db.query('INSERT INTO assets_fts (rowid, body) VALUES (?, ?)').run(seq, indexText(a));
}

/** SQL of the assets feature (the only place it lives). */
export class AssetStore {
  constructor(private db: Db) {}

  /** Inserts an asset and its search entry; throws SQLITE_CONSTRAINT on a duplicate external_id. */
  insert(a: NewAsset, now: number): void {
    const r = this.db.query(`INSERT INTO assets (id, tenant_id, external_id, title, status, ladder, publish_mode, metadata, source, source_path, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(a.id, a.tenantId, a.externalId, a.title, a.status, a.ladder, a.publishMode, a.metadata,
      a.source, a.sourcePath, now, now);
    reindex(this.db, Number(r.lastInsertRowid));
  }

  /** One asset of a tenant (trashed ones too; callers decide). */
  get(tenantId: string, id: string): AssetRow | null {
    return this.db.query<AssetRow, [string, string]>(`SELECT ${COLS} FROM assets WHERE tenant_id = ? AND id = ?`).get(tenantId, id);
  }

  /** One asset by id, any tenant (job handlers act on their subject). */
  byId(id: string): AssetRow | null {
    return this.db.query<AssetRow, [string]>(`SELECT ${COLS} FROM assets WHERE id = ?`).get(id);
  }

  /** The asset holding an external id in a tenant, trashed or not. */
  byExternalId(tenantId: string, externalId: string): AssetRow | null {
    return this.db.query<AssetRow, [string, string]>(`SELECT ${COLS} FROM assets WHERE tenant_id = ? AND external_id = ?`).get(tenantId, externalId);
  }

  /**
   * Newest-first page of live (or trashed) assets, optionally matching an FTS expression (or, with `alsoIds`, being one
   * of those ids); `section` (when given)
   * keeps the assets of that library section, or, when null, those in no section.
   */
  list(tenantId: string, o: { before: number | null; limit: number; match: string | null; trash: boolean; section?: string | null; alsoIds?: string[] }): AssetRow[] {
    const before = o.before ?? Number.MAX_SAFE_INTEGER;
    const trash = o.trash ? 'a.deleted_at IS NOT NULL' : 'a.deleted_at IS NULL';
    const cols = COLS.split(',').map((c) => `a.${c.trim()}`).join(', ');
    const sectionSql = o.section === undefined ? '' : o.section === null ? ' AND a.section_id IS NULL' : ' AND a.section_id = ?';
    const sectionArg = typeof o.section === 'string' ? [o.section] : [];
    if (o.match && o.alsoIds?.length) {
      // Text matches or the given ids (assets found by their subtitles), one newest-first page.
      return this.db.query<AssetRow, (string | number)[]>(`SELECT ${cols} FROM assets a WHERE (a.seq IN (SELECT rowid FROM assets_fts WHERE assets_fts MATCH ?)
        OR a.id IN (SELECT value FROM json_each(?))) AND a.tenant_id = ? AND ${trash}${sectionSql} AND a.seq < ? ORDER BY a.seq DESC LIMIT ?`).all(o.match, JSON.stringify(o.alsoIds), tenantId, ...sectionArg, before, o.limit + 1);
    }
    if (o.match) {
      return this.db.query<AssetRow, (string | number)[]>(`SELECT ${cols} FROM assets_fts f JOIN assets a ON a.seq = f.rowid
        WHERE assets_fts MATCH ? AND a.tenant_id = ? AND ${trash}${sectionSql} AND a.seq < ? ORDER BY a.seq DESC LIMIT ?`).all(o.match, tenantId, ...sectionArg, before, o.limit + 1);
    }
    return this.db.query<AssetRow, (string | number)[]>(`SELECT ${cols} FROM assets a WHERE a.tenant_id = ? AND ${trash}${sectionSql} AND a.seq < ?
      ORDER BY a.seq DESC LIMIT ?`).all(tenantId, ...sectionArg, before, o.limit + 1);
  }

  /** Applies metadata edits and refreshes the search entry. */
  update(seq: number, f: { title?: string; externalId?: string | null; ladder?: string; metadata?: string }, now: number): void {
    const sets: string[] = [];
    const vals: (string | number | null)[] = [];
    if (f.title !== undefined) { sets.push('title = ?'); vals.push(f.title); }
    if (f.externalId !== undefined) { sets.push('external_id = ?'); vals.push(f.externalId); }
    if (f.ladder !== undefined) { sets.push('ladder = ?'); vals.push(f.ladder); }
    if (f.metadata !== undefined) { sets.push('metadata = ?'); vals.push(f.metadata); }
    if (!sets.length) return;
    this.db.query(`UPDATE assets SET ${sets.join(', ')}, updated_at = ? WHERE seq = ?`).run(...vals, now, seq);
    reindex(this.db, seq);
  }

  /** Sets the published flag (and its time when publishing). */
  setPublished(seq: number, on: boolean, now: number): void {
    this.db.query('UPDATE assets SET published = ?, published_at = ?, updated_at = ? WHERE seq = ?').run(on ? 1 : 0, on ? now : null, now, seq);
  }

  /** Moves an asset to the trash (or back with `null`). */
  setDeleted(seq: number, at: number | null, now: number): void {
    this.db.query('UPDATE assets SET deleted_at = ?, updated_at = ? WHERE seq = ?').run(at, now, seq);
  }

  /** Records the fetched source file and leaves status as is. */
  setSourcePath(id: string, rel: string, now: number): void {
    this.db.query('UPDATE assets SET source_path = ?, updated_at = ? WHERE id = ?').run(rel, now, id);
  }

  /** Removes an asset row and its search entry for good. */
  remove(seq: number): void {
    this.db.query('DELETE FROM assets_fts WHERE rowid = ?').run(seq);
    this.db.query('DELETE FROM assets WHERE seq = ?').run(seq);
  }

  /** Trashed assets of a tenant (all, or deleted before `olderThan`), oldest first. */
  trashed(tenantId: string | null, olderThan: number | null, limit = 500): AssetRow[] {
    return this.db.query<AssetRow, [string | null, string | null, number | null, number | null, number]>(`SELECT ${COLS} FROM assets
      WHERE deleted_at IS NOT NULL AND (? IS NULL OR tenant_id = ?) AND (? IS NULL OR deleted_at < ?) ORDER BY deleted_at LIMIT ?`)
      .all(tenantId, tenantId, olderThan, olderThan, limit);
  }

  /** Trash retention of a tenant in days (default 30). */
  retentionDays(tenantId: string): number {
    return this.db.query<{ d: number }, [string]>('SELECT trash_retention_days AS d FROM asset_settings WHERE tenant_id = ?').get(tenantId)?.d ?? 30;
  }

  /** Sets the trash retention of a tenant. */
  setRetentionDays(tenantId: string, days: number, now: number): void {
    this.db.query(`INSERT INTO asset_settings (tenant_id, trash_retention_days, updated_at) VALUES (?, ?, ?)
      ON CONFLICT(tenant_id) DO UPDATE SET trash_retention_days = excluded.trash_retention_days, updated_at = excluded.updated_at`).run(tenantId, days, now);
  }

  /** Tenants with trashed assets and their retention, for the sweeper. */
  trashTenants(): { tenant_id: string; days: number }[] {
    return this.db.query<{ tenant_id: string; days: number }, []>(`SELECT DISTINCT a.tenant_id, COALESCE(s.trash_retention_days, 30) AS days
      FROM assets a LEFT JOIN asset_settings s ON s.tenant_id = a.tenant_id WHERE a.deleted_at IS NOT NULL`).all();
  }
}
