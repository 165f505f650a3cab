import { statSync } from 'node:fs';
import { tx } from '../kernel/db/sqlite';
import type { HourRow } from './segment-store';
import { initIndex, isBreak, listHourDirs, listInits, measuredDuration, renditionsOnDisk, type HourDir } from './hours';
import { HourPool, listHoursSync, MIN_HOURS_FOR_WORKERS } from './hour-pool';
import { readDayManifest, readLegacyManifest, validEntry, writeDayManifest, type HourEntry } from './manifest';
import { initPath, renditionDir, segmentAbsPath, segmentRelPath } from './paths';
import type { IndexedChannel, SegmentIndex } from './segment-index';
import { HourMoves } from './hour-moves';

/** What one reconciliation did: hours seen, hours whose summary changed, hours listed, segments indexed. */
export interface ReconcileStats { hours: number; changed: number; listed: number; segments: number }

/** One hour directory's facts as found: from the stored row (unchanged), a valid manifest, or a fresh listing. */
interface Scan { dir: HourDir; mtime: number; n: number; first: number; last: number; inner: number; listed: boolean; end: number; bytes: number | null; stored?: HourRow; same: boolean }

/**
 * Brings a channel's index in line with its recording tree (startup reconciliation, and the rebuild from nothing).
 * Per hour directory: one stat; when its mtime matches the stored summary the hour is kept as is; else a manifest
 * valid for that mtime gives the summary; else the directory is listed (names only, no per-file stat, summarised in
 * one pass without sorting: see hour-list.ts and summarizeStarts) and its entry goes into the day manifest (one write per
 * day) unless it is the newest hour. Per-segment rows of a changed hour are dropped and
 * derived again on first read. Sequence and discontinuity numbers run on across hours.
 */
export function reconcileChannel(index: SegmentIndex, dataDir: string, ch: IndexedChannel): ReconcileStats {
  const st: ReconcileStats = { hours: 0, changed: 0, listed: 0, segments: 0 };
  for (const r of renditionsToReconcile(index, dataDir, ch)) {
    const plan = planRendition(index, dataDir, ch, r);
    const sums = listHoursSync(plan.toList.map((i) => plan.dirs[i].path), plan.target, plan.inits);
    finishRendition(index, dataDir, ch, plan, sums, st);
  }
  return st;
}

/**
 * The same reconciliation with the hours to list listed and summarised on worker threads (hour-pool.ts) when there
 * are many (a rebuild from nothing); the index it leaves is the same as reconcileChannel's. Pass `pool` to share one
 * across channels (the caller closes it); else one is started and closed here when needed.
 */
export async function reconcileChannelAsync(index: SegmentIndex, dataDir: string, ch: IndexedChannel, pool?: HourPool): Promise<ReconcileStats> {
  const st: ReconcileStats = { hours: 0, changed: 0, listed: 0, segments: 0 };
  let own: HourPool | null = null;
  try {
    for (const r of renditionsToReconcile(index, dataDir, ch)) {
      const plan = planRendition(index, dataDir, ch, r);
      const paths = plan.toList.map((i) => plan.dirs[i].path);
      const sums = paths.length < MIN_HOURS_FOR_WORKERS ? listHoursSync(paths, plan.target, plan.inits)
        : await (pool ?? (own ??= new HourPool())).list(paths, plan.target, plan.inits);
      finishRendition(index, dataDir, ch, plan, sums, st);
    }
  } finally { own?.close(); }
  return st;
}

/** Renditions on disk (after dropping from the index those no longer on disk). */
function renditionsToReconcile(index: SegmentIndex, dataDir: string, ch: IndexedChannel): string[] {
  const onDisk = renditionsOnDisk(dataDir, ch.tenant_id, ch.id);
  const inBucket = new HourMoves(index.db).renditions(ch.id);
  for (const r of index.store.renditions(ch.id)) if (!onDisk.includes(r) && !inBucket.includes(r)) tx(index.db, () => index.store.dropRendition(ch.id, r));
  return onDisk;
}

/**
 * One rendition's hour directories with what the stored rows and manifests already tell; `toList` must be listed.
 * `days`: the day manifests read (by day directory), which the listed hours' entries are then added to.
 */
interface Plan { r: string; rdir: string; inits: number[]; target: number; stored: Map<number, HourRow>; dirs: HourDir[]; scans: (Scan | null)[]; toList: number[]; days: Map<string, Map<string, HourEntry>> }

const hourName = (dir: HourDir) => dir.path.slice(dir.day.length + 1);

