import type { Db } from '../../kernel/db/sqlite';

/** A stored player configuration (`doc` is JSON of the document). */
export interface ConfigRow { seq: number; id: string; tenant_id: string; name: string; doc: string; created_at: number; updated_at: number }
/** Where a configuration applies; `target_ref` is '' for tenant, live_default and library_default. */
export interface AssignRow { seq: number; id: string; tenant_id: string; config_id: string; target_kind: string; target_ref: string; created_at: number }
/** A library section. */
export interface SectionRow { seq: number; id: string; tenant_id: string; name: string; created_at: number; updated_at: number }

/** SQL of the player feature; the only place it lives. */
export class PlayerStore {
  constructor(private db: Db) {}

  configs(tenantId: string): ConfigRow[] {
    return this.db.query<ConfigRow, [string]>('SELECT * FROM player_configs WHERE tenant_id = ? ORDER BY seq DESC').all(tenantId);
  }
  config(tenantId: string, id: string): ConfigRow | null {
    return this.db.query<ConfigRow, [string, string]>('SELECT * FROM player_configs WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }
  configByName(tenantId: string, name: string): ConfigRow | null {
    return this.db.query<ConfigRow, [string, string]>('SELECT * FROM player_configs WHERE tenant_id = ? AND name = ?').get(tenantId, name);
  }
  insertConfig(r: Omit<ConfigRow, 'seq'>): void {
    this.db.query('INSERT INTO player_configs (id, tenant_id, name, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(r.id, r.tenant_id, r.name, r.doc, r.created_at, r.updated_at);
  }
  updateConfig(tenantId: string, id: string, name: string, doc: string, at: number): void {
    this.db.query('UPDATE player_configs SET name = ?, doc = ?, updated_at = ? WHERE tenant_id = ? AND id = ?').run(name, doc, at, tenantId, id);
  }
  deleteConfig(tenantId: string, id: string): boolean {
    this.db.query('DELETE FROM player_config_assignments WHERE tenant_id = ? AND config_id = ?').run(tenantId, id);
    return this.db.query('DELETE FROM player_configs WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0;
  }

  assignments(tenantId: string): AssignRow[] {
    return this.db.query<AssignRow, [string]>('SELECT * FROM player_config_assignments WHERE tenant_id = ? ORDER BY seq DESC').all(tenantId);
  }
  assignment(tenantId: string, kind: string, ref: string): AssignRow | null {
    return this.db.query<AssignRow, [string, string, string]>('SELECT * FROM player_config_assignments WHERE tenant_id = ? AND target_kind = ? AND target_ref = ?').get(tenantId, kind, ref);
  }
  upsertAssignment(r: Omit<AssignRow, 'seq'>): void {
    this.db.query('DELETE FROM player_config_assignments WHERE tenant_id = ? AND target_kind = ? AND target_ref = ?').run(r.tenant_id, r.target_kind, r.target_ref);
    this.db.query('INSERT INTO player_config_assignments (id, tenant_id, config_id, target_kind, target_ref, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(r.id, r.tenant_id, r.config_id, r.target_kind, r.target_ref, r.created_at);
  }
  deleteAssignment(tenantId: string, id: string): boolean {
    return this.db.query('DELETE FROM player_config_assignments WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0;
  }

  sections(tenantId: string): (SectionRow & { asset_count: number })[] {
    return this.db.query<SectionRow & { asset_count: number }, [string]>(`SELECT s.*, (SELECT COUNT(*) FROM assets a WHERE a.tenant_id = s.tenant_id AND a.section_id = s.id AND a.deleted_at IS NULL) AS asset_count
      FROM library_sections s WHERE s.tenant_id = ? ORDER BY s.seq DESC`).all(tenantId);
  }
  section(tenantId: string, id: string): (SectionRow & { asset_count: number }) | null {
    return this.db.query<SectionRow & { asset_count: number }, [string, string]>(`SELECT s.*, (SELECT COUNT(*) FROM assets a WHERE a.tenant_id = s.tenant_id AND a.section_id = s.id AND a.deleted_at IS NULL) AS asset_count
      FROM library_sections s WHERE s.tenant_id = ? AND s.id = ?`).get(tenantId, id);
  }
  sectionByName(tenantId: string, name: string): SectionRow | null {
    return this.db.query<SectionRow, [string, string]>('SELECT * FROM library_sections WHERE tenant_id = ? AND name = ?').get(tenantId, name);
  }
  insertSection(r: Omit<SectionRow, 'seq'>): void {
    this.db.query('INSERT INTO library_sections (id, tenant_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(r.id, r.tenant_id, r.name, r.created_at, r.updated_at);
  }
  renameSection(tenantId: string, id: string, name: string, at: number): void {
    this.db.query('UPDATE library_sections SET name = ?, updated_at = ? WHERE tenant_id = ? AND id = ?').run(name, at, tenantId, id);
  }
  deleteSection(tenantId: string, id: string): boolean {
    this.db.query('UPDATE assets SET section_id = NULL WHERE tenant_id = ? AND section_id = ?').run(tenantId, id);
    this.db.query("DELETE FROM player_config_assignments WHERE tenant_id = ? AND target_kind = 'section' AND target_ref = ?").run(tenantId, id);
    return this.db.query('DELETE FROM library_sections WHERE tenant_id = ? AND id = ?').run(tenantId, id).changes > 0;
  }
  /** The section of an asset (null when none). */
  assetSection(tenantId: string, assetId: string): string | null {
    return this.db.query<{ section_id: string | null }, [string, string]>('SELECT section_id FROM assets WHERE tenant_id = ? AND id = ?').get(tenantId, assetId)?.section_id ?? null;
  }
  setAssetSection(tenantId: string, assetId: string, sectionId: string | null, at: number): boolean {
    return this.db.query('UPDATE assets SET section_id = ?, updated_at = ? WHERE tenant_id = ? AND id = ? AND deleted_at IS NULL').run(sectionId, at, tenantId, assetId).changes > 0;
  }
}
