import { readdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db } from '../kernel/db/sqlite';
import { tx } from '../kernel/db/sqlite';
import { SegmentStore, type HourRow } from './segment-store';
import { BUCKET_MTIME, HourMoves } from './hour-moves';
import type { IndexedChannel, SegmentRow } from './model';
import { HOUR_MS, hourDir, initIndex, isBreak, listInits, measuredDuration, segmentStarts } from './hours';
import { writeManifest } from './manifest';
import { sealHour } from './lean-read';
import { initPath, renditionDir, segmentAbsPath, segmentRelPath } from './paths';

/** What the index needs to know about a channel. */
export type { IndexedChannel } from './model';

/**
 * The recording's segment index. The file names are the truth: `live_hours` holds one summary row per
 * rendition-hour directory (rebuilt from listings, see reconcile.ts) and `live_segments` holds per-segment rows
 * only for hours recorded live or read since; any other hour is derived from its directory listing on first read.
 */
export class SegmentIndex {
  readonly store: SegmentStore;
  constructor(readonly db: Db, readonly dataDir: string) { this.store = new SegmentStore(db); }

  /** Segments overlapping [fromMs, toMs), oldest first. */
  segmentsInRange(ch: IndexedChannel, rendition: string, fromMs: number, toMs: number): SegmentRow[] {
    const hours = this.store.hoursOverlapping(ch.id, rendition, fromMs, toMs);
    for (const h of hours) if (!h.materialized) this.materialize(ch, h);
    if (!hours.length) return [];
    // A segment starts at most a minute before it ends (as hoursOverlapping assumes): no need to read the hour from its start.
    return this.store.rows(ch.id, rendition, Math.max(hours[0].hour_ms, fromMs - 60_000), toMs).filter((s) => s.start_ms + s.duration_ms > fromMs);
  }

  /** The newest segment of a rendition. */
  lastSegment(ch: IndexedChannel, rendition: string): SegmentRow | null {
    const h = this.store.newestHour(ch.id, rendition);
    if (!h) return null;
    if (!h.materialized) this.materialize(ch, h);
    return this.store.lastRow(ch.id, rendition);
  }

  /** One segment by its start time. */
  segment(ch: IndexedChannel, rendition: string, startMs: number): SegmentRow | null {
    const h = this.store.hour(ch.id, rendition, Math.floor(startMs / HOUR_MS) * HOUR_MS);
    if (!h) return null;
    if (!h.materialized) this.materialize(ch, h);
    return this.store.row(ch.id, rendition, startMs);
  }

  /** Renditions with recorded segments. */
  renditions(channelId: string): string[] { return this.store.renditions(channelId); }

  /** Indexes a segment that was just renamed into the recording tree (live path): one row and its hour's summary. */
  append(ch: IndexedChannel, rendition: string, s: { startMs: number; durationMs: number; bytes: number; initMs: number }): SegmentRow {
    return tx(this.db, () => {
      const last = this.lastSegment(ch, rendition);
      // A feed change (another init segment) or a gap over one second starts a discontinuity.
      const disc = last && (last.init_ms !== s.initMs || Math.abs(s.startMs - (last.start_ms + last.duration_ms)) > 1000) ? 1 : 0;
      const row: SegmentRow = {
        channel_id: ch.id, rendition, start_ms: s.startMs, duration_ms: s.durationMs, bytes: s.bytes, path: segmentRelPath(ch.tenant_id, ch.id, rendition, s.startMs),
        discontinuity: disc, init_ms: s.initMs, seq: last ? last.seq + 1 : 0, disc_seq: (last?.disc_seq ?? 0) + disc,
      };
      this.store.insertRows([row]);
      const hourMs = Math.floor(s.startMs / HOUR_MS) * HOUR_MS;
      const mtime = statSync(dirname(segmentAbsPath(this.dataDir, row.path))).mtimeMs;
      const h = this.store.hour(ch.id, rendition, hourMs);
      if (!h && last) this.closeHour(ch, rendition, Math.floor(last.start_ms / HOUR_MS) * HOUR_MS);
      this.store.upsertHour(h
        ? { ...h, n: h.n + 1, last_ms: Math.max(h.last_ms, s.startMs), end_ms: Math.max(h.end_ms, s.startMs + s.durationMs), inner_discs: h.inner_discs + disc, bytes: h.bytes === null ? null : h.bytes + s.bytes, dir_mtime: mtime }
        : { channel_id: ch.id, rendition, hour_ms: hourMs, n: 1, first_ms: s.startMs, last_ms: s.startMs, end_ms: s.startMs + s.durationMs, first_seq: row.seq,
          disc_seq_start: row.disc_seq, first_disc: disc, inner_discs: 0, bytes: s.bytes, dir_mtime: mtime, materialized: 1 });
      return row;
    });
  }