function planRendition(index: SegmentIndex, dataDir: string, ch: IndexedChannel, r: string): Plan {
  const rdir = renditionDir(dataDir, ch.tenant_id, ch.id, r);
  // Hours held in a bucket media store are indexed from its listing (hour-mover.ts, bucket-index.ts), not from here.
  const held = new HourMoves(index.db).held(ch.id, r);
  const stored = new Map(index.store.hours(ch.id, r).filter((h) => !held.has(h.hour_ms)).map((h) => [h.hour_ms, h]));
  const plan: Plan = { r, rdir, inits: listInits(rdir), target: ch.segment_s * 1000, stored, dirs: [], scans: [], toList: [], days: new Map() };
  for (const dir of listHourDirs(rdir)) {
    if (held.has(dir.hourMs)) continue;
    let mtime: number;
    try { mtime = statSync(dir.path).mtimeMs; } catch { continue; }
    const i = plan.dirs.length;
    plan.dirs.push(dir);
    const s = stored.get(dir.hourMs);
    if (s && s.dir_mtime === mtime) { plan.scans.push({ dir, mtime, n: s.n, first: s.first_ms, last: s.last_ms, inner: s.inner_discs, listed: false, end: s.end_ms, bytes: s.bytes, stored: s, same: true }); continue; }
    let day = plan.days.get(dir.day);
    if (!day) plan.days.set(dir.day, (day = readDayManifest(dir.day)));
    const m = validEntry(day.get(hourName(dir)), mtime) ?? (dir.legacy ? readLegacyManifest(dir.path, mtime) : null);
    if (m) { plan.scans.push({ dir, mtime, n: m.n, first: m.first_ms, last: m.last_ms, inner: m.inner_discs, listed: false, end: m.end_ms, bytes: m.bytes, stored: s, same: false }); continue; }
    // Listed later (here or on a worker); the mtime is the one taken before the listing, so a file landing in between
    // leaves the summary stale for the next reconciliation, never wrong for its mtime.
    plan.scans.push({ dir, mtime, n: 0, first: 0, last: 0, inner: 0, listed: true, end: -1, bytes: null, stored: s, same: false });
    plan.toList.push(i);
  }
  return plan;
}

/** The plan's scans completed with the listed summaries (4 numbers per listed hour; n <= 0: unlistable or empty, skipped). */
function completeScans(plan: Plan, sums: Float64Array, st: ReconcileStats): Scan[] {
  plan.toList.forEach((i, k) => {
    const n = sums[k * 4];
    if (n < 0) { plan.scans[i] = null; return; }
    st.listed++;
    if (n === 0) { plan.scans[i] = null; return; }
    const sc = plan.scans[i]!;
    sc.n = n; sc.first = sums[k * 4 + 1]; sc.last = sums[k * 4 + 2]; sc.inner = sums[k * 4 + 3];
  });
  return plan.scans.filter((s): s is Scan => s !== null);
}

function finishRendition(index: SegmentIndex, dataDir: string, ch: IndexedChannel, plan: Plan, sums: Float64Array, st: ReconcileStats): void {
  const store = index.store;
  const { r, inits, target, stored } = plan;
  const scans = completeScans(plan, sums, st);
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
  // Closed hours that had to be listed get a manifest entry, so the next rebuild from nothing need not list them:
  // one write per day touched (entries of hours no longer on disk are dropped with it).
  const touched = new Set<string>();
  scans.forEach((sc, i) => {
    if (!sc.listed || i === scans.length - 1) return;
    const h = rows[i];
    plan.days.get(sc.dir.day)?.set(hourName(sc.dir), { n: h.n, first_ms: h.first_ms, last_ms: h.last_ms, end_ms: h.end_ms, inner_discs: h.inner_discs, bytes: h.bytes, dir_mtime: h.dir_mtime });
    touched.add(sc.dir.day);
  });
  for (const day of touched) {
    const entries = plan.days.get(day)!;
    const onDisk = new Set(plan.dirs.filter((d) => d.day === day).map(hourName));
    for (const hh of entries.keys()) if (!onDisk.has(hh)) entries.delete(hh);
    writeDayManifest(day, entries);
  }
}

function sameSummary(a: HourRow, b: HourRow): boolean {
  return a.n === b.n && a.first_ms === b.first_ms && a.last_ms === b.last_ms && a.end_ms === b.end_ms && a.first_seq === b.first_seq && a.disc_seq_start === b.disc_seq_start
    && a.first_disc === b.first_disc && a.inner_discs === b.inner_discs && a.dir_mtime === b.dir_mtime;
}
