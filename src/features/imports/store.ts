import type { Database } from 'bun:sqlite';

/** A library import as stored. */
export interface ImportRow {
  seq: number; id: string; tenant_id: string; url: string; format: string; status: ImportStatus;
  sources: string; truncated: number; created_at: number; started_at: number | null; finished_at: number | null;
  /** JSON ReadProgress while (and after) the documents are read. */
  progress: string | null;
  /** JSON problem (`status`, `code`, `detail`, `errors`) of a `failed` reading. */
  error: string | null;
}

/** `fetching` (documents being read by a job), `review`, `running`, `done`, or `failed` (the reading failed). */
export type ImportStatus = 'fetching' | 'review' | 'running' | 'done' | 'failed';

/** One reviewed video of an import as stored. */
export interface ItemRow {
  seq: number; id: string; import_id: string; page_url: string; video_url: string; video_kind: string; external_id: string;
  title: string; duration_s: number | null; thumbnail_url: string | null; status: 'new' | 'skipped'; selected: number;
  result: 'pending' | 'registered' | 'failed' | 'skipped' | null; asset_id: string | null; error: string | null;
}

/** Counts of an import's items. */
export interface ItemCounts { items: number; new: number; skipped: number; selected: number; pending: number; registered: number; failed: number }

/** SQL of the library_imports and library_import_items tables. */
export class ImportStore {
  constructor(private db: Database) {}

  /** Inserts an import whose documents are still to be read (`fetching`, no format yet). */
  insertFetching(id: string, tenantId: string, url: string, now: number): void {
    this.db.query(`INSERT INTO library_imports (id, tenant_id, url, format, status, progress, created_at) VALUES (?, ?, ?, '', 'fetching', ?, ?)`)
      .run(id, tenantId, url, JSON.stringify({ documents_read: 0, documents_total: 1, videos: 0 }), now);
  }

  /** One import by id (the reading job's lookup). */
  byId(id: string): ImportRow | null {
    return this.db.query<ImportRow, [string]>('SELECT * FROM library_imports WHERE id = ?').get(id);
  }

  /** Records how far the reading got. */
  setProgress(id: string, progress: unknown): void {
    this.db.query(`UPDATE library_imports SET progress = ? WHERE id = ? AND status = 'fetching'`).run(JSON.stringify(progress), id);
  }

  /** Marks a reading failed with its problem. */
  fail(id: string, problem: unknown, now: number): void {
    this.db.query(`UPDATE library_imports SET status = 'failed', error = ?, finished_at = ? WHERE id = ? AND status = 'fetching'`).run(JSON.stringify(problem), now, id);
  }

