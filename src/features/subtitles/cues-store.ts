/**
 * SQL of cue editing: cues by stable id (`subtitle_cues.seq`) in time order, the track's version and next cue id,
 * and revisions (`subtitle_revisions`, migration 0131). Every writer here runs inside the service's transaction and
 * leaves the transcript search index current (`reindexTrack`).
 */
import type { Db } from '../../kernel/db/sqlite';
import type { ECue } from './cues-ops';
import { reindexTrack } from './search-index';

/** A row of `subtitle_revisions`. */
export interface RevisionRow {
  seq: number; id: string; tenant_id: string; track_id: string; version: number; op: string;
  author_kind: string; author_id: string | null; author_name: string | null; created_at: number;
  before: string; after: string; counts: string | null; undo_of: string | null; undone_by: string | null;
}

/** Who made a revision. */
export interface Author { kind: 'user' | 'key' | 'system'; id: string | null; name: string | null }

type CueRow = { seq: number; start_ms: number; end_ms: number; text: string };
const toCue = (r: CueRow): ECue => ({ id: r.seq, startMs: r.start_ms, endMs: r.end_ms, text: r.text });

/** Cue and revision SQL of one database. */
export class CueStore {
  constructor(private readonly db: Db) {}

  /** Every cue of a track in time order (start, then id). */
  all(trackId: string): ECue[] {
    return this.db.query<CueRow, [string]>('SELECT seq, start_ms, end_ms, text FROM subtitle_cues WHERE track_id = ? ORDER BY start_ms, seq').all(trackId).map(toCue);
  }

  /** A page of cues after position (`afterStart`, `afterId`) that end after `fromMs`, in time order. */
  page(trackId: string, afterStart: number, afterId: number, fromMs: number, limit: number): ECue[] {
    return this.db.query<CueRow, [string, number, number, number, number]>(`SELECT seq, start_ms, end_ms, text FROM subtitle_cues
      WHERE track_id = ? AND (start_ms, seq) > (?, ?) AND end_ms > ? ORDER BY start_ms, seq LIMIT ?`).all(trackId, afterStart, afterId, fromMs, limit).map(toCue);
  }

  /** The cue just before a position (for reading-speed and gap flags of a page's first cue). */
  before(trackId: string, start: number, id: number): ECue | null {
    const r = this.db.query<CueRow, [string, number, number]>('SELECT seq, start_ms, end_ms, text FROM subtitle_cues WHERE track_id = ? AND (start_ms, seq) < (?, ?) ORDER BY start_ms DESC, seq DESC LIMIT 1').get(trackId, start, id);
    return r ? toCue(r) : null;
  }

  /** A fresh cue id of the track (never one used before in it). */
  allocator(trackId: string): () => number {
    const r = this.db.query<{ next: number; top: number | null }, [string, string]>('SELECT next_cue_id AS next, (SELECT MAX(seq) FROM subtitle_cues WHERE track_id = ?) AS top FROM subtitle_tracks WHERE id = ?').get(trackId, trackId);
    let next = Math.max(r?.next ?? 1, (r?.top ?? 0) + 1);
    return () => next++;
  }

  /**
   * Applies a change (cues `gone` removed, `put` written), raises the track's version, counts its cues, marks it
   * `edited` (keeping the first source) and its next cue id past `nextId`. Returns the new version.
   */
  write(trackId: string, gone: number[], put: ECue[], nextId: number, now: number): number {
    const del = this.db.query('DELETE FROM subtitle_cues WHERE track_id = ? AND seq = ?');
    for (const id of gone) del.run(trackId, id);
    const ins = this.db.query('INSERT INTO subtitle_cues (track_id, seq, start_ms, end_ms, text) VALUES (?, ?, ?, ?, ?)');
    for (const c of put) ins.run(trackId, c.id, c.startMs, c.endMs, c.text);
    const r = this.db.query<{ version: number }, [number, number, string]>(`UPDATE subtitle_tracks SET version = version + 1, updated_at = ?,
        cue_count = (SELECT COUNT(*) FROM subtitle_cues WHERE track_id = subtitle_tracks.id),
        original_source = CASE WHEN source = 'edited' THEN original_source ELSE source END, source = 'edited',
        next_cue_id = MAX(next_cue_id, ?) WHERE id = ? RETURNING version`).get(now, nextId, trackId)!;
    reindexTrack(this.db, trackId);
    return r.version;
  }

  /** Records a revision. */
  addRevision(r: Omit<RevisionRow, 'seq' | 'undone_by'>): void {
    this.db.query(`INSERT INTO subtitle_revisions (id, tenant_id, track_id, version, op, author_kind, author_id, author_name, created_at, before, after, counts, undo_of)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(r.id, r.tenant_id, r.track_id, r.version, r.op, r.author_kind, r.author_id, r.author_name, r.created_at, r.before, r.after, r.counts, r.undo_of);
  }

  /** Marks a revision undone by another. */
  markUndone(id: string, by: string): void {
    this.db.query('UPDATE subtitle_revisions SET undone_by = ? WHERE id = ?').run(by, id);
  }

  /** One revision of a track. */
  revision(trackId: string, id: string): RevisionRow | null {
    return this.db.query<RevisionRow, [string, string]>('SELECT * FROM subtitle_revisions WHERE track_id = ? AND id = ?').get(trackId, id);
  }

  /** A track's revisions newest first, before `beforeSeq`, `limit` of them. */
  revisions(trackId: string, beforeSeq: number, limit: number): RevisionRow[] {
    return this.db.query<RevisionRow, [string, number, number]>('SELECT * FROM subtitle_revisions WHERE track_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?').all(trackId, beforeSeq, limit);
  }

  /** Records what the glossary corrected after recognition (JSON counts, or null). */
  setGlossaryCorrections(trackId: string, counts: unknown): void {
    this.db.query('UPDATE subtitle_tracks SET glossary_corrections = ? WHERE id = ?').run(counts === null ? null : JSON.stringify(counts), trackId);
  }

  /** Forgets a track's revisions (its cues were replaced wholesale: ids start again). */
  dropRevisions(trackId: string): void {
    this.db.query('DELETE FROM subtitle_revisions WHERE track_id = ?').run(trackId);
  }
}
