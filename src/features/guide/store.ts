import type { Db } from '../../kernel/db/sqlite';
import { foldText } from '../assets/search';

/** A programme row as stored (the published guide). */
export interface ProgrammeRow {
  seq: number; id: string; tenant_id: string; channel_id: string; title: string; description: string | null;
  series: string | null; episode: string | null; images: string; start_ms: number; end_ms: number; source: string;
  play_start_ms: number | null; play_end_ms: number | null; bounds_status: string;
  vod_asset_id: string | null; vod_status: string | null; vod_trigger: string | null; vod_error: string | null; vod_at: number | null;
  created_at: number; updated_at: number;
}

/** Guide fields of a programme (what drafts, imports and snapshots carry). */
export type ProgrammeFields = Pick<ProgrammeRow, 'id' | 'title' | 'description' | 'series' | 'episode' | 'images' | 'start_ms' | 'end_ms' | 'source'>;

/** Per-channel guide settings. */
export interface GuideSettingsRow { channel_id: string; tenant_id: string; review_mode: number; lock_hours: number; updated_at: number }

/** A published version of a channel's guide. */
export interface VersionRow { seq: number; tenant_id: string; channel_id: string; version: number; kind: string; changes: number; snapshot: string | Uint8Array; created_at: number; author: string | null }

/** Words of a Hebrew token without a one-letter prefix (ו ה ב ל מ ש כ), so "חדשות" finds "והחדשות". */
function stripped(text: string): string {
  const out: string[] = [];
  for (const w of text.split(/[^\p{L}\p{N}]+/u)) {
    let x = w;
    for (let i = 0; i < 2 && x.length >= 4 && /^[והבלמשכ]/.test(x); i++) { x = x.slice(1); out.push(x); }
  }
  return out.join(' ');
}

/** SQL of the guide feature (programmes, search index, settings, drafts, versions, exclusions). */
export class GuideStore {
  constructor(private db: Db) {}

  private reindex(seq: number): void {
    this.db.query('DELETE FROM programme_fts WHERE rowid = ?').run(seq);
    const p = this.db.query<ProgrammeRow, [number]>('SELECT * FROM programmes WHERE seq = ?').get(seq);
    if (!p) return;
    const f = (s: string | null) => foldText(s ?? '');
    this.db.query('INSERT INTO programme_fts (rowid, title, series, description, extra) VALUES (?, ?, ?, ?, ?)')
      .run(seq, f(p.title), f(p.series), f(p.description), stripped(`${f(p.title)} ${f(p.series)} ${f(p.description)}`));
  }