  /**
   * Stores what the reading found — the items and the import's format, sources and truncation — and puts the import in
   * review; nothing when it is no longer `fetching` (a second run of the job). Call inside a transaction.
   */
  fill(row: Pick<ImportRow, 'id' | 'format' | 'sources' | 'truncated'>, items: Omit<ItemRow, 'seq' | 'result' | 'asset_id' | 'error'>[]): boolean {
    const r = this.db.query(`UPDATE library_imports SET format = ?, sources = ?, truncated = ?, status = 'review' WHERE id = ? AND status = 'fetching'`)
      .run(row.format, row.sources, row.truncated, row.id);
    if (!r.changes) return false;
    const q = this.db.query(`INSERT INTO library_import_items (id, import_id, page_url, video_url, video_kind, external_id, title, duration_s, thumbnail_url, status, selected)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const i of items) q.run(i.id, i.import_id, i.page_url, i.video_url, i.video_kind, i.external_id, i.title, i.duration_s, i.thumbnail_url, i.status, i.selected);
    return true;
  }

  /** One import of the tenant. */
  get(tenantId: string, id: string): ImportRow | null {
    return this.db.query<ImportRow, [string, string]>('SELECT * FROM library_imports WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** The tenant's imports, newest first, before `seq`. */
  list(tenantId: string, before: number | null, limit: number): ImportRow[] {
    return this.db.query<ImportRow, [string, number, number]>('SELECT * FROM library_imports WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?')
      .all(tenantId, before ?? Number.MAX_SAFE_INTEGER, limit + 1);
  }

  /** Items of an import in sitemap order after `seq`, optionally of one status. */
  items(importId: string, after: number | null, limit: number, status?: string): ItemRow[] {
    return this.db.query<ItemRow, [string, number, string | null, string | null, number]>(
      'SELECT * FROM library_import_items WHERE import_id = ? AND seq > ? AND (? IS NULL OR status = ?) ORDER BY seq LIMIT ?')
      .all(importId, after ?? 0, status ?? null, status ?? null, limit + 1);
  }

  /** Counts of an import's items. */
  counts(importId: string): ItemCounts {
    return this.db.query<ItemCounts, [string]>(`SELECT COUNT(*) AS items, COALESCE(SUM(status = 'new'), 0) AS new, COALESCE(SUM(status = 'skipped'), 0) AS skipped,
      COALESCE(SUM(selected), 0) AS selected, COALESCE(SUM(result = 'pending'), 0) AS pending, COALESCE(SUM(result = 'registered'), 0) AS registered,
      COALESCE(SUM(result = 'failed'), 0) AS failed FROM library_import_items WHERE import_id = ?`).get(importId)!;
  }

  /** Ids among `ids` that are not items of the import. */
  unknownItems(importId: string, ids: string[]): string[] {
    const known = new Set(this.db.query<{ id: string }, [string, string]>('SELECT id FROM library_import_items WHERE import_id = ? AND id IN (SELECT value FROM json_each(?))')
      .all(importId, JSON.stringify(ids)).map((r) => r.id));
    return ids.filter((i) => !known.has(i));
  }

  /** Selects or deselects new items (all, or those listed); skipped items stay unselected. Answers the rows changed. */
  select(importId: string, selected: boolean, ids: string[] | 'all'): number {
    const r = ids === 'all'
      ? this.db.query(`UPDATE library_import_items SET selected = ? WHERE import_id = ? AND status = 'new'`).run(selected ? 1 : 0, importId)
      : this.db.query(`UPDATE library_import_items SET selected = ? WHERE import_id = ? AND status = 'new' AND id IN (SELECT value FROM json_each(?))`).run(selected ? 1 : 0, importId, JSON.stringify(ids));
    return r.changes;
  }

  /** Marks the import running and its selected new items pending (once). */
  start(importId: string, now: number): void {
    this.db.query(`UPDATE library_imports SET status = 'running', started_at = ? WHERE id = ? AND status = 'review'`).run(now, importId);
    this.db.query(`UPDATE library_import_items SET result = 'pending' WHERE import_id = ? AND status = 'new' AND selected = 1 AND result IS NULL`).run(importId);
  }

  /** The next pending item of a running import. */
  nextPending(importId: string): ItemRow | null {
    return this.db.query<ItemRow, [string]>(`SELECT * FROM library_import_items WHERE import_id = ? AND result = 'pending' ORDER BY seq LIMIT 1`).get(importId);
  }

  /** Records one item's outcome. */
  finishItem(id: string, result: 'registered' | 'failed' | 'skipped', assetId: string | null, error: string | null): void {
    this.db.query('UPDATE library_import_items SET result = ?, asset_id = ?, error = ? WHERE id = ?').run(result, assetId, error, id);
  }

  /** Marks the import done. */
  finish(importId: string, now: number): void {
    this.db.query(`UPDATE library_imports SET status = 'done', finished_at = ? WHERE id = ?`).run(now, importId);
  }

  /** Running imports of every tenant (resumed at boot). */
  running(): ImportRow[] {
    return this.db.query<ImportRow, []>(`SELECT * FROM library_imports WHERE status = 'running'`).all();
  }

  /** The asset this import registered under `externalId` (found again after a crash between insert and bookkeeping). */
  ownAsset(tenantId: string, importId: string, externalId: string): string | null {
    return this.db.query<{ id: string }, [string, string, string]>(`SELECT id FROM assets WHERE tenant_id = ? AND external_id = ?
      AND json_valid(metadata) AND json_extract(metadata, '$.import.id') = ?`).get(tenantId, externalId, importId)?.id ?? null;
  }

  /** Every external_id and source URL of the tenant's assets (trash included), read once per review. */
  assetIdentities(tenantId: string): { externalIds: Set<string>; sourceUrls: Set<string> } {
    const rows = this.db.query<{ e: string | null; u: string | null }, [string]>(
      `SELECT external_id AS e, CASE WHEN json_valid(source) THEN json_extract(source, '$.url') END AS u FROM assets WHERE tenant_id = ?`).all(tenantId);
    const externalIds = new Set<string>(), sourceUrls = new Set<string>();
    for (const r of rows) { if (r.e) externalIds.add(r.e); if (typeof r.u === 'string') sourceUrls.add(r.u); }
    return { externalIds, sourceUrls };
  }
}