  /**
   * An hour that recording has left: writes its manifest (so a rebuild from nothing need not list it) and its
   * encoded segment list (so range playlists and coverage decode it instead of reading rows).
   */
  private closeHour(ch: IndexedChannel, rendition: string, hourMs: number): void {
    const h = this.store.hour(ch.id, rendition, hourMs);
    if (!h) return;
    if (h.dir_mtime !== BUCKET_MTIME) writeManifest(hourDir(this.dataDir, ch.tenant_id, ch.id, rendition, hourMs), h); // a bucket-held hour has no local directory
    if (h.materialized) sealHour(this, h);
  }

  /**
   * Derives one hour's segment rows from its listing (names give starts; durations come from the next start in
   * the same run, the last of a run is measured from its boxes; sizes from one stat per file) and stores them.
   */
  materialize(ch: IndexedChannel, h: HourRow): void {
    // A bucket-held hour's rows come from the bucket listing (bucket-index.ts); its local directory is gone.
    if (new HourMoves(this.db).isHeld(ch.id, h.rendition, h.hour_ms)) return;
    const dir = hourDir(this.dataDir, ch.tenant_id, ch.id, h.rendition, h.hour_ms);
    let names: string[] = [];
    try { names = readdirSync(dir); } catch { /* gone: the hour becomes empty */ }
    const starts = segmentStarts(names);
    const rdir = renditionDir(this.dataDir, ch.tenant_id, ch.id, h.rendition);
    const inits = listInits(rdir);
    const next = this.store.hourAfter(ch.id, h.rendition, h.hour_ms);
    const target = ch.segment_s * 1000;
    const cache = new Map<string, Uint8Array>();
    const rows: SegmentRow[] = [];
    let bytes = 0, prev = -1, prevIi = -1, discSeq = h.disc_seq_start;
    for (let i = 0; i < starts.length; i++) {
      const s = starts[i], ii = initIndex(inits, s), initMs = ii >= 0 ? inits[ii] : s;
      const ns = i + 1 < starts.length ? starts[i + 1] : next?.first_ms;
      const rel = segmentRelPath(ch.tenant_id, ch.id, h.rendition, s);
      const abs = segmentAbsPath(this.dataDir, rel);
      const init = ii >= 0 ? initPath(this.dataDir, ch.tenant_id, ch.id, h.rendition, initMs) : null;
      const dur = ns !== undefined && !isBreak(s, ii, ns, initIndex(inits, ns), target) ? ns - s : measuredDuration(abs, init, target, cache);
      let size = 0;
      try { size = statSync(abs).size; } catch { /* vanished */ }
      const disc = i === 0 ? h.first_disc : isBreak(prev, prevIi, s, ii, target) ? 1 : 0;
      if (i > 0) discSeq += disc;
      rows.push({ channel_id: ch.id, rendition: h.rendition, start_ms: s, duration_ms: dur, bytes: size, path: rel, discontinuity: disc, init_ms: initMs, seq: h.first_seq + i, disc_seq: discSeq });
      bytes += size; prev = s; prevIi = ii;
    }
    tx(this.db, () => {
      this.store.deleteRows(ch.id, h.rendition, h.hour_ms);
      this.store.insertRows(rows);
      if (rows.length) this.store.upsertHour({ ...h, bytes, materialized: 1 });
      else this.store.deleteHour(ch.id, h.rendition, h.hour_ms);
    });
  }
}
