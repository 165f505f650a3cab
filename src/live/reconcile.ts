import { readdirSync, statSync } from 'node:fs';
import { tx } from '../kernel/db/sqlite';
import type { HourRow } from '../features/channels/segment-store';
import { initIndex, isBreak, listHourDirs, listInits, measuredDuration, renditionsOnDisk, summarizeNames, type HourDir } from './hours';
import { readManifest, writeManifest } from './manifest';
import { initPath, renditionDir, segmentAbsPath, segmentRelPath } from './paths';
import type { IndexedChannel, SegmentIndex } from './segment-index';

/** What one reconciliation did: hours seen, hours whose summary changed, hours listed, segments indexed. */
export interface ReconcileStats { hours: number; changed: number; listed: number; segments: number }

/** One hour directory's facts as found: from the stored row (unchanged), a valid manifest, or a fresh listing. */
interface Scan { dir: HourDir; mtime: number; n: number; first: number; last: number; inner: number; listed: boolean; end: number; bytes: number | null; stored?: HourRow; same: boolean }

/**
 * Brings a channel's index in line with its recording tree (startup reconciliation, and the rebuild from nothing).
 * Per hour directory: one stat; when its mtime matches the stored summary the hour is kept as is; else a manifest
 * valid for that mtime gives the summary; else the directory is listed (names only, no per-file stat, summarised in
 * one pass without sorting: see summarizeNames) and a manifest is written for it unless it is the newest hour. Per-segment rows of a changed hour are dropped and
 * derived again on first read. Sequence and discontinuity numbers run on across hours.
 */
export function reconcileChannel(index: SegmentIndex, dataDir: string, ch: IndexedChannel): ReconcileStats {
  const st: ReconcileStats = { hours: 0, changed: 0, listed: 0, segments: 0 };
  const onDisk = renditionsOnDisk(dataDir, ch.tenant_id, ch.id);
  for (const r of index.store.renditions(ch.id)) if (!onDisk.includes(r)) tx(index.db, () => index.store.dropRendition(ch.id, r));
  for (const r of onDisk) reconcileRendition(index, dataDir, ch, r, st);
  return st;
}

function scanHours(rdir: string, stored: Map<number, HourRow>, st: ReconcileStats, targetMs: number, inits: number[]): Scan[] {
  const scans: Scan[] = [];
  for (const dir of listHourDirs(rdir)) {
    let mtime: number;
    try { mtime = statSync(dir.path).mtimeMs; } catch { continue; }
    const s = stored.get(dir.hourMs);
    if (s && s.dir_mtime === mtime) { scans.push({ dir, mtime, n: s.n, first: s.first_ms, last: s.last_ms, inner: s.inner_discs, listed: false, end: s.end_ms, bytes: s.bytes, stored: s, same: true }); continue; }
    const m = readManifest(dir.path, mtime);
    if (m) { scans.push({ dir, mtime, n: m.n, first: m.first_ms, last: m.last_ms, inner: m.inner_discs, listed: false, end: m.end_ms, bytes: m.bytes, stored: s, same: false }); continue; }
    let names: string[];
    try { names = readdirSync(dir.path); } catch { continue; }
    st.listed++;
    const sum = summarizeNames(names, targetMs, inits);
    if (!sum) continue;
    scans.push({ dir, mtime, n: sum.n, first: sum.first, last: sum.last, inner: sum.inner, listed: true, end: -1, bytes: null, stored: s, same: false });
  }
  return scans;
}

