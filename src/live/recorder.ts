import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SegmentRow } from './model';
import type { IndexedChannel, SegmentIndex } from './segment-index';
import { isCompleteSegment } from './mp4';
import { applyShift, type Patch, type Shift } from './rebase';
import { initPath, segmentAbsPath, segmentRelPath } from './paths';

/** A finished segment the ingest ffmpeg listed in its scratch playlist. */
export interface Landed { file: string; durationMs: number; landedAt: number; /** The init segment (EXT-X-MAP) it needs. */ init: string; /** Its number in the run (s<N>.m4s). */ index: number }

/** Reads an input's scratch playlist and reports each newly finished segment once per run. */
export class ScratchWatcher {
  private seen = new Set<string>();
  constructor(private dir: string) {}

  /** Forgets the previous run (its directory was emptied). */
  reset(): void { this.seen.clear(); }

  /** Segments finished since the last poll, oldest first. */
  poll(now = Date.now()): Landed[] {
    let text: string;
    try { text = readFileSync(join(this.dir, 'index.m3u8'), 'utf8'); } catch { return []; }
    const out: Landed[] = [];
    let dur = 0, init = join(this.dir, 'init.mp4');
    for (const line of text.split('\n')) {
      if (line.startsWith('#EXTINF:')) dur = Math.round(parseFloat(line.slice(8)) * 1000);
      else if (line.startsWith('#EXT-X-MAP:URI="')) init = join(this.dir, line.slice(16, line.indexOf('"', 16)));
      else if (line && !line.startsWith('#')) {
        if (this.seen.has(line)) continue;
        const file = join(this.dir, line);
        if (!existsSync(file)) continue;
        this.seen.add(line);
        out.push({ file, durationMs: dur, landedAt: now, init, index: Number(/(\d+)\.m4s$/.exec(line)?.[1] ?? -1) });
      }
    }
    return out;
  }
}

/** Rebasing of a segment onto the channel's media timeline: its init's tracks and the run's shift (chosen from its bytes). */
export interface Rebase { tracks: Map<number, { timescale: number; kind: string }>; shift: (seg: Uint8Array) => Shift | null }

/** Writes patched byte ranges of `bytes` back into `file` (a few bytes each: tfdt/sidx times). */
function writePatches(file: string, bytes: Uint8Array, patches: Patch[]): void {
  const fd = openSync(file, 'r+');
  try { for (const p of patches) writeSync(fd, bytes, p.offset, p.length, p.offset); } finally { closeSync(fd); }
}

/**
 * Moves one finished segment into the recording tree (rename, same filesystem) and indexes it. The segment is
 * checked first (complete box structure); a broken one is deleted and never indexed. With `rebase`, its decode
 * times (tfdt, sidx) are moved onto the channel's timeline in place before the rename. `initMs` names the init
 * segment of the run; it is written (temp name, then rename) when it does not exist yet.
 */
export function commitSegment(
  index: SegmentIndex, ch: IndexedChannel, rendition: string,
  seg: { file: string; startMs: number; durationMs: number; initFile: string; initMs: number; rebase?: Rebase },
): { row: SegmentRow; rebased: boolean } | null {
  const dataDir = index.dataDir;
  const bytes = readFileSync(seg.file);
  if (!isCompleteSegment(bytes)) { rmSync(seg.file, { force: true }); return null; }
  let rebased = false;
  const shift = seg.rebase?.shift(bytes);
  if (shift && seg.rebase) {
    const patches = applyShift(bytes, shift, seg.rebase.tracks);
    if (patches) { writePatches(seg.file, bytes, patches); rebased = true; }
  }
  const init = initPath(dataDir, ch.tenant_id, ch.id, rendition, seg.initMs);
  if (!existsSync(init)) {
    mkdirSync(dirname(init), { recursive: true });
    writeFileSync(`${init}.tmp`, readFileSync(seg.initFile));
    renameSync(`${init}.tmp`, init);
  }
  const abs = segmentAbsPath(dataDir, segmentRelPath(ch.tenant_id, ch.id, rendition, seg.startMs));
  mkdirSync(dirname(abs), { recursive: true });
  renameSync(seg.file, abs);
  return { row: index.append(ch, rendition, { startMs: seg.startMs, durationMs: seg.durationMs, bytes: bytes.length, initMs: seg.initMs }), rebased };
}
