/**
 * Live-to-VOD subtitles (issue 43): when a programme's recorded range becomes a library asset, every ready track of
 * the channel over that range is copied onto the asset as an asset track (same language, kind, label, source and
 * published flag; `source_track_id` names the channel track), its cues moved onto the asset's own timeline. The
 * asset's source is the recorded runs joined end to end (live-to-vod/job.ts), so a wall-clock time maps to the
 * sum of the earlier runs' lengths plus its offset in its own run; a cue in a hole between runs starts at the next
 * run, and a cue outside every run is dropped.
 */
import type { Db } from '../../kernel/db/sqlite';
import type { Cue } from '../../text/cue-text';
import { channelTracksOverlapping } from './channel-store';
import { SubtitleStore } from './store';

/** One recorded run as joined into the asset: its wall-clock start and its length. */
export interface JoinedRun { startMs: number; durationMs: number }

/** Pure: the asset time of wall-clock `w` (null past the last run); a time in a hole between runs is the next run's start. */
export function assetTimeOf(runs: JoinedRun[], w: number): number | null {
  let before = 0;
  for (const r of runs) {
    if (w < r.startMs) return before; // in a hole (or before the first run): the next run's start
    if (w <= r.startMs + r.durationMs) return before + (w - r.startMs);
    before += r.durationMs;
  }
  return null;
}

/** Pure: wall-clock cues (absolute ms) moved onto the joined runs' timeline; cues left with no length are dropped. */
export function cuesOnRuns(runs: JoinedRun[], cues: Cue[]): Cue[] {
  const total = runs.reduce((n, r) => n + r.durationMs, 0);
  const out: Cue[] = [];
  for (const c of cues) {
    const s = assetTimeOf(runs, c.startMs);
    if (s === null) continue;
    const e = assetTimeOf(runs, c.endMs) ?? total;
    if (e - s >= 1) out.push({ startMs: s, endMs: e, text: c.text });
  }
  return out;
}

/** Copies the channel's ready tracks over the runs onto `assetId`; returns how many tracks were made. */
export function copyRecordingTracks(db: Db, o: { tenantId: string; channelId: string; assetId: string; runs: JoinedRun[]; now: number }): number {
  if (!o.runs.length) return 0;
  const from = o.runs[0]!.startMs, last = o.runs[o.runs.length - 1]!, to = last.startMs + last.durationMs;
  const store = new SubtitleStore(db);
  let made = 0;
  for (const t of channelTracksOverlapping(db, o.tenantId, o.channelId, from, to)) {
    if (t.status !== 'ready') continue;
    const wall = store.cues(t.id).map((c) => ({ startMs: t.range_start_ms! + c.startMs, endMs: t.range_start_ms! + c.endMs, text: c.text }));
    const cues = cuesOnRuns(o.runs, wall);
    if (!cues.length) continue;
    const id = crypto.randomUUID();
    store.insert({ id, tenant_id: o.tenantId, asset_id: o.assetId, language: t.language, kind: t.kind, label: t.label, source: t.source, status: 'ready', engine: t.engine, job_id: null, created_at: o.now, updated_at: o.now });
    db.query('UPDATE subtitle_tracks SET source_track_id = ? WHERE id = ?').run(t.id, id);
    store.replaceCues(id, cues, o.now);
    if (t.published) store.setPublished(o.tenantId, id, true, o.now);
    made++;
  }
  return made;
}