function reconcileRendition(index: SegmentIndex, dataDir: string, ch: IndexedChannel, r: string, st: ReconcileStats): void {
  const store = index.store;
  const rdir = renditionDir(dataDir, ch.tenant_id, ch.id, r);
  const inits = listInits(rdir);
  const target = ch.segment_s * 1000;
  const stored = new Map(store.hours(ch.id, r).map((h) => [h.hour_ms, h]));
  const scans = scanHours(rdir, stored, st, target, inits);
  const cache = new Map<string, Uint8Array>();
  const measure = (last: number) => {
    const ii = initIndex(inits, last);
    return last + measuredDuration(segmentAbsPath(dataDir, segmentRelPath(ch.tenant_id, ch.id, r, last)), ii >= 0 ? initPath(dataDir, ch.tenant_id, ch.id, r, inits[ii]) : null, target, cache);
  };
  const rows: HourRow[] = [];
  let seq = scans[0]?.stored?.first_seq ?? 0, discSeq = scans[0]?.stored?.disc_seq_start ?? 0;
  for (let i = 0; i < scans.length; i++) {
    const sc = scans[i], prev = scans[i - 1], prevRow = rows[i - 1];
    const firstDisc = prev ? (isBreak(prev.last, initIndex(inits, prev.last), sc.first, initIndex(inits, sc.first), target) ? 1 : 0) : (sc.stored?.first_disc ?? 0);
    // Close the previous hour: it ends where this one starts when the run continues, else as measured.
    if (prevRow) prevRow.end_ms = !firstDisc ? sc.first : prevRow.end_ms > prevRow.last_ms ? prevRow.end_ms : measure(prevRow.last_ms);
    const inner = sc.inner;
    const ds = i === 0 ? discSeq : discSeq + firstDisc;
    rows.push({ channel_id: ch.id, rendition: r, hour_ms: sc.dir.hourMs, n: sc.n, first_ms: sc.first, last_ms: sc.last, end_ms: sc.end, first_seq: seq,
      disc_seq_start: ds, first_disc: firstDisc, inner_discs: inner, bytes: sc.bytes, dir_mtime: sc.mtime, materialized: sc.same ? sc.stored!.materialized : 0 });
    seq += sc.n; discSeq = ds + inner;
    st.hours++; st.segments += sc.n;
  }
  const lastRow = rows[rows.length - 1];
  if (lastRow && lastRow.end_ms <= lastRow.last_ms) lastRow.end_ms = measure(lastRow.last_ms);
  tx(index.db, () => {
    rows.forEach((h, i) => {
      const b = scans[i].stored;
      if (h.materialized && store.countRows(ch.id, r, h.hour_ms) !== h.n) h.materialized = 0; // rows lost behind our back
      const same = b && h.materialized && b.n === h.n && b.first_ms === h.first_ms && b.last_ms === h.last_ms && b.end_ms === h.end_ms && b.first_seq === h.first_seq
        && b.disc_seq_start === h.disc_seq_start && b.first_disc === h.first_disc && b.inner_discs === h.inner_discs && b.dir_mtime === h.dir_mtime;
      if (same || (b && !b.materialized && sameSummary(b, h))) return;
      st.changed++;
      if (b) store.deleteRows(ch.id, r, h.hour_ms); // derived again from the listing on the next read
      store.upsertHour({ ...h, materialized: 0 });
    });
    const seen = new Set(rows.map((h) => h.hour_ms));
    for (const h of stored.keys()) if (!seen.has(h)) { store.deleteHour(ch.id, r, h); st.changed++; }
  });
  // Closed hours that had to be listed get a manifest, so the next rebuild from nothing need not list them.
  scans.forEach((sc, i) => {
    if (sc.listed && i < scans.length - 1) {
      const h = rows[i];
      writeManifest(sc.dir.path, { n: h.n, first_ms: h.first_ms, last_ms: h.last_ms, end_ms: h.end_ms, inner_discs: h.inner_discs, bytes: h.bytes, dir_mtime: h.dir_mtime });
    }
  });
}

function sameSummary(a: HourRow, b: HourRow): boolean {
  return a.n === b.n && a.first_ms === b.first_ms && a.last_ms === b.last_ms && a.end_ms === b.end_ms && a.first_seq === b.first_seq && a.disc_seq_start === b.disc_seq_start
    && a.first_disc === b.first_disc && a.inner_discs === b.inner_discs && a.dir_mtime === b.dir_mtime;
}
