import { readdirSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChannelStore, ChannelRow } from '../features/channels/store';
import { renditionDir, segmentAbsPath } from './paths';

/** Free-space floor of the data disk: below it the oldest recording goes first, whatever the retention. */
export const DISK_FLOOR_FRACTION = 0.05;

/** Deletes a channel's segments that started before `cutoffMs` (files first, then rows); returns how many. */
export function trimBefore(store: ChannelStore, dataDir: string, ch: ChannelRow, cutoffMs: number, max = 5000): number {
  const old = store.segmentsBefore(ch.id, cutoffMs, max);
  for (const s of old) { rmSync(segmentAbsPath(dataDir, s.path), { force: true }); store.deleteSegment(s); }
  if (old.length) dropUnusedInits(store, dataDir, ch);
  return old.length;
}

function dropUnusedInits(store: ChannelStore, dataDir: string, ch: ChannelRow): void {
  for (const r of store.renditions(ch.id).concat(['src'])) {
    const first = store.segmentsBefore(ch.id, Number.MAX_SAFE_INTEGER, 1).find((s) => s.rendition === r);
    const dir = join(renditionDir(dataDir, ch.tenant_id, ch.id, r), 'init');
    let names: string[] = [];
    try { names = readdirSync(dir); } catch { continue; }
    for (const n of names) {
      const ms = Number(n.replace(/\.mp4$/, ''));
      if (Number.isFinite(ms) && (!first || ms < first.init_ms)) rmSync(join(dir, n), { force: true });
    }
  }
}

/** One retention pass: per-channel hours (DVR window when recording is off), then the global disk floor. */
export function retentionPass(store: ChannelStore, dataDir: string, now: number): number {
  let n = 0;
  const chans = store.all();
  for (const ch of chans) {
    const keepMs = ch.recording_enabled ? ch.retention_hours * 3_600_000 : ch.dvr_window_s * 1000 + 60_000;
    n += trimBefore(store, dataDir, ch, now - keepMs);
  }
  for (let guard = 0; guard < 20 && lowDisk(dataDir); guard++) {
    const oldest = chans.map((c) => ({ c, s: store.segmentsBefore(c.id, Number.MAX_SAFE_INTEGER, 1)[0] })).filter((x) => x.s).sort((a, b) => a.s!.start_ms - b.s!.start_ms)[0];
    if (!oldest) break;
    n += trimBefore(store, dataDir, oldest.c, oldest.s!.start_ms + 600_000, 1000);
  }
  return n;
}

function lowDisk(dataDir: string): boolean {
  try { const s = statfsSync(dataDir); return s.bavail / s.blocks < DISK_FLOOR_FRACTION; } catch { return false; }
}
