/**
 * The transcript search index (migration 0140): the cues of every ready, published subtitle track, in the
 * Hebrew-aware search form of src/text/hebrew-search.ts. Anything that changes a track's cues, status or published
 * flag calls `reindexTrack` in the same transaction; the store's own writers already do.
 */
import type { Db } from '../../kernel/db/sqlite';
import type { Logger } from '../../kernel/log';
import { prefixVariants, searchTokens } from '../../text/hebrew-search';

/** The FTS `scope` token of a tenant, an asset or a channel (letters and digits only, so one FTS token); beside them
 * each row's scope holds `kasset` or `kchannel`. */
export function scopeToken(kind: 't' | 'a' | 'c', id: string): string {
  return kind + id.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The `exact` and `loose` column texts of a cue: its words, and their copies without prefix letters. */
export function cueIndexText(text: string): { exact: string; loose: string } {
  const words = searchTokens(text);
  const exact = new Set(words);
  const loose = new Set<string>();
  for (const w of words) for (const v of prefixVariants(w).slice(1)) if (!exact.has(v)) loose.add(v);
  return { exact: [...exact].join(' '), loose: [...loose].join(' ') };
}

/** Bits of a search rowid that hold the cue's id (`subtitle_cues.seq`); the track's `seq` is above them. */
export const CUE_BITS = 24;
const CUE_SPAN = 2 ** CUE_BITS;

/** The rowid of a cue in the index (migration 0185): its track's `seq` and its own id, so a hit names both. */
export function searchRowId(trackSeq: number, cueSeq: number): number {
  return trackSeq * CUE_SPAN + cueSeq;
}

interface IndexTrackRow { seq: number; tenant_id: string; asset_id: string; channel_id?: string | null; status: string; published: number }

/**
 * Brings the index of one subtitle track up to date: its rows are dropped, and written again from its cues when the
 * track is `ready` and published (a deleted, unpublished, queued or failed track ends with none). Idempotent; call it
 * after any change to a track's cues, status or published flag (in the same transaction as the change).
 */
export function reindexTrack(db: Db, trackId: string): void {
  const t = db.query<IndexTrackRow, [string]>('SELECT * FROM subtitle_tracks WHERE id = ?').get(trackId);
  if (!t) return; // deleted: its rows went with it (trigger of migration 0140)
  dropTrack(db, t.seq);
  if (t.status !== 'ready' || t.published !== 1) return;
  // Tenant, then what the track belongs to (`kasset` + the asset, or `kchannel` + the channel).
  const scope = [scopeToken('t', t.tenant_id), ...(t.channel_id ? ['kchannel', scopeToken('c', t.channel_id)] : ['kasset', scopeToken('a', t.asset_id)])].join(' ');
  const cues = db.query<{ seq: number; start_ms: number; end_ms: number; text: string }, [string]>('SELECT seq, start_ms, end_ms, text FROM subtitle_cues WHERE track_id = ? ORDER BY seq').all(trackId);
  const row = db.query('INSERT INTO subtitle_search_rows (id, track_seq, cue_seq, start_ms, end_ms) VALUES (?, ?, ?, ?, ?)');
  const fts = db.query('INSERT INTO subtitle_search (rowid, exact, loose, scope) VALUES (?, ?, ?, ?)');
  for (const c of cues) {
    const { exact, loose } = cueIndexText(c.text);
    if (!exact) continue;
    if (c.seq < 0 || c.seq >= CUE_SPAN) continue; // a cue id past 2^24 in one track: not searchable (never reached)
    const id = searchRowId(t.seq, c.seq);
    row.run(id, t.seq, c.seq, c.start_ms, c.end_ms);
    fts.run(id, exact, loose, scope);
  }
}

/** Drops a track's index rows (by its `seq`); `reindexTrack` does this first. */
export function dropTrack(db: Db, trackSeq: number): void {
  db.query('DELETE FROM subtitle_search WHERE rowid IN (SELECT id FROM subtitle_search_rows WHERE track_seq = ?)').run(trackSeq);
  db.query('DELETE FROM subtitle_search_rows WHERE track_seq = ?').run(trackSeq);
}

/** The ready, published tracks with cues but no index rows (from before migration 0140, or emptied by 0185). */
function unindexedTracks(db: Db, limit: number): string[] {
  return db.query<{ id: string }, [number]>(`SELECT t.id FROM subtitle_tracks t WHERE t.status = 'ready' AND t.published = 1 AND t.cue_count > 0
    AND NOT EXISTS (SELECT 1 FROM subtitle_search_rows r WHERE r.track_seq = t.seq) LIMIT ?`).all(limit).map((r) => r.id);
}

/** Indexes every track `unindexedTracks` names, at once. Returns how many tracks it indexed. */
export function backfillSubtitleIndex(db: Db): number {
  const ids = unindexedTracks(db, -1);
  for (const id of ids) db.transaction(() => reindexTrack(db, id)).immediate();
  return ids.length;
}

/**
 * Runs the backfill in the background, `batch` tracks per turn of the event loop, so that a start after an upgrade
 * (migration 0185 empties the index; 5M cues take many minutes to index again) does not wait for it; search answers
 * what is indexed so far. Stops at `stopped()`.
 */
export function backfillSubtitleIndexInBackground(db: Db, log: Pick<Logger, 'info' | 'warn'>, stopped: () => boolean, batch = 20): void {
  let done = 0;
  const turn = () => {
    if (stopped()) return;
    try {
      const ids = unindexedTracks(db, batch);
      for (const id of ids) db.transaction(() => reindexTrack(db, id)).immediate();
      done += ids.length;
      if (ids.length === batch) { setTimeout(turn, 0); return; }
      if (done) log.info('transcript search index backfilled', { tracks: done });
    } catch (e) { if (!stopped()) log.warn('transcript search backfill failed', { error: String(e) }); }
  };
  setTimeout(turn, 0);
}
