import type { Db } from '../../kernel/db/sqlite';

/** A row of `glossary_entries` (migration 0132); `variants` is a JSON array. */
export interface GlossaryRow {
  seq: number; id: string; tenant_id: string; term: string; variants: string; language: string | null; norm_key: string;
  created_at: number; updated_at: number;
}

/** SQL of the tenant glossary. */
export class GlossaryStore {
  constructor(private readonly db: Db) {}

  /** Inserts an entry; false when the tenant has the same term for the same language already. */
  insert(r: Omit<GlossaryRow, 'seq'>): boolean {
    return this.db.query(`INSERT OR IGNORE INTO glossary_entries (id, tenant_id, term, variants, language, norm_key, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(r.id, r.tenant_id, r.term, r.variants, r.language, r.norm_key, r.created_at, r.updated_at).changes > 0;
  }

  /** One entry of the tenant. */
  get(tenantId: string, id: string): GlossaryRow | null {
    return this.db.query<GlossaryRow, [string, string]>('SELECT * FROM glossary_entries WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** Entries of the tenant after `afterSeq` (oldest first), of one language (and language-less ones) when given. */
  list(tenantId: string, language: string | null, afterSeq: number, limit: number): GlossaryRow[] {
    return this.db.query<GlossaryRow, [string, string | null, string | null, number, number]>(`SELECT * FROM glossary_entries
      WHERE tenant_id = ? AND (? IS NULL OR language IS NULL OR language = ?) AND seq > ? ORDER BY seq LIMIT ?`).all(tenantId, language, language, afterSeq, limit);
  }

  /** Another entry with the same term and language, if any. */
  clash(tenantId: string, language: string | null, normKey: string, exceptId: string): boolean {
    return !!this.db.query<{ id: string }, [string, string, string, string]>(`SELECT id FROM glossary_entries
      WHERE tenant_id = ? AND COALESCE(language, '') = ? AND norm_key = ? AND id != ?`).get(tenantId, language ?? '', normKey, exceptId);
  }

  /** Rewrites an entry. */
  update(r: GlossaryRow): void {
    this.db.query('UPDATE glossary_entries SET term = ?, variants = ?, language = ?, norm_key = ?, updated_at = ? WHERE id = ?').run(r.term, r.variants, r.language, r.norm_key, r.updated_at, r.id);
  }

  /** Deletes an entry; false when none. */
  delete(tenantId: string, id: string): boolean {
    return this.db.query('DELETE FROM glossary_entries WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0;
  }
}
