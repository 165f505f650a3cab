import { readdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tx } from '../kernel/db/sqlite';
import type { LiveChannel as ChannelRow } from './model';
import type { HourRow } from './segment-store';
import { hourDir, initIndex, listInits, pruneEmptyParents } from './hours';
import { dropManifest } from './manifest';
import { renditionDir, segmentAbsPath } from './paths';
import type { SegmentIndex } from './segment-index';
import { HourMoves } from './hour-moves';

/** Free-space floor of the data disk: below it the oldest recording goes first, whatever the retention. */
export const DISK_FLOOR_FRACTION = 0.05;

/** Deletes a whole rendition-hour: its directory, rows and summary. Returns the segments it held. */
function dropHour(index: SegmentIndex, ch: ChannelRow, h: HourRow): number {
  const dir = hourDir(index.dataDir, ch.tenant_id, ch.id, h.rendition, h.hour_ms);
  // A bucket-held hour (hour-mover.ts): its rows go with its record turned `deleting` (one transaction), the mover's
  // sweep then removes its objects, so a restart in between still deletes them.
  const moves = new HourMoves(index.db);
  const inBucket = !!moves.get(ch.id, h.rendition, h.hour_ms);
  if (inBucket) {
    tx(index.db, () => {
      moves.setState(ch.id, h.rendition, h.hour_ms, 'deleting', Date.now());
      index.store.deleteHour(ch.id, h.rendition, h.hour_ms);
    });
  }
  rmSync(dir, { recursive: true, force: true });
  dropManifest(dir);
  pruneEmptyParents(dir);
  if (!inBucket) tx(index.db, () => index.store.deleteHour(ch.id, h.rendition, h.hour_ms));
  return h.n;
}

/** Deletes the segments of one hour that ended by `cutoffMs` (files first, then rows) and re-summarises the hour. */
function trimHour(index: SegmentIndex, ch: ChannelRow, h: HourRow, cutoffMs: number): number {
  if (new HourMoves(index.db).isHeld(ch.id, h.rendition, h.hour_ms)) return 0; // a bucket-held hour goes whole, once it has all ended
  if (!h.materialized) index.materialize(ch, h);
  const rows = index.store.rows(ch.id, h.rendition, h.hour_ms, h.hour_ms + 3_600_000);
  const old = rows.filter((s) => s.start_ms + s.duration_ms <= cutoffMs);
  if (!old.length) return 0;
  if (old.length === rows.length) return dropHour(index, ch, h);
  for (const s of old) rmSync(segmentAbsPath(index.dataDir, s.path), { force: true });
  const keep = rows.slice(old.length);
  const mtime = statSync(hourDir(index.dataDir, ch.tenant_id, ch.id, h.rendition, h.hour_ms)).mtimeMs;
  tx(index.db, () => {
    for (const s of old) index.store.deleteRow(s);
    const f = keep[0];
    index.store.upsertHour({ ...h, n: keep.length, first_ms: f.start_ms, first_seq: f.seq, disc_seq_start: f.disc_seq, first_disc: f.discontinuity,
      inner_discs: keep[keep.length - 1].disc_seq - f.disc_seq, bytes: keep.reduce((a, s) => a + s.bytes, 0), dir_mtime: mtime, materialized: 1 });
  });
  return old.length;
}

/** Deletes a channel's segments that ended before `cutoffMs`: whole hours at once, the boundary hour file by file. */
export function trimBefore(index: SegmentIndex, ch: ChannelRow, cutoffMs: number): number {
  let n = 0;
  for (const h of index.store.hoursBefore(ch.id, cutoffMs)) n += h.end_ms <= cutoffMs ? dropHour(index, ch, h) : trimHour(index, ch, h, cutoffMs);
  if (n) dropUnusedInits(index, ch);
  return n;
}

/** Removes init segments that no remaining segment needs (older than the one in force at the oldest segment). */
function dropUnusedInits(index: SegmentIndex, ch: ChannelRow): void {
  for (const r of readdirSafe(join(index.dataDir, 'rec', ch.tenant_id, ch.id))) {
    const rdir = renditionDir(index.dataDir, ch.tenant_id, ch.id, r);
    const inits = listInits(rdir);
    const first = index.store.hours(ch.id, r)[0];
    const keepFrom = first ? initIndex(inits, first.first_ms) : inits.length;
    for (let i = 0; i < keepFrom; i++) rmSync(join(rdir, 'init', `${inits[i]}.mp4`), { force: true });
  }
}

const readdirSafe = (p: string) => { try { return readdirSync(p); } catch { return []; } };

/** Options of a retention pass (tests inject the disk check). */
export interface RetentionOptions { lowDisk?: (dataDir: string) => boolean }

/**
 * One retention pass: per-channel hours (only the DVR window plus a minute when recording is off), then the
 * global disk floor: while free space is under DISK_FLOOR_FRACTION, the oldest hour of any channel goes first
 * (never a rendition's newest hour, which is the live edge). Returns segments deleted.
 */
export function retentionPass(index: SegmentIndex, channels: ChannelRow[], now: number, o: RetentionOptions = {}): number {
  let n = 0;
  for (const ch of channels) {
    const keepMs = ch.recording_enabled ? ch.retention_hours * 3_600_000 : ch.dvr_window_s * 1000 + 60_000;
    n += trimBefore(index, ch, now - keepMs);
  }
  const low = o.lowDisk ?? lowDisk;
  for (let guard = 0; guard < 1000 && low(index.dataDir); guard++) {
    const oldest = channels.map((c) => ({ c, h: index.store.oldestTrimmable(c.id) })).filter((x) => x.h).sort((a, b) => a.h!.hour_ms - b.h!.hour_ms)[0];
    if (!oldest) break;
    n += dropHour(index, oldest.c, oldest.h!);
    dropUnusedInits(index, oldest.c);
  }
  return n;
}

/** True when the data disk's free fraction is under the floor. */
export function lowDisk(dataDir: string): boolean {
  try { const s = statfsSync(dataDir); return s.bavail / s.blocks < DISK_FLOOR_FRACTION; } catch { return false; }
}
