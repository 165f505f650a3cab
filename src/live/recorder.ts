import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SegmentRow } from '../features/channels/store';
import type { IndexedChannel, SegmentIndex } from './segment-index';
import { isCompleteSegment } from './mp4';
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

/**
 * Moves one finished segment into the recording tree (rename, same filesystem) and indexes it. The segment is
 * checked first (complete box structure); a broken one is deleted and never indexed. `initMs` names the init
 * segment of the run; it is written (temp name, then rename) when it does not exist yet.
 */
export function commitSegment(
  index: SegmentIndex, ch: IndexedChannel, rendition: string,
  seg: { file: string; startMs: number; durationMs: number; initFile: string; initMs: number },
): SegmentRow | null {
  const dataDir = index.dataDir;
  const bytes = readFileSync(seg.file);
  if (!isCompleteSegment(bytes)) { rmSync(seg.file, { force: true }); return null; }
  const init = initPath(dataDir, ch.tenant_id, ch.id, rendition, seg.initMs);
  if (!existsSync(init)) {
    mkdirSync(dirname(init), { recursive: true });
    writeFileSync(`${init}.tmp`, readFileSync(seg.initFile));
    renameSync(`${init}.tmp`, init);
  }
  const abs = segmentAbsPath(dataDir, segmentRelPath(ch.tenant_id, ch.id, rendition, seg.startMs));
  mkdirSync(dirname(abs), { recursive: true });
  renameSync(seg.file, abs);
  return index.append(ch, rendition, { startMs: seg.startMs, durationMs: seg.durationMs, bytes: bytes.length, initMs: seg.initMs });
}
