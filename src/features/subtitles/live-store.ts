/**
 * SQL of live subtitles (issue 43, migration 0184): one `subtitle_live` row per channel and language the tenant turned
 * on, holding where recognition stands; and the append of recognised cues onto a channel's hourly recording track
 * (the same `subtitle_tracks` / `subtitle_cues` tables as every track, so catch-up, search and editing work on them).
 */
import type { Db } from '../../kernel/db/sqlite';
import type { Cue } from '../../text/cue-text';
import { reindexTrack } from './search-index';

/** A `subtitle_live` row. */
export interface LiveSubsRow {
  channel_id: string; language: string; tenant_id: string; kind: string;
  /** starting | running | behind | waiting | failed */
  state: string; engine: string | null; error: string | null;
  /** Wall-clock end (epoch ms) of the audio recognised so far; null before the first chunk. */
  until_ms: number | null;
  lag_ms: number | null; lag_max_ms: number | null; behind_ms: number | null;
  chunks: number; cues: number; skipped_ms: number; track_id: string | null; created_at: number; updated_at: number;
}

/** What a recognition pass changes of a row. */
export type LiveSubsPatch = Partial<Pick<LiveSubsRow, 'state' | 'engine' | 'error' | 'until_ms' | 'lag_ms' | 'lag_max_ms' | 'behind_ms' | 'track_id'>> & { addChunks?: number; addCues?: number; addSkipped?: number };

/** The live-subtitles SQL. */
export class LiveSubsStore {
  constructor(private readonly db: Db) {}

  /** A channel's rows, by language. */
  forChannel(tenantId: string, channelId: string): LiveSubsRow[] {
    return this.db.query<LiveSubsRow, [string, string]>('SELECT * FROM subtitle_live WHERE tenant_id = ? AND channel_id = ? ORDER BY language').all(tenantId, channelId);
  }

  /** Every row of every tenant (the recogniser's work list). */
  all(): LiveSubsRow[] {
    return this.db.query<LiveSubsRow, []>('SELECT * FROM subtitle_live ORDER BY channel_id, language').all();
  }

  /** One row. */
  get(channelId: string, language: string): LiveSubsRow | null {
    return this.db.query<LiveSubsRow, [string, string]>('SELECT * FROM subtitle_live WHERE channel_id = ? AND language = ?').get(channelId, language);
  }

  /** Makes the channel's languages exactly `languages` (kept rows keep their state; a changed kind is written). */
  setLanguages(tenantId: string, channelId: string, languages: string[], kind: string, now: number): void {
    const keep = new Set(languages);
    for (const r of this.forChannel(tenantId, channelId)) if (!keep.has(r.language)) this.db.query('DELETE FROM subtitle_live WHERE channel_id = ? AND language = ?').run(channelId, r.language);
    const ins = this.db.query(`INSERT INTO subtitle_live (channel_id, language, tenant_id, kind, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (channel_id, language) DO UPDATE SET kind = excluded.kind, updated_at = excluded.updated_at WHERE kind != excluded.kind`);
    for (const l of languages) ins.run(channelId, l, tenantId, kind, now, now);
  }

  /** Writes a recognition pass's changes. */
  update(channelId: string, language: string, p: LiveSubsPatch, now: number): void {
    const sets: string[] = ['updated_at = ?'], args: (string | number | null)[] = [now];
    for (const k of ['state', 'engine', 'error', 'until_ms', 'lag_ms', 'lag_max_ms', 'behind_ms', 'track_id'] as const) {
      if (p[k] !== undefined) { sets.push(`${k} = ?`); args.push(p[k]); }
    }
    if (p.addChunks) { sets.push('chunks = chunks + ?'); args.push(p.addChunks); }
    if (p.addCues) { sets.push('cues = cues + ?'); args.push(p.addCues); }
    if (p.addSkipped) { sets.push('skipped_ms = skipped_ms + ?'); args.push(p.addSkipped); }
    this.db.query(`UPDATE subtitle_live SET ${sets.join(', ')} WHERE channel_id = ? AND language = ?`).run(...args, channelId, language);
  }

  /** The channel's live track of `language` over the hour starting at `hourMs` (made by live recognition), if any. */
  hourTrack(tenantId: string, channelId: string, language: string, hourMs: number): string | null {
    return this.db.query<{ id: string }, [string, string, string, number]>(`SELECT id FROM subtitle_tracks WHERE tenant_id = ? AND channel_id = ? AND language = ?
      AND range_start_ms = ? AND range_end_ms = range_start_ms + 3600000 AND programme_id IS NULL AND status = 'ready' AND engine IS NOT NULL ORDER BY seq LIMIT 1`).get(tenantId, channelId, language, hourMs)?.id ?? null;
  }

  /** The last cue of a track (relative times), or null. */
  lastCue(trackId: string): { seq: number; startMs: number; endMs: number } | null {
    return this.db.query<{ seq: number; startMs: number; endMs: number }, [string]>('SELECT seq, start_ms AS startMs, end_ms AS endMs FROM subtitle_cues WHERE track_id = ? ORDER BY start_ms DESC, seq DESC LIMIT 1').get(trackId);
  }

  /**
   * Appends cues (times relative to the track's range start) to a track: new cue ids from its `next_cue_id`, the count
   * and version moved on (earlier cue ids and revisions stay valid), the previous last cue's end pulled back to
   * `trimLastTo` when given, and the search index rebuilt. Run inside a transaction.
   */
  appendCues(trackId: string, cues: Cue[], now: number, trimLastTo?: { seq: number; endMs: number }): void {
    if (trimLastTo) this.db.query('UPDATE subtitle_cues SET end_ms = ? WHERE track_id = ? AND seq = ?').run(trimLastTo.endMs, trackId, trimLastTo.seq);
    const next = this.db.query<{ n: number }, [string, string]>('SELECT MAX(next_cue_id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM subtitle_cues WHERE track_id = ?)) AS n FROM subtitle_tracks WHERE id = ?').get(trackId, trackId)?.n ?? 1;
    const ins = this.db.query('INSERT INTO subtitle_cues (track_id, seq, start_ms, end_ms, text) VALUES (?, ?, ?, ?, ?)');
    cues.forEach((c, i) => ins.run(trackId, next + i, c.startMs, c.endMs, c.text));
    this.db.query('UPDATE subtitle_tracks SET cue_count = cue_count + ?, next_cue_id = ?, version = version + 1, updated_at = ? WHERE id = ?').run(cues.length, next + cues.length, now, trackId);
    reindexTrack(this.db, trackId);
  }
}
