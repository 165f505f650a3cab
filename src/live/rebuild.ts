import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SegmentRow } from '../features/channels/store';
import { segmentDurationMs } from './mp4';
import { renditionDir, segmentRelPath } from './paths';

const num = (s: string) => (/^\d+$/.test(s) ? Number(s) : NaN);
const dirs = (p: string) => { try { return readdirSync(p).filter((n) => /^\d+$/.test(n)).sort((a, b) => num(a) - num(b)); } catch { return []; } };

/** Recorded segment start times (epoch ms) of one rendition, ascending, read from the file names only. */
export function listSegmentStarts(dir: string): number[] {
  const out: number[] = [];
  for (const y of dirs(dir)) for (const m of dirs(join(dir, y))) for (const d of dirs(join(dir, y, m))) for (const h of dirs(join(dir, y, m, d))) {
    const names = readdirSync(join(dir, y, m, d, h));
    const hour: number[] = [];
    for (const n of names) if (n.endsWith('.m4s') && /^\d+\.m4s$/.test(n)) hour.push(Number(n.slice(0, -4)));
    hour.sort((a, b) => a - b);
    for (const v of hour) out.push(v);
  }
  return out;
}

/** Init segment start times (epoch ms) of one rendition, ascending. */
export function listInits(dir: string): number[] {
  try { return readdirSync(join(dir, 'init')).filter((n) => /^\d+\.mp4$/.test(n)).map((n) => Number(n.slice(0, -4))).sort((a, b) => a - b); } catch { return []; }
}

/**
 * Rebuilds one rendition's index rows from its files. Durations come from the next segment's start within the
 * same run (init); the last segment of a run is measured from its boxes; discontinuities mark init changes and
 * gaps over one second. Only file names are read for all other segments, so a year rebuilds in seconds.
 */
export function* rebuildRows(dataDir: string, tenantId: string, channelId: string, rendition: string, targetMs: number): Generator<SegmentRow> {
  const dir = renditionDir(dataDir, tenantId, channelId, rendition);
  const starts = listSegmentStarts(dir);
  const inits = listInits(dir);
  let ii = -1, seq = 0, discSeq = 0, prevEnd: number | null = null, prevInit: number | null = null;
  for (let i = 0; i < starts.length; i++) {
    const s = starts[i];
    while (ii + 1 < inits.length && inits[ii + 1] <= s) ii++;
    const initMs = ii >= 0 ? inits[ii] : s;
    const next = starts[i + 1];
    const nextInit = ii + 1 < inits.length && next !== undefined && inits[ii + 1] <= next ? inits[ii + 1] : initMs;
    const rel = segmentRelPath(tenantId, channelId, rendition, s);
    let dur: number | null = next !== undefined && nextInit === initMs && next - s > 0 && next - s <= 3 * targetMs ? next - s : null;
    let bytes = -1;
    if (dur === null) {
      const f = join(dataDir, 'rec', rel);
      try {
        const buf = readFileSync(f);
        bytes = buf.length;
        dur = ii >= 0 ? segmentDurationMs(buf, readFileSync(join(dir, 'init', `${initMs}.mp4`))) : null;
      } catch { dur = null; }
      dur ??= targetMs;
    }
    if (bytes < 0) bytes = sizeOf(join(dataDir, 'rec', rel));
    const disc = prevEnd !== null && (prevInit !== initMs || Math.abs(s - prevEnd) > 1000) ? 1 : 0;
    discSeq += disc;
    yield { channel_id: channelId, rendition, start_ms: s, duration_ms: dur, bytes, path: rel, discontinuity: disc, init_ms: initMs, seq: seq++, disc_seq: discSeq };
    prevEnd = s + dur; prevInit = initMs;
  }
}

function sizeOf(p: string): number {
  try { return statSync(p).size; } catch { return 0; }
}

/** Renditions that have a directory in the recording tree. */
export function renditionsOnDisk(dataDir: string, tenantId: string, channelId: string): string[] {
  try { return readdirSync(join(dataDir, 'rec', tenantId, channelId)); } catch { return []; }
}