  insert(tenantId: string, channelId: string, p: ProgrammeFields, now: number, keep?: Partial<ProgrammeRow>): void {
    const r = this.db.query(`INSERT INTO programmes (id, tenant_id, channel_id, title, description, series, episode, images, start_ms, end_ms, source,
      vod_asset_id, vod_status, vod_trigger, vod_error, vod_at, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
      .run(p.id, tenantId, channelId, p.title, p.description, p.series, p.episode, p.images, p.start_ms, p.end_ms, p.source,
        keep?.vod_asset_id ?? null, keep?.vod_status ?? null, keep?.vod_trigger ?? null, keep?.vod_error ?? null, keep?.vod_at ?? null, keep?.created_at ?? now, now);
    this.reindex(Number(r.lastInsertRowid));
  }

  /** Changes guide fields; times moving resets confirmed boundaries to the guide's. */
  update(id: string, p: Partial<ProgrammeFields>, now: number): void {
    const cols = Object.keys(p).filter((k) => k !== 'id');
    if (!cols.length) return;
    const resetBounds = 'start_ms' in p || 'end_ms' in p ? ", bounds_status = 'epg', play_start_ms = NULL, play_end_ms = NULL" : '';
    this.db.query(`UPDATE programmes SET ${cols.map((c) => `${c} = ?`).join(', ')}${resetBounds}, updated_at = ? WHERE id = ?`)
      .run(...(cols.map((c) => (p as Record<string, unknown>)[c]) as never[]), now, id);
    const row = this.byIdAny(id);
    if (row) this.reindex(row.seq);
  }

  delete(id: string): void {
    const row = this.byIdAny(id);
    if (!row) return;
    this.db.query('DELETE FROM programmes WHERE seq = ?').run(row.seq);
    this.db.query('DELETE FROM programme_fts WHERE rowid = ?').run(row.seq);
  }

  byIdAny(id: string): ProgrammeRow | null {
    return this.db.query<ProgrammeRow, [string]>('SELECT * FROM programmes WHERE id = ?').get(id);
  }

  byId(tenantId: string, channelId: string, id: string): ProgrammeRow | null {
    return this.db.query<ProgrammeRow, [string, string, string]>('SELECT * FROM programmes WHERE tenant_id = ? AND channel_id = ? AND id = ?').get(tenantId, channelId, id);
  }

  /** Programmes overlapping [from, to), by start. */
  overlapping(channelId: string, from: number, to: number): ProgrammeRow[] {
    return this.db.query<ProgrammeRow, [string, number, number]>('SELECT * FROM programmes WHERE channel_id = ? AND start_ms < ? AND end_ms > ? ORDER BY start_ms')
      .all(channelId, to, from);
  }

  /** Programmes of every channel starting in (from, to], by start, at most `limit` (the guide clock). */
  startingBetween(from: number, to: number, limit: number): ProgrammeRow[] {
    return this.db.query<ProgrammeRow, [number, number, number]>('SELECT * FROM programmes WHERE start_ms > ? AND start_ms <= ? ORDER BY start_ms, seq LIMIT ?').all(from, to, limit);
  }

  /** Programmes whose played end (else slot end) is in (from, to], by that end; starts at most 2 days earlier. */
  endingBetween(from: number, to: number, limit: number): ProgrammeRow[] {
    return this.db.query<ProgrammeRow, [number, number, number, number, number]>(`SELECT * FROM programmes WHERE start_ms > ? AND start_ms <= ?
      AND COALESCE(play_end_ms, end_ms) > ? AND COALESCE(play_end_ms, end_ms) <= ? ORDER BY COALESCE(play_end_ms, end_ms), seq LIMIT ?`).all(from - 2 * 86_400_000, to, from, to, limit);
  }

  /** Every programme of a channel, by start (snapshots). */
  all(channelId: string): ProgrammeRow[] {
    return this.db.query<ProgrammeRow, [string]>('SELECT * FROM programmes WHERE channel_id = ? ORDER BY start_ms').all(channelId);
  }

  /** The guide fields of a channel's programmes ending after `ms` (or all), by start: what a version snapshot holds. */
  fieldsEndingAfter(channelId: string, ms: number): ProgrammeFields[] {
    return this.db.query<ProgrammeFields, [string, number]>('SELECT id, title, description, series, episode, images, start_ms, end_ms, source FROM programmes WHERE channel_id = ? AND end_ms > ? ORDER BY start_ms')
      .all(channelId, Number.isFinite(ms) ? ms : Number.MIN_SAFE_INTEGER);
  }

  /** Full-text hits (folded FTS5 MATCH) of a channel started in [from, to), newest first, at most `limit`. */
  search(channelId: string, match: string, from: number, to: number, limit: number): ProgrammeRow[] {
    return this.db.query<ProgrammeRow, [string, string, number, number, number]>(
      `SELECT p.* FROM programme_fts f JOIN programmes p ON p.seq = f.rowid
       WHERE programme_fts MATCH ? AND p.channel_id = ? AND p.start_ms >= ? AND p.start_ms < ? ORDER BY p.start_ms DESC LIMIT ?`,
    ).all(match, channelId, from, to, limit);
  }

  setBounds(id: string, start: number | null, end: number | null, status: string, now: number): void {
    this.db.query('UPDATE programmes SET play_start_ms = ?, play_end_ms = ?, bounds_status = ?, updated_at = ? WHERE id = ?').run(start, end, status, now, id);
  }

  setVod(id: string, v: { asset_id?: string | null; status: string | null; trigger?: string | null; error?: string | null }, now: number): void {
    this.db.query('UPDATE programmes SET vod_asset_id = COALESCE(?, vod_asset_id), vod_status = ?, vod_trigger = COALESCE(?, vod_trigger), vod_error = ?, vod_at = ? WHERE id = ?')
      .run(v.asset_id ?? null, v.status, v.trigger ?? null, v.error ?? null, now, id);
  }

  // ---- settings ----
  settings(channelId: string): GuideSettingsRow | null {
    return this.db.query<GuideSettingsRow, [string]>('SELECT * FROM guide_settings WHERE channel_id = ?').get(channelId);
  }
  saveSettings(s: GuideSettingsRow): void {
    this.db.query('INSERT OR REPLACE INTO guide_settings (channel_id, tenant_id, review_mode, lock_hours, updated_at) VALUES (?,?,?,?,?)')
      .run(s.channel_id, s.tenant_id, s.review_mode, s.lock_hours, s.updated_at);
  }

  // ---- drafts ----
  addDraft(id: string, tenantId: string, channelId: string, op: string, now: number): void {
    this.db.query('INSERT INTO guide_drafts (id, tenant_id, channel_id, op, created_at) VALUES (?,?,?,?,?)').run(id, tenantId, channelId, op, now);
  }
  drafts(channelId: string): { id: string; op: string; created_at: number }[] {
    return this.db.query<{ id: string; op: string; created_at: number }, [string]>('SELECT id, op, created_at FROM guide_drafts WHERE channel_id = ? ORDER BY seq').all(channelId);
  }
  clearDrafts(channelId: string): number {
    return this.db.query('DELETE FROM guide_drafts WHERE channel_id = ?').run(channelId).changes;
  }

  // ---- versions ----
  addVersion(v: Omit<VersionRow, 'seq'>): void {
    this.db.query('INSERT INTO guide_versions (tenant_id, channel_id, version, kind, changes, snapshot, created_at, author) VALUES (?,?,?,?,?,?,?,?)')
      .run(v.tenant_id, v.channel_id, v.version, v.kind, v.changes, v.snapshot, v.created_at, v.author);
  }
  lastVersion(channelId: string): number {
    return this.db.query<{ v: number | null }, [string]>('SELECT MAX(version) AS v FROM guide_versions WHERE channel_id = ?').get(channelId)?.v ?? 0;
  }
  version(channelId: string, version: number): VersionRow | null {
    return this.db.query<VersionRow, [string, number]>('SELECT * FROM guide_versions WHERE channel_id = ? AND version = ?').get(channelId, version);
  }
  /** Clears the snapshots of versions up to `version` (their rows stay as history; they can no longer be restored). */
  dropSnapshots(channelId: string, version: number): void {
    this.db.query("UPDATE guide_versions SET snapshot = '' WHERE channel_id = ? AND version <= ? AND LENGTH(snapshot) > 0").run(channelId, version);
  }
  versions(channelId: string): Omit<VersionRow, 'snapshot'>[] {
    return this.db.query<Omit<VersionRow, 'snapshot'>, [string]>('SELECT seq, tenant_id, channel_id, version, kind, changes, created_at, author FROM guide_versions WHERE channel_id = ? ORDER BY version DESC LIMIT 100').all(channelId);
  }

  // ---- catch-up exclusions (tenant setting) ----
  exclusions(tenantId: string): string | null {
    return this.db.query<{ rules: string }, [string]>('SELECT rules FROM catchup_exclusions WHERE tenant_id = ?').get(tenantId)?.rules ?? null;
  }
  saveExclusions(tenantId: string, rules: string, now: number): void {
    this.db.query('INSERT OR REPLACE INTO catchup_exclusions (tenant_id, rules, updated_at) VALUES (?,?,?)').run(tenantId, rules, now);
  }
}
